package sdk

import (
	"context"
	"encoding/json"
	"sync"
)

// Context is what a handler works with: a context.Context that ends when pig cancels the
// request (or the connection closes), and the calls an extension makes to pig. Pass it to
// anything that takes a context.Context (exec.CommandContext, http requests, …).
type Context struct {
	context.Context
	x *Extension

	readMu   sync.Mutex
	readFail error // the first failed session-log read of GetEntries, GetBranch, GetLeafID or GetHeader
}

func (x *Extension) newContext(ctx context.Context, _ any) *Context {
	return &Context{Context: ctx, x: x}
}

// Extension is the extension the handler belongs to.
func (c *Context) Extension() *Extension { return c.x }

// Cwd is the session's working directory.
func (c *Context) Cwd() string {
	if s := c.x.State(); s.Cwd != "" {
		return s.Cwd
	}
	return c.x.init.Session.Cwd
}

// HasUI says whether dialogs reach a person (interactive and RPC mode).
func (c *Context) HasUI() bool { return c.x.init.Session.HasUI }

// Mode is pig's mode: interactive, print, json or rpc.
func (c *Context) Mode() string { return c.x.init.Session.Mode }

// State is the latest `state` pig sent.
func (c *Context) State() State { return c.x.State() }

// UI is the user interface calls (dialogs, notices, status, widgets).
func (c *Context) UI() UI { return UI{c: c} }

// Call sends any request of docs/extension-protocol.md §6 and decodes its result (result may
// be nil). It ends early, sending $/cancel, when c ends.
func (c *Context) Call(method string, params any, result any) error {
	if params == nil {
		params = struct{}{}
	}
	return c.x.peer.call(c, method, params, result)
}

// Notify sends a call as a notification, when its answer does not matter.
func (c *Context) Notify(method string, params any) error {
	if params == nil {
		params = struct{}{}
	}
	return c.x.peer.notify(method, params)
}

// AppendEntry appends a `custom` entry to the session (kept in the file, never sent to the model).
func (c *Context) AppendEntry(customType string, data any) error {
	params := map[string]any{"customType": customType}
	if data != nil {
		params["data"] = data
	}
	return c.Call("session.appendEntry", params, nil)
}

// MessageOptions: TriggerTurn starts a model turn; DeliverAs is "steer", "followUp" or "nextTurn".
type MessageOptions struct {
	TriggerTurn bool   `json:"triggerTurn,omitempty"`
	DeliverAs   string `json:"deliverAs,omitempty"`
}

// SendMessage adds a custom message to the session.
func (c *Context) SendMessage(m CustomMessage, opts MessageOptions) error {
	return c.Call("agent.sendMessage", map[string]any{"message": m, "options": opts}, nil)
}

// SendUserMessage sends a user message (a string or []Content), as if the user typed it.
func (c *Context) SendUserMessage(content any, deliverAs string) error {
	params := map[string]any{"content": content}
	if deliverAs != "" {
		params["options"] = map[string]any{"deliverAs": deliverAs}
	}
	return c.Call("agent.sendUserMessage", params, nil)
}

// SetModel switches the model; false when pig has no credentials for it.
func (c *Context) SetModel(provider, id string) (bool, error) {
	var r struct {
		OK bool `json:"ok"`
	}
	err := c.Call("model.set", map[string]any{"provider": provider, "id": id}, &r)
	return r.OK, err
}

// SetThinkingLevel sets off, minimal, low, medium, high, xhigh or max (pig clamps it to what the model offers).
func (c *Context) SetThinkingLevel(level string) error {
	return c.Call("thinking.set", map[string]any{"level": level}, nil)
}

// SetSessionName names the session.
func (c *Context) SetSessionName(name string) error {
	return c.Call("session.setName", map[string]any{"name": name}, nil)
}

// SetLabel labels an entry ("" removes the label).
func (c *Context) SetLabel(entryID, label string) error {
	params := map[string]any{"entryId": entryID}
	if label != "" {
		params["label"] = label
	}
	return c.Call("session.setLabel", params, nil)
}

// SetActiveTools sets which tools the model is offered.
func (c *Context) SetActiveTools(names []string) error {
	return c.Call("tools.setActive", map[string]any{"names": names}, nil)
}

// Emit sends data to the other extensions on channel (their OnBus).
func (c *Context) Emit(channel string, data any) error {
	return c.Notify("bus.emit", map[string]any{"channel": channel, "data": data})
}

// BoundaryContext is the context the given drafts would make, while a turn_end or
// agent_before_settle event with that boundary id is open (docs §3.1).
func (c *Context) BoundaryContext(boundary string, entries []any) (json.RawMessage, error) {
	if entries == nil {
		entries = []any{}
	}
	var r json.RawMessage
	err := c.Call("session.boundaryContext", map[string]any{"boundary": boundary, "entries": entries}, &r)
	return r, err
}

// GetSessionFile is the session file's path ("" without one, e.g. --no-session). It comes
// with `state` and does not subscribe to the log.
func (c *Context) GetSessionFile() string { return c.x.State().SessionFile }

// The session log is read in two forms. GetEntries, GetBranch, GetLeafID and GetHeader give
// the value alone, as TypeScript's ctx.sessionManager does; the first of them subscribes to the
// log, and that can fail (pig gone, a session file that is not what pig described). As with
// bufio.Scanner and sql.Rows, the failure is then kept for Err, and every later Get read of
// this Context gives an empty value without asking pig again. ReadEntries, ReadBranch,
// ReadLeafID and ReadHeader return the error with the value instead, and try again each time.

// GetEntries is every entry of the session, as ReadEntries; nil once a read has failed (Err).
func (c *Context) GetEntries() []json.RawMessage { return firstFailureKept(c, c.ReadEntries) }

// GetHeader is the session header line's exact bytes, as ReadHeader; nil once a read has failed (Err).
func (c *Context) GetHeader() json.RawMessage { return firstFailureKept(c, c.ReadHeader) }

// GetBranch is the active branch, as ReadBranch; nil once a read has failed (Err).
func (c *Context) GetBranch() []BranchEntry { return firstFailureKept(c, c.ReadBranch) }

// GetLeafID is the id of the active branch's last entry, as ReadLeafID; "" once a read has
// failed (Err), as before the first entry.
func (c *Context) GetLeafID() string { return firstFailureKept(c, c.ReadLeafID) }

// Err is why the context ended, as for any context.Context. While it has not ended, Err is
// the first failure of a Get read of the session log through this Context (nil when none
// failed), so a handler checks it once after its reads. A Context used as a context.Context
// by code that stops on a non-nil Err (rather than on Done) therefore stops after such a failure.
func (c *Context) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	c.readMu.Lock()
	defer c.readMu.Unlock()
	return c.readFail
}

// firstFailureKept runs read unless an earlier one failed, keeping its first failure for Err.
// The lock is not held while reading: a first read may wait for a large snapshot, and Err
// must answer meanwhile.
func firstFailureKept[T any](c *Context, read func() (T, error)) T {
	var empty T
	c.readMu.Lock()
	failed := c.readFail != nil
	c.readMu.Unlock()
	if failed {
		return empty
	}
	value, err := read()
	if err != nil {
		c.readMu.Lock()
		if c.readFail == nil {
			c.readFail = err
		}
		c.readMu.Unlock()
		return empty
	}
	return value
}

// ReadEntries is every entry of the session, each the exact bytes of its line in the session
// file (unknown fields included), in file order. The first read (of any of the session-log
// reads) subscribes the extension to the session log; later appends keep the local copy
// current. The bytes are shared: do not modify them.
func (c *Context) ReadEntries() ([]json.RawMessage, error) { return c.x.mirror.entries(c) }

// ReadHeader is the session header line's exact bytes.
func (c *Context) ReadHeader() (json.RawMessage, error) { return c.x.mirror.header(c) }

// ReadBranch is the active branch, root first, as flattened entries.
func (c *Context) ReadBranch() ([]BranchEntry, error) { return c.x.mirror.branch(c) }

// ReadLeafID is the id of the active branch's last entry ("" before the first entry).
func (c *Context) ReadLeafID() (string, error) { return c.x.mirror.leaf(c) }

// ToolContext is a Context for a running tool: Progress streams partial results.
type ToolContext struct {
	*Context
	ToolCallID string
	request    json.RawMessage
}

// Progress sends a partial result, shown while the tool runs (a tool_execution_update).
func (t *ToolContext) Progress(content []Content, details any) error {
	value := map[string]any{"content": content}
	if details != nil {
		value["details"] = details
	}
	return t.x.peer.notify("$/progress", map[string]any{"id": t.request, "value": value})
}
