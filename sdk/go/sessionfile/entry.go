// Package sessionfile reads pig session files (JSONL, session format v3) without pig: it
// streams the lines with a line limit far above bufio.Scanner's 64 KB default (a line can hold
// a large tool result or an image), keeps each line's exact bytes, and builds the active
// branch. It uses the standard library only.
package sessionfile

import (
	"encoding/json"
	"strings"
)

// ToolCall is one tool call of an assistant message.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Entry is a flattened reading view of one session entry: the fields most readers want, taken
// from wherever the entry type keeps them. Raw holds the line's exact bytes for everything else.
type Entry struct {
	Type      string
	ID        string
	ParentID  string // "" for a root
	Timestamp string
	// Role is the message's role for "message" entries (user, assistant, toolResult, system, …).
	Role string
	// Text is the text content joined: a message's text blocks, a custom message's content,
	// or a compaction's or branch summary's summary.
	Text string
	// ToolCalls are an assistant message's tool calls.
	ToolCalls []ToolCall
	// ToolCallID, ToolName and IsError describe a tool result message.
	ToolCallID string
	ToolName   string
	IsError    bool
	// CustomType and Data belong to "custom" and "custom_message" entries.
	CustomType string
	Data       json.RawMessage
	// Label is a "label" entry's label (TargetID the entry it names); Name a "session_info"'s name.
	Label    string
	TargetID string
	Name     string
	Raw      json.RawMessage
}

type rawEntry struct {
	Type       string          `json:"type"`
	ID         string          `json:"id"`
	ParentID   *string         `json:"parentId"`
	Timestamp  string          `json:"timestamp"`
	Message    *rawMessage     `json:"message"`
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data"`
	Content    content         `json:"content"`
	Summary    string          `json:"summary"`
	Label      string          `json:"label"`
	TargetID   string          `json:"targetId"`
	Name       string          `json:"name"`
}

type rawMessage struct {
	Role       string  `json:"role"`
	Content    content `json:"content"`
	ToolCallID string  `json:"toolCallId"`
	ToolName   string  `json:"toolName"`
	IsError    bool    `json:"isError"`
}

type rawBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Links reads only what links a line into the tree: its id and parentId.
type Links struct {
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
}

// ParseEntry flattens one line. A line that is not a JSON object is an error.
func ParseEntry(line []byte) (Entry, error) {
	var r rawEntry
	if err := json.Unmarshal(line, &r); err != nil {
		return Entry{}, err
	}
	e := Entry{Type: r.Type, ID: r.ID, Timestamp: r.Timestamp, CustomType: r.CustomType, Data: r.Data, Label: r.Label, TargetID: r.TargetID, Name: r.Name, Raw: json.RawMessage(line)}
	if r.ParentID != nil {
		e.ParentID = *r.ParentID
	}
	switch {
	case r.Message != nil:
		e.Role = r.Message.Role
		e.ToolCallID, e.ToolName, e.IsError = r.Message.ToolCallID, r.Message.ToolName, r.Message.IsError
		e.Text, e.ToolCalls = r.Message.Content.text, r.Message.Content.calls
	case r.Summary != "":
		e.Text = r.Summary
	default:
		e.Text = r.Content.text
	}
	return e, nil
}

// content is message content, a string or a list of blocks, read in one pass: its text
// joined, and its tool calls.
type content struct {
	text  string
	calls []ToolCall
}

func (c *content) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &c.text)
	}
	var blocks []rawBlock
	if err := json.Unmarshal(data, &blocks); err != nil {
		return nil // content of another shape: no text
	}
	var text []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "toolCall":
			c.calls = append(c.calls, ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Arguments})
		}
	}
	c.text = strings.Join(text, "")
	return nil
}
