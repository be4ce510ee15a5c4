// Reads the session log: `/session` tells how many entries the session has, what the active
// branch holds and where it ends; `/session-export <file>` writes every entry, each exactly as
// its line in the session file (unknown fields and all). The log reaches the extension only
// once one of them runs (lazy replication), and stays current after that.
//
//	go build -o bin/session-reader ./session-reader && pig -e session-reader
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

func summary(c *sdk.Context) (string, error) {
	entries := c.GetEntries()
	branch := c.GetBranch()
	leaf := c.GetLeafID()
	if err := c.Err(); err != nil {
		return "", err
	}
	roles := []string{}
	for _, e := range branch {
		if e.Type == "message" && e.Role != "system" {
			roles = append(roles, e.Role)
		}
	}
	file := c.GetSessionFile()
	if file == "" {
		file = "no file"
	}
	return fmt.Sprintf("%d entries; branch: %s; leaf %s; %s", len(entries), strings.Join(roles, " → "), leaf, filepath.Base(file)), nil
}

func export(c *sdk.Context, path string) error {
	entries := c.GetEntries()
	if err := c.Err(); err != nil {
		return err
	}
	var out bytes.Buffer
	for _, e := range entries {
		out.Write(e)
		out.WriteByte('\n')
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.Cwd(), path)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		return err
	}
	return c.UI().Notify(fmt.Sprintf("wrote %d entries to %s", len(entries), path), "info")
}

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.RegisterCommand(sdk.Command{
			Name:        "session",
			Description: "Show the size of the session and its active branch",
			Run: func(c *sdk.Context, _ string) error {
				text, err := summary(c)
				if err != nil {
					return err
				}
				return c.UI().Notify(text, "info")
			},
		})
		x.RegisterCommand(sdk.Command{
			Name:        "session-export",
			Description: "Write every entry of the session, exactly as stored, to a file",
			Run: func(c *sdk.Context, args string) error {
				if strings.TrimSpace(args) == "" {
					return c.UI().Notify("usage: /session-export <file>", "warning")
				}
				return export(c, strings.TrimSpace(args))
			},
		})
	}, sdk.WithClient("session-reader", "1.0"))
	if err != nil {
		log.Fatal(err)
	}
}
