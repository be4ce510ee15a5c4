// Counts the prompts of a session and keeps the count in the session file (a `custom` entry
// the model never sees), so it survives /resume and follows the branch: after /tree to an
// earlier point the count is the one recorded on that branch. `/count` shows it.
//
//	go build -o bin/prompt-counter ./prompt-counter && pig -e prompt-counter
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"sync"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

const entryType = "prompt-counter"

type counter struct {
	mu    sync.Mutex
	count int
}

// restore takes the count from the last entry of ours on the active branch.
func (k *counter) restore(c *sdk.Context) error {
	branch := c.GetBranch()
	if err := c.Err(); err != nil {
		return err
	}
	count := 0
	for _, e := range branch {
		if e.Type == "custom" && e.CustomType == entryType {
			var d struct {
				Count int `json:"count"`
			}
			if json.Unmarshal(e.Data, &d) == nil {
				count = d.Count
			}
		}
	}
	k.mu.Lock()
	k.count = count
	k.mu.Unlock()
	return nil
}

func (k *counter) next() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.count++
	return k.count
}

func (k *counter) current() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.count
}

func main() {
	k := &counter{}
	err := sdk.Run(func(x *sdk.Extension) {
		restore := func(c *sdk.Context, _ sdk.Event) (any, error) { return nil, k.restore(c) }
		x.On("session_start", restore)
		x.On("session_tree", restore)
		x.OnBeforeAgentStart(func(c *sdk.Context, _ sdk.BeforeAgentStartEvent) (sdk.BeforeAgentStartResult, error) {
			return sdk.BeforeAgentStartResult{}, c.AppendEntry(entryType, map[string]int{"count": k.next()})
		})
		x.RegisterCommand(sdk.Command{
			Name:        "count",
			Description: "Show how many prompts this branch of the session has had",
			Run: func(c *sdk.Context, _ string) error {
				n := k.current()
				plural := "s"
				if n == 1 {
					plural = ""
				}
				return c.UI().Notify(fmt.Sprintf("%d prompt%s on this branch", n, plural), "info")
			},
		})
	}, sdk.WithClient("prompt-counter", "1.0"))
	if err != nil {
		log.Fatal(err)
	}
}
