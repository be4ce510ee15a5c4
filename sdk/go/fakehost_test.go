package sdk

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeHost is pig's side of a connection, written against docs/extension-protocol.md: it
// answers the handshake and records every frame the extension sends.
type fakeHost struct {
	t        testing.TB
	conn     net.Conn
	mu       sync.Mutex
	frames   []map[string]json.RawMessage
	changed  chan struct{}
	nextID   int
	init     map[string]any
	onMethod map[string]hostMethod
	served   chan error
	longest  int // the longest line the extension sent
}

// hostMethod answers one of the extension's requests (on a goroutine of its own).
type hostMethod func(h *fakeHost, id json.RawMessage, params json.RawMessage)

func startHost(t testing.TB, setup func(x *Extension), init map[string]any, onMethod map[string]hostMethod) *fakeHost {
	t.Helper()
	hostSide, extSide := socketPair(t)
	h := &fakeHost{t: t, conn: hostSide, changed: make(chan struct{}, 1), init: init, onMethod: onMethod, served: make(chan error, 1)}
	go h.read()
	go func() { h.served <- Serve(extSide, "secret", setup) }()
	h.waitFor(t, func(f map[string]json.RawMessage) bool { return method(f) == "ready" })
	// Answers are read in order: once a ping sent after the ready answer is answered, the
	// extension has its ready answer too.
	h.answerTo(t, h.request("ping", nil))
	t.Cleanup(func() { _ = hostSide.Close() })
	return h
}

// socketPair is a connected pair of Unix sockets (buffered by the kernel, as pig's socket is).
func socketPair(t testing.TB) (net.Conn, net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) net.Conn {
		f := os.NewFile(uintptr(fd), "socket")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return conn(fds[0]), conn(fds[1])
}

func method(f map[string]json.RawMessage) string {
	var m string
	_ = json.Unmarshal(f["method"], &m)
	return m
}

func (h *fakeHost) read() {
	sc := bufio.NewScanner(h.conn)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var f map[string]json.RawMessage
		if len(sc.Bytes()) > h.longest {
			h.longest = len(sc.Bytes())
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			h.t.Errorf("the extension sent a line that is not JSON: %q", sc.Text())
			continue
		}
		h.mu.Lock()
		h.frames = append(h.frames, f)
		h.mu.Unlock()
		select {
		case h.changed <- struct{}{}:
		default:
		}
		switch m := method(f); {
		case m == "initialize":
			init := map[string]any{"protocol": "pig-ext/1", "maxFrameBytes": 8388608, "host": map[string]any{"name": "fake", "version": "0"},
				"load": []any{}, "extension": "/ext/go/pig-extension.json", "session": map[string]any{"cwd": "/tmp", "mode": "rpc", "hasUI": true}, "flags": map[string]any{}}
			for k, v := range h.init {
				init[k] = v
			}
			h.answer(f["id"], init)
		case m == "register":
			h.answer(f["id"], map[string]any{"diagnostics": []any{}})
		case m == "ready":
			h.answer(f["id"], map[string]any{})
		case h.onMethod[m] != nil:
			go h.onMethod[m](h, f["id"], f["params"])
		case m != "" && len(f["id"]) > 0 && !strings.HasPrefix(m, "$/"):
			h.answer(f["id"], map[string]any{})
		}
	}
}

func (h *fakeHost) send(v map[string]any) {
	v["jsonrpc"] = "2.0"
	data, err := json.Marshal(v)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.conn.Write(append(data, '\n')); err != nil {
		h.t.Errorf("write: %v", err)
	}
}

func (h *fakeHost) answer(id json.RawMessage, result any) {
	h.send(map[string]any{"id": id, "result": result})
}

func (h *fakeHost) notify(method string, params any) {
	h.send(map[string]any{"method": method, "params": params})
}

// request sends a request to the extension and returns its id (as the answer's id is written).
func (h *fakeHost) request(method string, params any) string {
	h.mu.Lock()
	h.nextID++
	id := h.nextID
	h.mu.Unlock()
	h.send(map[string]any{"id": id, "method": method, "params": params})
	data, _ := json.Marshal(id)
	return string(data)
}

// waitFor waits until a frame matching pred has arrived and returns it.
func (h *fakeHost) waitFor(t testing.TB, pred func(map[string]json.RawMessage) bool) map[string]json.RawMessage {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		h.mu.Lock()
		for _, f := range h.frames {
			if pred(f) {
				h.mu.Unlock()
				return f
			}
		}
		h.mu.Unlock()
		select {
		case <-h.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no such frame; got %d frames", len(h.all()))
		}
	}
}

func (h *fakeHost) all() []map[string]json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), h.frames...)
}

// answerTo waits for the extension's answer to the request id.
func (h *fakeHost) answerTo(t testing.TB, id string) map[string]json.RawMessage {
	t.Helper()
	return h.waitFor(t, func(f map[string]json.RawMessage) bool { return string(f["id"]) == id && method(f) == "" })
}

func (h *fakeHost) count(m string) int {
	n := 0
	for _, f := range h.all() {
		if method(f) == m {
			n++
		}
	}
	return n
}
