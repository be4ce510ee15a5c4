package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// Close ends pig's input and waits for it to exit: pig finishes what it was asked first
// (a running prompt included; Abort before Close to stop it). It returns as Wait does.
func (c *Client) Close() error {
	c.closeInput()
	return c.Wait()
}

// Shutdown is Close with a deadline: when ctx ends first, a started pig is killed (and
// waited for) and ctx.Err() returned; an attached client just returns ctx.Err().
func (c *Client) Shutdown(ctx context.Context) error {
	c.closeInput()
	select {
	case <-c.done:
		return c.Wait()
	case <-ctx.Done():
		if c.proc != nil {
			_ = c.Kill()
			<-c.done
		}
		return ctx.Err()
	}
}

// Wait waits for the client to end and for the event callbacks to have run, and returns nil
// when pig exited with code 0 (an attached client: when its output ended cleanly), or the
// error that ended it. A callback must not call Wait, Close or Shutdown (it would wait for
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

func (c *Client) closeInput() {
	c.closeOnce.Do(func() { _ = c.closeIn() })
}

// read is the one goroutine that reads pig's output, until it ends.
func (c *Client) read(r io.Reader) {
	lr := newLineReader(r, c.opts.MaxLineBytes)
	var seq uint64
	var cause error
	for {
		line, err := lr.next()
		if err != nil {
			cause = err
			break
		}
		seq++
		c.handleLine(seq, line)
	}
	if c.proc != nil {
		// The exit code says more than the closed pipe.
		if errors.Is(cause, ErrLineTooLong) {
			_ = c.Kill()
		}
		<-c.exited
		if errors.Is(cause, ErrLineTooLong) {
			c.finish(&closedError{cause: cause})
			return
		}
		c.finish(c.exit)
		return
	}
	if errors.Is(cause, io.EOF) {
		c.finish(errEOF)
		return
	}
	c.finish(&closedError{cause: cause})
}

// lineHead is what the reader needs of every line.
type lineHead struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id"`
	Success bool            `json:"success"`
	Error   string          `json:"error"`
}

func (c *Client) handleLine(seq uint64, line []byte) {
	var typ, id, success, message, data, command json.RawMessage
	if topFields(line, map[string]*json.RawMessage{"type": &typ, "id": &id, "success": &success, "error": &message, "data": &data, "command": &command}) != nil {
		return // not a JSON object: pig writes none
	}
	var head lineHead
	_ = json.Unmarshal(typ, &head.Type)
	idText := idString(id)
	switch head.Type {
	case "response":
		_ = json.Unmarshal(success, &head.Success)
		_ = json.Unmarshal(message, &head.Error)
		c.mu.Lock()
		p := c.pending[idText]
		if p != nil {
			delete(c.pending, idText)
		}
		c.mu.Unlock()
		c.mark(seq)
		if p == nil {
			// A response nobody waits for (a cancelled call, or a line pig could not parse).
			c.publish(seq, &UnknownEvent{EventHeader: EventHeader{Type: "response", Raw: append(json.RawMessage(nil), line...)}})
			return
		}
		p.answer <- &response{seq: seq, success: head.Success, message: head.Error, data: append(json.RawMessage(nil), data...)}
	case "extension_ui_request":
		c.handleUI(line)
	default:
		ev := decodeEvent(head.Type, line)
		if u, ok := ev.(*BashExecutionUpdateEvent); ok {
			u.ID = idText
			c.mu.Lock()
			p := c.pending[idText]
			c.mu.Unlock()
			if p != nil {
				p.mu.Lock()
				p.updates = append(p.updates, u.Delta)
				p.mu.Unlock()
				select {
				case p.notify <- struct{}{}:
				default:
				}
			}
		}
		c.publish(seq, ev)
	}
}

// idString is an id as the string it was sent as ("" for none; other JSON as its text).
func idString(id json.RawMessage) string {
	if len(id) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

func (c *Client) publish(seq uint64, ev Event) {
	it := item{seq: seq, ev: ev}
	c.mu.Lock()
	for s := range c.subs {
		if s.wants(ev) {
			s.q.push(it)
		}
	}
	for w := range c.waiters {
		w.push(it)
	}
	c.mu.Unlock()
	c.callbacks.push(it)
}

// mark tells the waiters where a response was in the stream.
func (c *Client) mark(seq uint64) {
	c.mu.Lock()
	for w := range c.waiters {
		w.push(item{seq: seq})
	}
	c.mu.Unlock()
}

// finish ends the client: every waiting call and waiter returns err.
func (c *Client) finish(err error) {
	c.mu.Lock()
	if c.finished {
		c.mu.Unlock()
		return
	}
	c.finished = true
	c.err = err
	for s := range c.subs {
		s.q.close()
	}
	for w := range c.waiters {
		w.close()
	}
	c.mu.Unlock()
	c.callbacks.close()
	c.uiOrdered.close()
	c.stop()
	c.closeInput()
	close(c.done)
}

// newWaiter is a queue of every line from now on (events and response marks).
func (c *Client) newWaiter() *queue {
	q := newQueue()
	c.mu.Lock()
	if c.finished {
		q.close()
	} else {
		c.waiters[q] = struct{}{}
	}
	c.mu.Unlock()
	return q
}

func (c *Client) dropWaiter(q *queue) {
	c.mu.Lock()
	delete(c.waiters, q)
	c.mu.Unlock()
	q.close()
}

// writeLoop writes the lines, one whole line per write, in the order they were handed over.
func (c *Client) writeLoop() {
	var broken error
	for {
		select {
		case o := <-c.writes:
			switch {
			case o.ctx.Err() != nil:
				o.result <- o.ctx.Err()
			case broken != nil:
				o.result <- broken
			default:
				if _, err := c.in.Write(o.line); err != nil {
					broken = err
				}
				o.result <- broken
			}
		case <-c.done:
			return
		}
	}
}

// write hands a line to the writer. A cancelled ctx stops the wait, not a line being written,
// so a line is never cut in half.
func (c *Client) write(ctx context.Context, line []byte) error {
	o := &outgoing{line: line, ctx: ctx, result: make(chan error, 1)}
	select {
	case c.writes <- o:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.Err()
	}
	select {
	case err := <-o.result:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ErrClosed is the error (or what the error wraps) of calls made or waiting when the
// connection to pig ends.
var ErrClosed = errors.New("pig rpc: the connection to pig is closed")

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

// call sends a command and waits for its answer. fields are the command's own (besides type
// and id); onOutput gets the bash_execution_update deltas carrying the command's id, on the
// caller's goroutine, before call returns.
func (c *Client) call(ctx context.Context, command string, fields map[string]any, onOutput func(string)) (*response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	msg := map[string]any{}
	for k, v := range fields {
		msg[k] = v
	}
	p := &pendingCall{command: command, answer: make(chan *response, 1), notify: make(chan struct{}, 1)}
	c.mu.Lock()
	if c.finished {
		err := c.err
		c.mu.Unlock()
		return nil, &CommandError{Command: command, Err: err}
	}
	c.nextID++
	id := "go-" + strconv.FormatUint(c.nextID, 10)
	c.pending[id] = p
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	msg["type"], msg["id"] = command, id
	line, err := encodeLine(msg)
	if err != nil {
		return nil, &CommandError{Command: command, Message: "cannot encode the command", Err: err}
	}
	if err := c.write(ctx, line); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		select {
		case <-c.done:
			return nil, &CommandError{Command: command, Err: c.Err()}
		default:
			return nil, &CommandError{Command: command, Message: "cannot write to pig", Err: err}
		}
	}
	deliver := func() {
		p.mu.Lock()
		updates := p.updates
		p.updates = nil
		p.mu.Unlock()
		if onOutput != nil {
			for _, u := range updates {
				onOutput(u)
			}
		}
	}
	answered := func(r *response) (*response, error) {
		// Output lines come before the response: all of them are in by now.
		deliver()
		if !r.success {
			return nil, &CommandError{Command: command, Message: r.message}
		}
		return r, nil
	}
	for {
		select {
		case r := <-p.answer:
			return answered(r)
		case <-p.notify:
			deliver()
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.done:
			select {
			case r := <-p.answer:
				return answered(r)
			default:
				return nil, &CommandError{Command: command, Err: c.Err()}
			}
		}
	}
}

// decodeData decodes a response's data into v; a shape this package does not expect is an
// error naming the command.
func decodeData(command string, r *response, v any) error {
	if len(r.data) == 0 || string(r.data) == "null" {
		return nil
	}
	if err := json.Unmarshal(r.data, v); err != nil {
		return &CommandError{Command: command, Message: "unexpected answer: " + err.Error(), Err: err}
	}
	return nil
}
