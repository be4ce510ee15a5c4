package sdk

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// ExecOptions: Dir defaults to the session's cwd; Timeout (0: none) ends the process.
type ExecOptions struct {
	Dir     string
	Timeout time.Duration
}

// ExecResult is what a process left: its output, its exit code, and whether it was killed
// (timeout or cancellation).
type ExecResult struct {
	Stdout string
	Stderr string
	Code   int
	Killed bool
}

// Exec runs a program on the extension's side, without a shell, in the session's cwd. When c
// ends or the timeout passes, the process gets SIGTERM and, 5 s later, SIGKILL. A program that
// cannot start is an error.
func (c *Context) Exec(name string, args []string, opts ExecOptions) (ExecResult, error) {
	ctx := context.Context(c)
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	dir := opts.Dir
	if dir == "" {
		dir = c.Cwd()
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return ExecResult{Code: 1, Stderr: err.Error()}, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	killed := false
	select {
	case err = <-exited:
	case <-ctx.Done():
		killed = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err = <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			err = <-exited
		}
	}
	res := ExecResult{Stdout: stdout.String(), Stderr: stderr.String(), Killed: killed}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		res.Code = exit.ExitCode()
		if res.Code < 0 {
			res.Code = 0 // killed by a signal
		}
	}
	return res, nil
}
