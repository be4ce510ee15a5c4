package sdk

import (
	"encoding/json"
)

// Tool is a tool the model can call. Parameters is a JSON Schema object; pig validates the
// arguments against it before Execute runs.
type Tool struct {
	Name             string
	Label            string
	Description      string
	Parameters       json.RawMessage
	PromptSnippet    string
	PromptGuidelines []string
	// Execute runs the tool. c ends (c.Done()) when the user aborts; c.Progress streams
	// partial results. An error becomes an error result for the model.
	Execute func(c *ToolContext, args json.RawMessage) (ToolResult, error)
}

func (t Tool) spec() map[string]any {
	params := t.Parameters
	if len(params) == 0 {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	spec := map[string]any{"name": t.Name, "description": t.Description, "parameters": params}
	if t.Label != "" {
		spec["label"] = t.Label
	}
	if t.PromptSnippet != "" {
		spec["promptSnippet"] = t.PromptSnippet
	}
	if len(t.PromptGuidelines) > 0 {
		spec["promptGuidelines"] = t.PromptGuidelines
	}
	return spec
}

// Content is one block of a tool result or a message: text, or an image (base64 Data).
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// Text is a text content block.
func Text(s string) Content { return Content{Type: "text", Text: s} }

// ToolResult is what a tool answers. Details is kept in the session, not shown to the model.
type ToolResult struct {
	Content   []Content `json:"content"`
	Details   any       `json:"details,omitempty"`
	IsError   bool      `json:"isError,omitempty"`
	Terminate bool      `json:"terminate,omitempty"`
	// StructuredContent matches the tool's output schema (Pi 1.x); callers get it, the model does not.
	StructuredContent any `json:"structuredContent,omitempty"`
}

// Command is a slash command. Run gets the text after the command name ("" if none).
type Command struct {
	Name        string
	Description string
	Run         func(c *Context, args string) error
	// Complete, when set, offers completions for the argument typed so far.
	Complete func(prefix string) []Completion
}

// Completion is one argument completion of a command.
type Completion struct {
	Value       string `json:"value"`
	Label       string `json:"label,omitempty"`
	Description string `json:"description,omitempty"`
}

// Shortcut is a key binding (for example "ctrl+shift+g") of the interactive mode.
type Shortcut struct {
	Key         string
	Description string
	Run         func(c *Context) error
}

// Flag is a command-line flag of the extension: `pig --<name>` (boolean) or `--<name> value`.
type Flag struct {
	Name        string
	Description string
	Type        string // "boolean" (default) or "string"
	Default     any
}

func (f Flag) spec() map[string]any {
	kind := f.Type
	if kind == "" {
		kind = "boolean"
	}
	spec := map[string]any{"name": f.Name, "type": kind}
	if f.Description != "" {
		spec["description"] = f.Description
	}
	if f.Default != nil {
		spec["default"] = f.Default
	}
	return spec
}

// RegisterTool adds a tool (a name registered again replaces the earlier definition).
func (x *Extension) RegisterTool(t Tool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.tools[t.Name] = t
}

// RegisterCommand adds a slash command.
func (x *Extension) RegisterCommand(c Command) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.commands[c.Name] = c
}

// RegisterShortcut adds a key binding.
func (x *Extension) RegisterShortcut(s Shortcut) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.keys[s.Key] = s
}

// RegisterFlag adds a command-line flag; FlagValue reads it.
func (x *Extension) RegisterFlag(f Flag) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flags = append(x.flags, f)
}

// OnState calls fn with each `state` pig sends (after ready, and whenever a field changes).
func (x *Extension) OnState(fn func(State)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.onState = append(x.onState, fn)
}

// OnBus calls fn with each message another extension emitted (Context.Emit).
func (x *Extension) OnBus(fn func(channel string, data json.RawMessage)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.onBus = append(x.onBus, fn)
}
