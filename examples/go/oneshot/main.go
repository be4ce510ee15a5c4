// Asks pig one question and prints the answer: a pig process in RPC mode, one prompt, the
// final answer's text on stdout. Tool calls are shown on stderr as they happen.
//
//	go build -o bin/ ./... && bin/oneshot -- "What does main.go do?"
//	bin/oneshot -pig ./dist/pig -model anthropic/claude-sonnet-4-5 -timeout 2m -- "Summarise README.md"
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pig-coding-agent/pig/sdk/go/rpc"
)

func main() {
	pig := flag.String("pig", "pig", "the pig executable")
	model := flag.String("model", "", "the model, as pig's --model takes it")
	dir := flag.String("C", "", "the directory pig works in (default: this one)")
	timeout := flag.Duration("timeout", 0, "give up after this long (default: no limit)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: oneshot [flags] -- <prompt>")
		flag.PrintDefaults()
	}
	flag.Parse()
	prompt := strings.Join(flag.Args(), " ")
	if strings.TrimSpace(prompt) == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*pig, *model, *dir, *timeout, prompt); err != nil {
		fmt.Fprintln(os.Stderr, "oneshot:", err)
		os.Exit(1)
	}
}

func run(pig, model, dir string, timeout time.Duration, prompt string) error {
	// A one-off question needs no session file.
	args := []string{"--no-session"}
	if model != "" {
		args = append(args, "--model", model)
	}
	c, err := rpc.Start(rpc.Options{
		Binary: pig,
		Args:   args,
		Dir:    dir,
		OnEvent: func(ev rpc.Event) {
			if e, ok := ev.(*rpc.ToolExecutionStartEvent); ok {
				fmt.Fprintf(os.Stderr, "· %s %s\n", e.ToolName, e.Args)
			}
		},
	})
	if err != nil {
		return err
	}
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	res, err := c.PromptAndWait(ctx, prompt, nil)
	// Out of time, the run was aborted before PromptAndWait returned; pig gets 10 s to exit.
	stop, cancelStop := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelStop()
	if err != nil {
		_ = c.Close(stop)
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("no answer within %s, the run was stopped", timeout)
		}
		return err
	}
	fmt.Println(res.Text)
	return c.Close(stop)
}
