package sdk

import (
	"encoding/json"
	"fmt"
)

// Event is any event pig sends: its name and its payload (upstream's event object without
// `type`). Use On for events without a typed On… method, and for observing.
type Event struct {
	Name    string
	Payload json.RawMessage
}

// eventHandler answers one event with a raw result ("" or null: nothing to say).
type eventHandler func(c *Context, payload json.RawMessage) (json.RawMessage, error)

func (x *Extension) on(event string, h eventHandler) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.handlers[event]; !ok {
		x.order = append(x.order, event)
	}
	x.handlers[event] = append(x.handlers[event], h)
}

// adapt turns a typed handler into an eventHandler: the payload is decoded into E, and the
// result is sent unless it is R's zero value (nothing to say).
func adapt[E any, R any](fn func(c *Context, e E) (R, error), empty func(R) bool) eventHandler {
	return func(c *Context, payload json.RawMessage) (json.RawMessage, error) {
		var e E
		if len(payload) > 0 {
			if err := json.Unmarshal(payload, &e); err != nil {
				return nil, fmt.Errorf("decoding the payload: %w", err)
			}
		}
		r, err := fn(c, e)
		if err != nil || empty(r) {
			return nil, err
		}
		return encode(r)
	}
}

// On handles event by name. For an event pig sends as a request, the result (nil: nothing to
// say) is the answer, marshalled to JSON; for an observe-only event it is ignored.
func (x *Extension) On(event string, fn func(c *Context, e Event) (any, error)) {
	x.on(event, func(c *Context, payload json.RawMessage) (json.RawMessage, error) {
		r, err := fn(c, Event{Name: event, Payload: payload})
		if err != nil || r == nil {
			return nil, err
		}
		return encode(r)
	})
}

// ToolCallEvent: the model is about to call a tool.
type ToolCallEvent struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	// ParentToolCallID is set for a call another tool made (Pi 1.x's ctx.executeTool).
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
}

// ToolCallResult blocks the call (with Reason) or replaces its Input. The zero value lets it run.
type ToolCallResult struct {
	Block  bool            `json:"block,omitempty"`
	Reason string          `json:"reason,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`
}

// OnToolCall intercepts tool calls. A handler that fails blocks the call (fail closed).
func (x *Extension) OnToolCall(fn func(c *Context, e ToolCallEvent) (ToolCallResult, error)) {
	x.on("tool_call", adapt(fn, func(r ToolCallResult) bool { return !r.Block && len(r.Input) == 0 }))
}

// ToolResultEvent: a tool finished; its result can be patched before the model sees it.
type ToolResultEvent struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	Content    []Content       `json:"content"`
	Details    json.RawMessage `json:"details"`
	IsError    bool            `json:"isError"`
	// StructuredContent is the tool's data for programmatic callers (Pi 1.x); never sent to the model.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// ParentToolCallID is set for a call another tool made (Pi 1.x's ctx.executeTool).
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
}

// ToolResultPatch replaces the fields that are set.
type ToolResultPatch struct {
	Content []Content `json:"content,omitempty"`
	Details any       `json:"details,omitempty"`
	IsError *bool     `json:"isError,omitempty"`
}

// OnToolResult patches tool results.
func (x *Extension) OnToolResult(fn func(c *Context, e ToolResultEvent) (ToolResultPatch, error)) {
	x.on("tool_result", adapt(fn, func(r ToolResultPatch) bool { return r.Content == nil && r.Details == nil && r.IsError == nil }))
}

// ContextEvent carries the messages of the next model call (Pi's message objects).
type ContextEvent struct {
	Messages []json.RawMessage `json:"messages"`
}

// ContextResult replaces the messages when Messages is not nil.
type ContextResult struct {
	Messages []json.RawMessage `json:"messages,omitempty"`
}

// OnContext rewrites what the model is sent (the session file keeps everything).
func (x *Extension) OnContext(fn func(c *Context, e ContextEvent) (ContextResult, error)) {
	x.on("context", adapt(fn, func(r ContextResult) bool { return r.Messages == nil }))
}

// InputEvent: the user submitted a prompt.
type InputEvent struct {
	Text   string          `json:"text"`
	Images json.RawMessage `json:"images,omitempty"`
	Source string          `json:"source"`
}

// InputResult: Action "transform" (with Text, Images), "handled" (the prompt stops here) or
// "continue"/"" (unchanged).
type InputResult struct {
	Action string          `json:"action,omitempty"`
	Text   string          `json:"text,omitempty"`
	Images json.RawMessage `json:"images,omitempty"`
}

// OnInput transforms or handles prompts before they reach the model.
func (x *Extension) OnInput(fn func(c *Context, e InputEvent) (InputResult, error)) {
	x.on("input", adapt(fn, func(r InputResult) bool { return r.Action == "" || r.Action == "continue" }))
}

// CustomMessage is a message of the extension's own type; Display shows it to the user.
type CustomMessage struct {
	CustomType string `json:"customType"`
	Content    any    `json:"content"`
	Display    bool   `json:"display"`
	Details    any    `json:"details,omitempty"`
}

// BeforeAgentStartEvent: a prompt is about to start a run.
type BeforeAgentStartEvent struct {
	Prompt       string          `json:"prompt"`
	Images       json.RawMessage `json:"images,omitempty"`
	SystemPrompt string          `json:"systemPrompt"`
}

// BeforeAgentStartResult adds a message to the prompt and/or replaces the system prompt.
type BeforeAgentStartResult struct {
	Message      *CustomMessage `json:"message,omitempty"`
	SystemPrompt string         `json:"systemPrompt,omitempty"`
}

// OnBeforeAgentStart runs before each prompt's run.
func (x *Extension) OnBeforeAgentStart(fn func(c *Context, e BeforeAgentStartEvent) (BeforeAgentStartResult, error)) {
	x.on("before_agent_start", adapt(fn, func(r BeforeAgentStartResult) bool { return r.Message == nil && r.SystemPrompt == "" }))
}

// MessageEvent carries one message (Pi's message object).
type MessageEvent struct {
	Message json.RawMessage `json:"message"`
}

// OnMessageEnd may replace a finished message (keeping its role); a nil Message leaves it.
func (x *Extension) OnMessageEnd(fn func(c *Context, e MessageEvent) (MessageEvent, error)) {
	x.on("message_end", adapt(fn, func(r MessageEvent) bool { return r.Message == nil }))
}

// SessionBeforeResult answers session_before_switch, _fork, _compact and _tree: Cancel stops
// the action; Compaction (for _compact) and Summary (for _tree) replace pig's own.
type SessionBeforeResult struct {
	Cancel              bool   `json:"cancel,omitempty"`
	Compaction          any    `json:"compaction,omitempty"`
	Summary             any    `json:"summary,omitempty"`
	CustomInstructions  string `json:"customInstructions,omitempty"`
	ReplaceInstructions bool   `json:"replaceInstructions,omitempty"`
	Label               string `json:"label,omitempty"`
}

// OnSessionBefore handles one of session_before_switch, session_before_fork,
// session_before_compact and session_before_tree.
func (x *Extension) OnSessionBefore(event string, fn func(c *Context, e Event) (SessionBeforeResult, error)) {
	x.on(event, func(c *Context, payload json.RawMessage) (json.RawMessage, error) {
		r, err := fn(c, Event{Name: event, Payload: payload})
		if err != nil || r == (SessionBeforeResult{}) {
			return nil, err
		}
		return encode(r)
	})
}

// BoundaryEvent is turn_end or agent_before_settle (docs §3.1): the drafts so far, whether a
// continuation is asked for, and the boundary id for Context.BoundaryContext.
type BoundaryEvent struct {
	Outcome  string            `json:"outcome"`
	Entries  []json.RawMessage `json:"entries"`
	Continue bool              `json:"continue"`
	Boundary string            `json:"boundary"`
	Payload  json.RawMessage   `json:"-"`
}

// BoundaryResult replaces the drafts when Entries is not nil (keep the old ones first to add)
// and the continue flag when Continue is not nil.
type BoundaryResult struct {
	Entries  []any `json:"entries,omitempty"`
	Continue *bool `json:"continue,omitempty"`
}

// OnBoundary handles "turn_end" or "agent_before_settle".
func (x *Extension) OnBoundary(event string, fn func(c *Context, e BoundaryEvent) (BoundaryResult, error)) {
	x.on(event, func(c *Context, payload json.RawMessage) (json.RawMessage, error) {
		var e BoundaryEvent
		if err := json.Unmarshal(payload, &e); err != nil {
			return nil, err
		}
		e.Payload = payload
		r, err := fn(c, e)
		if err != nil || (r.Entries == nil && r.Continue == nil) {
			return nil, err
		}
		return encode(r)
	})
}

// CustomDraft is a boundary draft that appends a `custom` entry (not seen by the model).
func CustomDraft(customType string, data any) map[string]any {
	return map[string]any{"type": "custom", "customType": customType, "data": data}
}

// CustomMessageDraft is a boundary draft that appends a custom message (the model reads it).
func CustomMessageDraft(m CustomMessage) map[string]any {
	d := map[string]any{"type": "custom_message", "customType": m.CustomType, "content": m.Content, "display": m.Display}
	if m.Details != nil {
		d["details"] = m.Details
	}
	return d
}

// Bool is a pointer to b, for optional fields.
func Bool(b bool) *bool { return &b }
