package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"unicode/utf8"

	"pig/sdk/sessionfile"
)

// BranchEntry is one entry of the active branch, flattened (see sessionfile.Entry).
type BranchEntry = sessionfile.Entry

// mirror is the local copy of the session log. Nothing is asked of pig until the extension
// first reads it; then one snapshot (`session.subscribe`), then the changes pig sends.
type mirror struct {
	x     *Extension
	subMu sync.Mutex // one subscription at a time

	mu         sync.Mutex
	subscribed bool
	// resyncing: the file snapshot failed its checks and a plain one is on its way; changes
	// until its answer are already in it (docs §5) and are dropped.
	resyncing bool
	head      json.RawMessage
	lines     []json.RawMessage
	leafID    string
	file      string
	ix        *sessionfile.Index
}

func newMirror(x *Extension) *mirror { return &mirror{x: x} }

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

// ensure subscribes once. The answer is installed on the reading goroutine before any later
// change is handled, so no append is missed or applied twice.
func (m *mirror) ensure(c *Context) error {
	m.subMu.Lock()
	defer m.subMu.Unlock()
	m.mu.Lock()
	done := m.subscribed && !m.resyncing
	m.mu.Unlock()
	if done {
		return nil
	}
	stale := false
	err := m.x.peer.callWith(c, "session.subscribe", map[string]any{"file": true}, nil, func(f *frame) {
		if m.install(f.Result, true) != nil {
			stale = true
		}
	})
	if err != nil {
		return fmt.Errorf("session.subscribe: %w", err)
	}
	if !stale {
		return nil
	}
	err = m.x.peer.callWith(c, "session.subscribe", map[string]any{}, nil, func(f *frame) { _ = m.install(f.Result, false) })
	if err != nil {
		return fmt.Errorf("session.subscribe: %w", err)
	}
	return nil
}

// install replaces the mirror with a snapshot. With fromFile, the lines pig names in the file
// are read from it; when they fail the checks, the mirror waits for a plain snapshot.
func (m *mirror) install(raw json.RawMessage, fromFile bool) error {
	var s wireSnapshot
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	var lines []json.RawMessage
	if fromFile && s.File != nil {
		onDisk, err := readRange(s.File.Path, s.File.Offset, s.File.Length, s.File.Count, s.Header)
		if err != nil {
			m.mu.Lock()
			m.subscribed, m.resyncing = true, true
			m.mu.Unlock()
			return err
		}
		lines = onDisk
	}
	lines = append(lines, toLines(s.Entries)...)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subscribed, m.resyncing = true, false
	m.head = json.RawMessage(s.Header)
	m.lines = lines
	m.leafID = ""
	if s.LeafID != nil {
		m.leafID = *s.LeafID
	}
	m.file = s.SessionFile
	m.ix = nil
	return nil
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

// apply is a change pig sent; before the snapshot (or while one is being fetched again) there
// is nothing to apply it to.
func (m *mirror) apply(method string, params json.RawMessage) {
	m.mu.Lock()
	active := m.subscribed && !m.resyncing
	m.mu.Unlock()
	if !active {
		return
	}
	switch method {
	case "session.replaced":
		_ = m.install(params, false)
	case "session.appended":
		var a struct {
			Entries []string `json:"entries"`
			LeafID  *string  `json:"leafId"`
		}
		if json.Unmarshal(params, &a) != nil {
			return
		}
		m.mu.Lock()
		m.lines = append(m.lines, toLines(a.Entries)...)
		m.setLeaf(a.LeafID)
		m.mu.Unlock()
	case "session.leaf":
		var l struct {
			LeafID *string `json:"leafId"`
		}
		if json.Unmarshal(params, &l) != nil {
			return
		}
		m.mu.Lock()
		m.setLeaf(l.LeafID)
		m.mu.Unlock()
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
	}
	m.ix.Add(m.lines[m.ix.Len():])
	lines, ix, leaf := m.lines, m.ix, m.leafID
	path := ix.Path(leaf)
	m.mu.Unlock()
	out := make([]BranchEntry, 0, len(path))
	for _, i := range path {
		if e, err := sessionfile.ParseEntry(lines[i]); err == nil {
			out = append(out, e)
		}
	}
	return out, nil
}
