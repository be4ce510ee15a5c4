package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Options configure a client. Binary, Args, Dir, Env and Stderr apply to Start only.
type Options struct {
	// Binary is the pig executable; "" means "pig" on PATH.
	Binary string
	// Args come after "--mode rpc": "--model", "--session", "-e", "--no-session", …
	Args []string
	// Dir is pig's working directory ("" is the caller's).
	Dir string
	// Env is pig's environment (nil is the caller's), as in os/exec.
	Env []string
	// Stderr receives pig's standard error (diagnostics). Its last lines are kept either
	// way, for the error that reports pig's exit.
	Stderr io.Writer

	// UI answers the extension UI requests. nil fields (or a nil UI) get the safe defaults:
	// dialogs are cancelled at once, the rest is ignored.
	UI *UI
	// OnEvent sees every event from the first line on (callbacks registered after Start can
	// miss the first events, such as the extension errors of pig's start).
	OnEvent func(Event)
	// MaxLineBytes bounds a line from pig; 0 means no bound (a line holding a large image or
	// a long session can be hundreds of megabytes). A longer line ends the client with
	// ErrLineTooLong.
	MaxLineBytes int
}

// Client drives one pig process over its RPC protocol (docs/rpc.md). Its methods may be
// called from several goroutines at once; pig handles commands independently, so their
// answers can come in any order.
type Client struct {
	opts Options
	in   io.Writer
	// closeIn ends pig's input; pig then finishes what it was asked and exits.
	closeIn   func() error
	closeOnce sync.Once
	writes    chan *outgoing

	mu         sync.Mutex
	nextID     uint64
	pending    map[string]*pendingCall
	subs       map[*Subscription]struct{}
	waiters    map[*queue]struct{}
	handlers   []*handler
	finished   bool
	err        error
	callbacks  *queue
	dispatched chan struct{}
	uiOrdered  *queue

	// life is cancelled when the client ends (dialog callbacks watch it).
	life context.Context
	stop context.CancelFunc
	done chan struct{}

	// A started process; nil when attached.
	proc   *exec.Cmd
	exited chan struct{}
	exit   *ExitError
	stderr *tail
}

type outgoing struct {
	line   []byte
	ctx    context.Context
	result chan error
}

// response is one response line; seq is its place among the lines.
type response struct {
	seq     uint64
	success bool
	message string
	data    json.RawMessage
}

type pendingCall struct {
	command string
	answer  chan *response
	// Output lines (bash_execution_update) that carry this call's id, for the caller to take.
	mu      sync.Mutex
	updates []string
	notify  chan struct{}
}

// Start runs `pig --mode rpc` with opts and returns a client for it.
func Start(opts Options) (*Client, error) {
	binary := opts.Binary
	if binary == "" {
		binary = "pig"
	}
	cmd := exec.Command(binary, append([]string{"--mode", "rpc"}, opts.Args...)...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipes rather than cmd's copying goroutines: Wait then returns when pig exits,
	// even if a process pig started still holds an end.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, fmt.Errorf("pig rpc: starting %s: %w", binary, err)
	}
	outW.Close()
	errW.Close()
	c := newClient(opts, stdin, stdin.Close)
	c.proc = cmd
	c.exited = make(chan struct{})
	c.stderr = &tail{max: 16 << 10}
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		var w io.Writer = c.stderr
		if opts.Stderr != nil {
			w = io.MultiWriter(c.stderr, opts.Stderr)
		}
		_, _ = io.Copy(w, errR)
	}()
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		c.read(outR)
	}()
	go func() {
		waitErr := cmd.Wait()
		// What pig wrote last is usually read at once; a process pig left behind that holds
		// the pipes open must not keep the client waiting.
		grace, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		select {
		case <-stderrDone:
		case <-grace.Done():
			errR.Close()
		}
		c.exit = exitErrorOf(cmd.ProcessState, waitErr, c.stderr.String())
		close(c.exited)
		select {
		case <-readerDone:
		case <-grace.Done():
			outR.Close()
		}
	}()
	return c, nil
}

// Attach drives a pig already running in RPC mode through its pipes: r is its standard
// output, w its standard input. Close closes w when it is an io.Closer. Only UI, OnEvent and
// MaxLineBytes of opts apply.
func Attach(r io.Reader, w io.Writer, opts Options) *Client {
	closeIn := func() error { return nil }
	if closer, ok := w.(io.Closer); ok {
		closeIn = closer.Close
	}
	c := newClient(opts, w, closeIn)
	go c.read(r)
	return c
}

func newClient(opts Options, in io.Writer, closeIn func() error) *Client {
	life, stop := context.WithCancel(context.Background())
	c := &Client{
		opts:       opts,
		in:         in,
		closeIn:    closeIn,
		writes:     make(chan *outgoing),
		pending:    map[string]*pendingCall{},
		subs:       map[*Subscription]struct{}{},
		waiters:    map[*queue]struct{}{},
		callbacks:  newQueue(),
		dispatched: make(chan struct{}),
		uiOrdered:  newQueue(),
		life:       life,
		stop:       stop,
		done:       make(chan struct{}),
	}
	if opts.OnEvent != nil {
		c.handlers = []*handler{{fn: opts.OnEvent}}
	}
	go c.writeLoop()
	go c.dispatch()
	go c.serveOrderedUI()
	return c
}

// PID is the process id of a started pig (0 for an attached client).
func (c *Client) PID() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Process.Pid
}

// Done is closed once the client has ended: pig exited or its output closed. Every call
// waiting then has returned an error.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is why the client ended (nil while it runs): an *ExitError for a started pig,
// ErrClosed (or an error wrapping it) for an attached one.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends pig's input and waits for it to exit: pig finishes what it was asked first (a
// running prompt included; Abort before Close to stop it, or give PromptAndWait a context
// that ends). It returns as Wait does. When ctx ends first, a started pig is killed (and
// waited for) and the error is ctx's (errors.Is(err, context.DeadlineExceeded)); an attached
// client just returns it.
func (c *Client) Close(ctx context.Context) error {
	c.closeInput()
	select {
	case <-c.done:
		return c.Wait()
	default:
	}
	select {
	case <-c.done:
		return c.Wait()
	case <-ctx.Done():
		if c.proc != nil {
			_ = c.Kill()
			<-c.done
			return fmt.Errorf("pig rpc: pig was killed, it had not exited when the context ended: %w", ctx.Err())
		}
		return ctx.Err()
	}
}

// Wait waits for the client to end and for the event callbacks to have run, and returns nil
// when pig exited with code 0 (an attached client: when its output ended cleanly), or the
// error that ended it. A callback must not call Wait or Close (it would wait for
// itself).
func (c *Client) Wait() error {
	<-c.done
	<-c.dispatched
	if c.proc != nil {
		<-c.exited
		if c.exit.Code == 0 {
			return nil
		}
		return c.exit
	}
	if err := c.Err(); !errors.Is(err, errEOF) {
		return err
	}
	return nil
}

// ExitCode is a started pig's exit code once it exited, -1 before (and for an attached
// client, or a pig killed by a signal).
func (c *Client) ExitCode() int {
	if c.proc == nil {
		return -1
	}
	select {
	case <-c.exited:
		return c.exit.Code
	default:
		return -1
	}
}

// Kill ends a started pig at once (SIGKILL).
func (c *Client) Kill() error {
	if c.proc == nil {
		return errors.New("pig rpc: an attached client has no process to kill")
	}
	return c.proc.Process.Kill()
}

// Signal sends sig to a started pig (pig exits on SIGTERM with 143, on SIGHUP with 129).
func (c *Client) Signal(sig os.Signal) error {
	if c.proc == nil {
		return errors.New("pig rpc: an attached client has no process to signal")
	}
	return c.proc.Process.Signal(sig)
}
