package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/pig-coding-agent/pig/sdk/go/sessionfile"
)

// BranchEntry is one entry of the active branch, flattened (see sessionfile.Entry).
type BranchEntry = sessionfile.Entry

// mirror is the local copy of the session log. Nothing is asked of pig until the extension
// first reads it; then one snapshot (`session.subscribe`), then the changes pig sends.
//
// A snapshot can be tens of megabytes, so it is decoded on a goroutine of its own, never on
// the reading one (which must stay free to answer ping). Changes that arrive meanwhile are kept
// and applied after it, in order (docs §5).
type mirror struct {
	x     *Extension
	subMu sync.Mutex // one subscription at a time

	mu      sync.Mutex
	state   mirrorState
	pending []change      // changes that came while a snapshot was being installed
	active  chan struct{} // closed while the state is active
	fail    error         // why the last install failed
	head    json.RawMessage
	lines   []json.RawMessage
	leafID  string
	file    string
	ix      *sessionfile.Index
}

type mirrorState int

const (
	idle       mirrorState = iota // not subscribed
	installing                    // a snapshot is being decoded; changes wait
	dropping                      // the file snapshot failed its checks: changes until the plain answer are in it
	active
)

type change struct {
	method string
	params json.RawMessage
}

func newMirror(x *Extension) *mirror { return &mirror{x: x, active: make(chan struct{})} }

type wireSnapshot struct {
	Header      string   `json:"header"`
	Entries     []string `json:"entries"`
	LeafID      *string  `json:"leafId"`
	SessionFile string   `json:"sessionFile"`
	File        *struct {
		Path   string `json:"path"`
		Offset int64  `json:"offset"`
		Length int64  `json:"length"`
		Count  int    `json:"count"`
	} `json:"file"`
}

var errStaleRange = errors.New("the session file is not what pig described")

// ensure subscribes once and waits until the snapshot is in place.
func (m *mirror) ensure(c *Context) error {
	m.subMu.Lock()
	defer m.subMu.Unlock()
	m.mu.Lock()
	state, ready := m.state, m.active
	m.mu.Unlock()
	if state == idle {
		err := m.x.peer.callWith(c, "session.subscribe", map[string]any{"file": true}, nil, func(f *frame) { m.received(f, true) })
		m.mu.Lock()
		state, ready = m.state, m.active
		m.mu.Unlock()
		if err != nil && state == idle {
			return fmt.Errorf("session.subscribe: %w", err)
		}
	}
	select {
	case <-ready:
		return nil
	case <-c.Done():
		return c.Context.Err()
	case <-m.x.peer.life.Done():
		return ErrClosed
	}
}

// received starts installing a snapshot (an answer to session.subscribe, or session.replaced).
// It runs on the reading goroutine: the changes after it wait until it is installed.
func (m *mirror) received(f *frame, fromFile bool) {
	m.mu.Lock()
	if m.state == active {
		m.active = make(chan struct{})
	}
	m.state, m.pending = installing, nil
	m.mu.Unlock()
	go m.install(f, fromFile)
}

// install decodes a snapshot and puts it in place, then applies the changes that came meanwhile.
// With fromFile, the lines pig names in the file are read from it; when they fail the checks
// the plain snapshot is asked for, and changes until its answer are dropped.
func (m *mirror) install(f *frame, fromFile bool) {
	var s wireSnapshot
	err := f.result(&s)
	var lines []json.RawMessage
	if err == nil && fromFile && s.File != nil {
		lines, err = readRange(s.File.Path, s.File.Offset, s.File.Length, s.File.Count, s.Header)
		if err != nil {
			m.mu.Lock()
			m.state, m.pending = dropping, nil
			m.mu.Unlock()
			err = m.x.peer.callWith(m.x.peer.life, "session.subscribe", map[string]any{}, nil, func(f *frame) { m.received(f, false) })
			if err != nil {
				fmt.Fprintf(os.Stderr, "pig-ext: session.subscribe: %v\n", err)
			}
			return
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pig-ext: session snapshot: %v\n", err)
		s = wireSnapshot{}
	}
	lines = append(lines, toLines(s.Entries)...)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != installing {
		return
	}
	m.head = json.RawMessage(s.Header)
	m.lines = lines
	m.setLeaf(s.LeafID)
	m.file = s.SessionFile
	m.ix = nil
	// A newer snapshot among the waiting changes makes the ones before it moot: install it and
	// keep waiting with the changes after it.
	for i := len(m.pending) - 1; i >= 0; i-- {
		if m.pending[i].method == "session.replaced" {
			next := &frame{Result: m.pending[i].params}
			m.pending = m.pending[i+1:]
			go m.install(next, false)
			return
		}
	}
	m.state = active
	for _, c := range m.pending {
		m.applyLocked(c.method, c.params)
	}
	m.pending = nil
	close(m.active)
}

func toLines(entries []string) []json.RawMessage {
	out := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		out[i] = json.RawMessage(e)
	}
	return out
}

// readRange reads the header and count entries pig named by their bytes in the file, after
// the checks of docs §5 (the range exists, ends in LF, holds count+1 lines of UTF-8, and
// starts with the header pig sent).
func readRange(path string, offset, length int64, count int, header string) ([]json.RawMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, length)
	if n, _ := f.ReadAt(buf, offset); int64(n) != length {
		return nil, errStaleRange
	}
	if length == 0 || buf[length-1] != '\n' || !utf8.Valid(buf) {
		return nil, errStaleRange
	}
	parts := bytes.Split(buf[:length-1], []byte{'\n'})
	if len(parts) != count+1 || string(parts[0]) != header {
		return nil, errStaleRange
	}
	lines := make([]json.RawMessage, count, count+16)
	for i, p := range parts[1:] {
		lines[i] = json.RawMessage(p)
	}
	return lines, nil
}

// apply is a change pig sent (on the reading goroutine). Before the snapshot there is nothing
// to apply it to; while one is being installed it waits.
func (m *mirror) apply(method string, params json.RawMessage) {
	m.mu.Lock()
	state := m.state
	switch state {
	case installing:
		m.pending = append(m.pending, change{method, params})
	case active:
		if method == "session.replaced" {
			m.mu.Unlock()
			m.received(&frame{Result: params}, false)
			return
		}
		m.applyLocked(method, params)
	}
	m.mu.Unlock()
}

func (m *mirror) applyLocked(method string, params json.RawMessage) {
	switch method {
	case "session.appended":
		var a struct {
			Entries []string `json:"entries"`
			LeafID  *string  `json:"leafId"`
		}
		if json.Unmarshal(params, &a) == nil {
			m.lines = append(m.lines, toLines(a.Entries)...)
			m.setLeaf(a.LeafID)
		}
	case "session.leaf":
		var l struct {
			LeafID *string `json:"leafId"`
		}
		if json.Unmarshal(params, &l) == nil {
			m.setLeaf(l.LeafID)
		}
	}
}

func (m *mirror) setLeaf(id *string) {
	m.leafID = ""
	if id != nil {
		m.leafID = *id
	}
}

func (m *mirror) entries(c *Context) ([]json.RawMessage, error) {
	if err := m.ensure(c); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]json.RawMessage(nil), m.lines...), nil
}

func (m *mirror) header(c *Context) (json.RawMessage, error) {
	if err := m.ensure(c); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.head, nil
}

func (m *mirror) leaf(c *Context) (string, error) {
	if err := m.ensure(c); err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.leafID, nil
}

func (m *mirror) branch(c *Context) ([]BranchEntry, error) {
	if err := m.ensure(c); err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.ix == nil {
		m.ix = sessionfile.NewIndex(nil)
		m.ix.Trusted = true
	}
	m.ix.Add(m.lines[m.ix.Len():])
	lines, ix, leaf := m.lines, m.ix, m.leafID
	path := ix.Path(leaf)
	m.mu.Unlock()
	out := sessionfile.ParseLines(lines, path)
	return out, nil
}

// checkView is the copy as exact lines, without subscribing: pig extension check compares it
// with the session file (`check.mirror`, docs/extension-protocol.md §12).
func (m *mirror) checkView() map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != active {
		return map[string]any{"subscribed": false}
	}
	entries := make([]string, len(m.lines))
	for i, line := range m.lines {
		entries[i] = string(line)
	}
	var leaf any
	if m.leafID != "" {
		leaf = m.leafID
	}
	return map[string]any{"subscribed": true, "header": string(m.head), "entries": entries, "leafId": leaf}
}
