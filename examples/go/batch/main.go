// Runs one prompt in many directories: a pig process per directory, at most -j at a time,
// then a line per directory (its answer's first line, or why it failed) and a summary. The
// exit code is 1 when any directory failed.
//
//	go build -o bin/ ./... && bin/batch -j 4 -prompt "Does this project have tests? Answer yes or no." ~/src/*/
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pig-coding-agent/pig/sdk/go/rpc"
)

type result struct {
	dir    string
	answer string
	err    error
	took   time.Duration
}

func main() {
	pig := flag.String("pig", "pig", "the pig executable")
	prompt := flag.String("prompt", "", "the prompt to run in every directory")
	jobs := flag.Int("j", 2, "how many pig processes run at once")
	timeout := flag.Duration("timeout", 10*time.Minute, "the time limit per directory")
	keep := flag.Bool("sessions", false, "keep a session file per directory (default: --no-session)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: batch [flags] -prompt <text> <dir>...")
		flag.PrintDefaults()
	}
	flag.Parse()
	dirs := flag.Args()
	if *prompt == "" || len(dirs) == 0 || *jobs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	var args []string
	if !*keep {
		args = []string{"--no-session"}
	}

	results := make([]result, len(dirs))
	slots := make(chan struct{}, *jobs)
	var wg sync.WaitGroup
	for i, dir := range dirs {
		wg.Add(1)
		go func(i int, dir string) {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			start := time.Now()
			answer, err := runOne(*pig, args, dir, *prompt, *timeout)
			results[i] = result{dir: dir, answer: answer, err: err, took: time.Since(start)}
			fmt.Fprintf(os.Stderr, "done %s (%s)\n", dir, time.Since(start).Round(time.Millisecond))
		}(i, dir)
	}
	wg.Wait()

	failed := 0
	for _, r := range results {
		if r.err != nil {
			failed++
			fmt.Printf("FAIL %s: %v\n", r.dir, r.err)
			continue
		}
		fmt.Printf("ok   %s: %s\n", r.dir, firstLine(r.answer))
	}
	fmt.Printf("%d ok, %d failed\n", len(results)-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// runOne asks one pig, working in dir, and returns its answer.
func runOne(pig string, args []string, dir, prompt string, timeout time.Duration) (string, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return "", fmt.Errorf("not a directory")
	}
	c, err := rpc.Start(rpc.Options{Binary: pig, Args: args, Dir: dir})
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := c.PromptAndWait(ctx, prompt, nil)
	// Out of time, the run was aborted before PromptAndWait returned: pig gets 10 s to exit,
	// then it is killed.
	stop, cancelStop := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelStop()
	if err != nil {
		_ = c.Close(stop)
		return "", err
	}
	if err := c.Close(stop); err != nil {
		return "", err
	}
	return res.Text, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
