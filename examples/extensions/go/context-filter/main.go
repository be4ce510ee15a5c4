// Keeps bulky tool output out of the model's context: before every model call, a tool result
// longer than 4,000 characters is replaced by its first and last 20 lines. The session file
// keeps the whole result; only what is sent changes.
//
//	go build -o bin/context-filter ./context-filter && pig -e context-filter
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"unicode/utf8"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

const limit = 4000

type block struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// shorten returns the message with its text cut down, or nil when it stays as it is.
func shorten(message json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(message, &m) != nil || string(m["role"]) != `"toolResult"` {
		return nil
	}
	var blocks []block
	if json.Unmarshal(m["content"], &blocks) != nil {
		return nil
	}
	var text strings.Builder
	for _, b := range blocks {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	// Characters as JavaScript counts them would be UTF-16 units; runes are close enough here.
	if utf8.RuneCountInString(text.String()) <= limit {
		return nil
	}
	lines := strings.Split(text.String(), "\n")
	if len(lines) <= 40 {
		return nil
	}
	kept := append(append(append([]string{}, lines[:20]...), fmt.Sprintf("[… %d lines left out of the context …]", len(lines)-40)), lines[len(lines)-20:]...)
	content, _ := json.Marshal([]block{{Type: "text", Text: strings.Join(kept, "\n")}})
	m["content"] = content
	out, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return out
}

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.OnContext(func(c *sdk.Context, e sdk.ContextEvent) (sdk.ContextResult, error) {
			changed := false
			messages := make([]json.RawMessage, len(e.Messages))
			for i, m := range e.Messages {
				messages[i] = m
				if short := shorten(m); short != nil {
					messages[i], changed = short, true
				}
			}
			if !changed {
				return sdk.ContextResult{}, nil
			}
			return sdk.ContextResult{Messages: messages}, nil
		})
	}, sdk.WithClient("context-filter", "1.0"))
	if err != nil {
		log.Fatal(err)
	}
}
