package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakePig is pig's side of an attached client, written from docs/rpc.md: the test reads the
// commands the client sent, in order, and writes the lines pig would.
type fakePig struct {
	t      *testing.T
	client *Client
	out    *io.PipeWriter
	mu     sync.Mutex
	lines  []map[string]json.RawMessage
	wake   chan struct{}
	read   int
	closed chan struct{}
}

// testDeadline bounds every wait of a test: a client bug fails the test instead of hanging
// the run. Waits end on states; the deadline is only the backstop.
const testDeadline = 30 * time.Second

func newFake(t *testing.T, opts Options) *fakePig {
	t.Helper()
	cmdR, cmdW := io.Pipe()
	outR, outW := io.Pipe()
	f := &fakePig{t: t, out: outW, wake: make(chan struct{}, 1), closed: make(chan struct{})}
	go f.readCommands(cmdR)
	f.client = Attach(outR, cmdW, opts)
	t.Cleanup(func() {
		_ = outW.Close()
		_ = cmdR.Close()
		select {
		case <-f.client.Done():
		case <-time.After(testDeadline):
			t.Error("the client did not end after its input closed")
		}
	})
	return f
}

func (f *fakePig) readCommands(r io.Reader) {
	defer close(f.closed)
	sc := bufio.NewReader(r)
	for {
		line, err := sc.ReadBytes('\n')
		if len(line) > 0 {
			var m map[string]json.RawMessage
			if json.Unmarshal(line, &m) != nil {
				m = map[string]json.RawMessage{"unparsed": json.RawMessage(fmt.Sprintf("%q", line))}
			}
			f.mu.Lock()
			f.lines = append(f.lines, m)
			f.mu.Unlock()
			select {
			case f.wake <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// next is the next line the client wrote.
func (f *fakePig) next() map[string]json.RawMessage {
	f.t.Helper()
	deadline := time.NewTimer(testDeadline)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		if f.read < len(f.lines) {
			m := f.lines[f.read]
			f.read++
			f.mu.Unlock()
			return m
		}
		f.mu.Unlock()
		select {
		case <-f.wake:
		case <-f.closed:
			f.mu.Lock()
			more := f.read < len(f.lines)
			f.mu.Unlock()
			if !more {
				f.t.Fatal("the client closed its output while the test waited for a line")
			}
		case <-deadline.C:
			f.t.Fatal("no line from the client")
		}
	}
}

// expect is the next line, which must be the command typ.
func (f *fakePig) expect(typ string) map[string]json.RawMessage {
	f.t.Helper()
	m := f.next()
	if got := str(m["type"]); got != typ {
		f.t.Fatalf("expected a %s command, got %v", typ, m)
	}
	return m
}

// linesSoFar is how many lines the client has written.
func (f *fakePig) linesSoFar() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.lines)
}

func (f *fakePig) write(line string) {
	f.t.Helper()
	if _, err := io.WriteString(f.out, line+"\n"); err != nil {
		f.t.Fatalf("writing to the client: %v", err)
	}
}

func (f *fakePig) writeJSON(v any) {
	f.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		f.t.Fatal(err)
	}
	f.write(string(data))
}

// respond answers cmd with success and data (nil: none).
func (f *fakePig) respond(cmd map[string]json.RawMessage, data any) {
	f.t.Helper()
	r := map[string]any{"id": cmd["id"], "type": "response", "command": str(cmd["type"]), "success": true}
	if data != nil {
		r["data"] = data
	}
	f.writeJSON(r)
}

func (f *fakePig) respondRaw(cmd map[string]json.RawMessage, data string) {
	f.t.Helper()
	f.write(fmt.Sprintf(`{"id":%s,"type":"response","command":%q,"success":true,"data":%s}`, cmd["id"], str(cmd["type"]), data))
}

func (f *fakePig) refuse(cmd map[string]json.RawMessage, message string) {
	f.t.Helper()
	f.writeJSON(map[string]any{"id": cmd["id"], "type": "response", "command": str(cmd["type"]), "success": false, "error": message})
}

// crash ends pig's output as a dying pig does.
func (f *fakePig) crash() {
	_ = f.out.Close()
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	t.Cleanup(cancel)
	return ctx
}

// async runs fn on a goroutine; the returned channel has its error.
func async(fn func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- fn() }()
	return ch
}

func await(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(testDeadline):
		t.Fatal("the call did not return")
		return nil
	}
}

// pendingCount is how many calls wait for an answer.
func (c *Client) pendingCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

func (c *Client) waiterCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// TestMain lets the test binary stand in for pig as a process (Start's tests): with
// PIG_RPC_FAKE_PROCESS set it answers get_state with what it was started with, and exits
// with the code of an "exit" command, after writing its message on stderr.
func TestMain(m *testing.M) {
	if os.Getenv("PIG_RPC_FAKE_PROCESS") != "" {
		os.Exit(fakeProcess())
	}
	os.Exit(m.Run())
}

func fakeProcess() int {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if os.Getenv("PIG_RPC_FAKE_LINGER") != "" {
				for {
					time.Sleep(time.Hour)
				}
			}
			return 0
		}
		var cmd struct {
			Type    string          `json:"type"`
			ID      json.RawMessage `json:"id"`
			Code    int             `json:"code"`
			Message string          `json:"message"`
		}
		if json.Unmarshal(line, &cmd) != nil {
			continue
		}
		switch cmd.Type {
		case "get_state":
			wd, _ := os.Getwd()
			data, _ := json.Marshal(map[string]any{"sessionId": strings.Join(os.Args[1:], " "), "sessionFile": wd, "sessionName": os.Getenv("PIG_RPC_FAKE_NAME")})
			fmt.Printf(`{"id":%s,"type":"response","command":"get_state","success":true,"data":%s}`+"\n", cmd.ID, data)
		case "exit":
			fmt.Fprintln(os.Stderr, cmd.Message)
			return cmd.Code
		case "hang":
			// Never answers.
		case "orphan":
			// Leaves a process behind that holds pig's stdout and stderr open, and exits.
			child := exec.Command(os.Args[0])
			child.Env = append(os.Environ(), "PIG_RPC_FAKE_LINGER=1")
			child.Stdout, child.Stderr = os.Stdout, os.Stderr
			if err := child.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Fprintf(os.Stderr, "orphan %d\n", child.Process.Pid)
			return 5
		}
	}
}
