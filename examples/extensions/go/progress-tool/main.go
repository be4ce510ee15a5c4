// A tool that reports progress while it works: `count_lines` counts the lines of each file it
// is given, one update per file, and stops when the run is cancelled (Escape) — also in the
// middle of a read that blocks (a pipe, a slow network file system).
//
//	go build -o bin/progress-tool ./progress-tool && pig -e progress-tool
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

const parameters = `{
  "type": "object",
  "properties": {"paths": {"type": "array", "items": {"type": "string"}, "description": "Files, relative to the working directory"}},
  "required": ["paths"]
}`

// countLines reads a file on a goroutine of its own, so a cancelled run need not wait for it.
func countLines(c *sdk.ToolContext, path string) (int, error) {
	type counted struct {
		n   int
		err error
	}
	done := make(chan counted, 1)
	go func() {
		data, err := os.ReadFile(path)
		n := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		done <- counted{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-c.Done():
		return 0, c.Err()
	}
}

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.RegisterTool(sdk.Tool{
			Name:          "count_lines",
			Label:         "Count lines",
			Description:   "Counts the lines of each of the given files.",
			PromptSnippet: "Count the lines of files",
			Parameters:    json.RawMessage(parameters),
			Execute: func(c *sdk.ToolContext, args json.RawMessage) (sdk.ToolResult, error) {
				var p struct {
					Paths []string `json:"paths"`
				}
				if err := json.Unmarshal(args, &p); err != nil {
					return sdk.ToolResult{}, err
				}
				counts := map[string]int{}
				var lines []string
				for i, path := range p.Paths {
					n, err := countLines(c, filepath.Join(c.Cwd(), path))
					if c.Err() != nil {
						fmt.Fprintf(os.Stderr, "count_lines cancelled at %s\n", path)
						return sdk.ToolResult{}, fmt.Errorf("cancelled")
					}
					if err != nil {
						return sdk.ToolResult{}, err
					}
					counts[path] = n
					lines = append(lines, fmt.Sprintf("%s: %d", path, n))
					progress := fmt.Sprintf("%d/%d: %s", i+1, len(p.Paths), path)
					if err := c.Progress([]sdk.Content{sdk.Text(progress)}, map[string]any{"counts": counts}); err != nil {
						return sdk.ToolResult{}, err
					}
				}
				return sdk.ToolResult{Content: []sdk.Content{sdk.Text(strings.Join(lines, "\n"))}, Details: map[string]any{"counts": counts}}, nil
			},
		})
	}, sdk.WithClient("progress-tool", "1.0"))
	if err != nil {
		log.Fatal(err)
	}
}
