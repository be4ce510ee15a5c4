// Statistics of session files: entries and branches, messages by role, tool calls by name,
// tokens and cost. The files are read with sessionfile, without pig; with -pig each is also
// opened by a pig process over RPC and its get_session_stats is printed beside, counted the
// same way (every branch, and what compaction summarised away).
//
//	go build -o bin/ ./... && bin/stats ~/.pig/agent/sessions/
//	bin/stats -pig pig session.jsonl
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pig-coding-agent/pig/sdk/go/rpc"
	"github.com/pig-coding-agent/pig/sdk/go/sessionfile"
)

// stats are one file's figures.
type stats struct {
	entries, branch, leaves int
	roles                   map[string]int
	tools                   map[string]int
	tokens                  rpc.Tokens
	cost                    float64
}

// usage is the part of a usage object the totals add up.
type usage struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
	Cost       struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

// line is what the figures need of an entry.
type line struct {
	Type     string  `json:"type"`
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
	Usage    *usage  `json:"usage"`
	Message  *struct {
		Role  string `json:"role"`
		Usage *usage `json:"usage"`
	} `json:"message"`
}

func (s *stats) add(u *usage) {
	if u == nil {
		return
	}
	s.tokens.Input += u.Input
	s.tokens.Output += u.Output
	s.tokens.CacheRead += u.CacheRead
	s.tokens.CacheWrite += u.CacheWrite
	s.tokens.Total = s.tokens.Input + s.tokens.Output + s.tokens.CacheRead + s.tokens.CacheWrite
	s.cost += u.Cost.Total
}

func read(path string) (*stats, error) {
	f, err := sessionfile.Open(path)
	if err != nil {
		return nil, err
	}
	s := &stats{roles: map[string]int{}, tools: map[string]int{}}
	hasChild := map[string]bool{}
	var ids []string
	for _, raw := range f.Lines {
		var l line
		if json.Unmarshal(raw, &l) != nil || l.ID == "" {
			continue // a torn or foreign line
		}
		s.entries++
		ids = append(ids, l.ID)
		if l.ParentID != nil {
			hasChild[*l.ParentID] = true
		}
		switch {
		case l.Type == "usage" || l.Type == "compaction" || l.Type == "branch_summary":
			s.add(l.Usage)
		case l.Type == "message" && l.Message != nil:
			s.roles[l.Message.Role]++
			if l.Message.Role == "assistant" || l.Message.Role == "toolResult" {
				s.add(l.Message.Usage)
			}
			// Tool calls of every branch, by name (sessionfile's reading of the content).
			if e, err := sessionfile.ParseEntry(raw); err == nil {
				for _, call := range e.ToolCalls {
					s.tools[call.Name]++
				}
			}
		}
	}
	for _, id := range ids {
		if !hasChild[id] {
			s.leaves++
		}
	}
	s.branch = len(f.Branch())
	return s, nil
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// counts is "name n, name n" by count, then name.
func counts(m map[string]int) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func report(path string, s *stats) {
	fmt.Println(path)
	fmt.Printf("  entries: %d (active branch %d, branches %d)\n", s.entries, s.branch, s.leaves)
	fmt.Printf("  messages: %d (%s)\n", total(s.roles), counts(s.roles))
	fmt.Printf("  tool calls: %d (%s)\n", total(s.tools), counts(s.tools))
	t := s.tokens
	fmt.Printf("  tokens: %d (input %d, output %d, cache read %d, cache write %d)\n", t.Total, t.Input, t.Output, t.CacheRead, t.CacheWrite)
	fmt.Printf("  cost: $%.4f\n", s.cost)
}

// askPig opens the session in a pig process and returns its statistics.
func askPig(pig, path string) (*rpc.SessionStats, error) {
	c, err := rpc.Start(rpc.Options{Binary: pig, Args: []string{"--session", path}})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := c.GetSessionStats(ctx)
	if err != nil {
		_ = c.Close(ctx)
		return nil, err
	}
	return st, c.Close(ctx)
}

// sessions are the .jsonl files named, directories searched.
func sessions(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

func main() {
	pig := flag.String("pig", "", "also ask this pig executable for get_session_stats")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: stats [-pig pig] <session file or directory>...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	files, err := sessions(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "stats:", err)
		os.Exit(1)
	}
	failed := false
	for _, path := range files {
		s, err := read(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stats:", err)
			failed = true
			continue
		}
		report(path, s)
		if *pig == "" {
			continue
		}
		st, err := askPig(*pig, path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stats:", path+":", err)
			failed = true
			continue
		}
		fmt.Printf("  pig: messages %d (user %d, assistant %d, tool results %d), tool calls %d, tokens %d, cost $%.4f\n",
			st.TotalMessages, st.UserMessages, st.AssistantMessages, st.ToolResults, st.ToolCalls, st.Tokens.Total, st.Cost)
	}
	if failed {
		os.Exit(1)
	}
}
