package rpc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// ErrClosed is the error (or what the error wraps) of calls made or waiting when the
// connection to pig ends.
var ErrClosed = errors.New("pig rpc: the connection to pig is closed")

// ErrAborted is what the error of PromptAndWait is (to errors.Is) when the run was aborted:
// by Abort, by another client or an extension, or by PromptAndWait itself when its context
// ended (the error is then the context's error too).
var ErrAborted = errors.New("pig rpc: the run was aborted")

// abortError is an aborted run, with the context error that made the client abort it (nil
// when someone else did).
type abortError struct{ cause error }

func (e *abortError) Error() string {
	if e.cause != nil {
		return "the run was aborted: " + e.cause.Error()
	}
	return "the run was aborted"
}
func (e *abortError) Is(target error) bool { return target == ErrAborted }
func (e *abortError) Unwrap() error        { return e.cause }

var errEOF = &closedError{cause: io.EOF}

// closedError is an ended connection, with why.
type closedError struct{ cause error }

func (e *closedError) Error() string {
	if errors.Is(e.cause, io.EOF) {
		return "pig rpc: pig's output ended"
	}
	return "pig rpc: reading pig's output: " + e.cause.Error()
}
func (e *closedError) Is(target error) bool { return target == ErrClosed }
func (e *closedError) Unwrap() error        { return e.cause }

// ExitError is how a started pig ended: its exit code (-1 when a signal killed it) and the
// end of what it wrote on standard error. It is ErrClosed to errors.Is.
type ExitError struct {
	Code int
	// State is the process state as os/exec words it ("exit status 1", "signal: killed").
	State  string
	Stderr string
}

func (e *ExitError) Error() string {
	msg := "pig exited (" + e.State + ")"
	if e.Code == 0 {
		msg = "pig exited"
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += ": " + lastLines(s, 5)
	}
	return msg
}
func (e *ExitError) Is(target error) bool { return target == ErrClosed }

func exitErrorOf(state *os.ProcessState, waitErr error, stderr string) *ExitError {
	if state == nil {
		return &ExitError{Code: -1, State: fmt.Sprint(waitErr), Stderr: stderr}
	}
	return &ExitError{Code: state.ExitCode(), State: state.String(), Stderr: stderr}
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// CommandError is a command that failed: pig refused it (Message is pig's error, Err nil), or
// the connection ended before its answer (Err is the reason: an *ExitError, ErrClosed, …).
type CommandError struct {
	Command string
	Message string
	Err     error
}

func (e *CommandError) Error() string {
	if e.Err != nil {
		return "pig rpc " + e.Command + ": " + e.Err.Error()
	}
	return "pig rpc " + e.Command + ": " + e.Message
}
func (e *CommandError) Unwrap() error { return e.Err }
