// A command: `/words <text>` counts the words of its argument, `/words` alone (or `/words
// last`, which it offers as a completion) those of the last answer. Works in every mode.
//
//	go build -o bin/word-count-command ./word-count-command && pig -e word-count-command
package main

import (
	"fmt"
	"log"
	"strings"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

func lastAnswer(c *sdk.Context) (string, error) {
	branch := c.GetBranch()
	if err := c.Err(); err != nil {
		return "", err
	}
	for i := len(branch) - 1; i >= 0; i-- {
		if branch[i].Type == "message" && branch[i].Role == "assistant" {
			return branch[i].Text, nil
		}
	}
	return "", nil
}

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.RegisterCommand(sdk.Command{
			Name:        "words",
			Description: "Count the words of the text given, or of the last answer",
			Complete: func(prefix string) []sdk.Completion {
				if strings.HasPrefix("last", prefix) {
					return []sdk.Completion{{Value: "last", Description: "the last answer"}}
				}
				return nil
			},
			Run: func(c *sdk.Context, args string) error {
				text := strings.TrimSpace(args)
				if text == "" || text == "last" {
					var err error
					if text, err = lastAnswer(c); err != nil {
						return err
					}
				}
				return c.UI().Notify(fmt.Sprintf("%d words", len(strings.Fields(text))), "info")
			},
		})
	}, sdk.WithClient("word-count-command", "1.0"))
	if err != nil {
		log.Fatal(err)
	}
}
