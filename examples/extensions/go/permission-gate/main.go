// Asks before a bash command that deletes, formats or force-pushes runs. Without anyone to ask
// (print and JSON mode) such a command is blocked.
//
//	go build -o bin/permission-gate ./permission-gate && pig -e permission-gate
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"regexp"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

var risky = []*regexp.Regexp{
	regexp.MustCompile(`\brm\s+(-[a-zA-Z]*[rf]|--recursive|--force)`),
	regexp.MustCompile(`\bmkfs\b`),
	regexp.MustCompile(`\bdd\s+if=`),
	regexp.MustCompile(`\bgit\s+push\b.*(--force|-f)\b`),
	regexp.MustCompile(`\bsudo\b`),
}

func isRisky(command string) bool {
	for _, r := range risky {
		if r.MatchString(command) {
			return true
		}
	}
	return false
}

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.OnToolCall(func(c *sdk.Context, e sdk.ToolCallEvent) (sdk.ToolCallResult, error) {
			if e.ToolName != "bash" {
				return sdk.ToolCallResult{}, nil
			}
			var input struct {
				Command string `json:"command"`
			}
			_ = json.Unmarshal(e.Input, &input)
			if !isRisky(input.Command) {
				return sdk.ToolCallResult{}, nil
			}
			if !c.HasUI() {
				return sdk.ToolCallResult{Block: true, Reason: fmt.Sprintf("Blocked without confirmation: %s", input.Command)}, nil
			}
			allowed, err := c.UI().Confirm("Run this command?", input.Command)
			if err != nil || !allowed {
				return sdk.ToolCallResult{Block: true, Reason: "The user declined this command."}, nil
			}
			return sdk.ToolCallResult{}, nil
		})
	}, sdk.WithClient("permission-gate", "1.0"))
	if err != nil {
		log.Fatal(err)
	}
}
