package rpc

import "encoding/json"

// Event is one event line pig wrote: one of the *…Event types of this file, or *UnknownEvent
// for a type this package does not know (or a line it could not decode).
type Event interface {
	// EventType is the line's "type".
	EventType() string
	// RawJSON is the whole line as pig wrote it.
	RawJSON() json.RawMessage
}

// EventHeader is what every event has: its type and its line.
type EventHeader struct {
	Type string          `json:"type"`
	Raw  json.RawMessage `json:"-"`
}

func (h *EventHeader) EventType() string        { return h.Type }
func (h *EventHeader) RawJSON() json.RawMessage { return h.Raw }

// Event types pig writes (docs/rpc.md, "Events").
const (
	EventAgentStart                     = "agent_start"
	EventAgentEnd                       = "agent_end"
	EventAgentSettled                   = "agent_settled"
	EventTurnStart                      = "turn_start"
	EventTurnEnd                        = "turn_end"
	EventMessageStart                   = "message_start"
	EventMessageUpdate                  = "message_update"
	EventMessageEnd                     = "message_end"
	EventToolExecutionStart             = "tool_execution_start"
	EventToolExecutionUpdate            = "tool_execution_update"
	EventToolExecutionEnd               = "tool_execution_end"
	EventQueueUpdate                    = "queue_update"
	EventCompactionStart                = "compaction_start"
	EventCompactionEnd                  = "compaction_end"
	EventSessionInfoChanged             = "session_info_changed"
	EventEntryAppended                  = "entry_appended"
	EventThinkingLevelChanged           = "thinking_level_changed"
	EventAutoRetryStart                 = "auto_retry_start"
	EventAutoRetryEnd                   = "auto_retry_end"
	EventSummarizationRetryScheduled    = "summarization_retry_scheduled"
	EventSummarizationRetryAttemptStart = "summarization_retry_attempt_start"
	EventSummarizationRetryFinished     = "summarization_retry_finished"
	EventExtensionError                 = "extension_error"
	EventPromptError                    = "prompt_error"
	EventBashExecutionUpdate            = "bash_execution_update"
)

// AgentStartEvent: a low-level run begins.
type AgentStartEvent struct{ EventHeader }

// AgentEndEvent: a low-level run ended. WillRetry says a retry of its failed answer follows;
// wait for AgentSettledEvent to know pig is done.
type AgentEndEvent struct {
	EventHeader
	Messages  []Message `json:"messages"`
	WillRetry bool      `json:"willRetry"`
}

// AgentSettledEvent: the prompt's run is over, with its retries, compactions and queued
// messages. Nothing follows on its own.
type AgentSettledEvent struct{ EventHeader }

// TurnStartEvent: one model request and the tool calls it makes begin.
type TurnStartEvent struct{ EventHeader }

// TurnEndEvent: the turn's answer and the results of its tool calls.
type TurnEndEvent struct {
	EventHeader
	Message     Message   `json:"message"`
	ToolResults []Message `json:"toolResults"`
}

// MessageStartEvent: a message begins (an answer starts streaming, or a whole message is added).
type MessageStartEvent struct {
	EventHeader
	Message Message `json:"message"`
}

// AssistantMessageEvent is what changed in a streaming answer: text_start, text_delta,
// text_end, thinking_start, thinking_delta, thinking_end, toolcall_start, toolcall_delta,
// toolcall_end, start, done or error.
type AssistantMessageEvent struct {
	Type         string `json:"type"`
	ContentIndex int    `json:"contentIndex"`
	// Delta is a *_delta's new text.
	Delta string `json:"delta"`
	// Content is text_end's and thinking_end's whole block text.
	Content string `json:"content"`
	// ID and ToolName name the call a toolcall_start opens.
	ID       string `json:"id"`
	ToolName string `json:"toolName"`
	// ToolCall is toolcall_end's call.
	ToolCall *ContentBlock `json:"toolCall"`
	// Reason, Message and Error belong to done and error.
	Reason  string          `json:"reason"`
	Message *Message        `json:"message"`
	Error   *Message        `json:"error"`
	Raw     json.RawMessage `json:"-"`
}

func (a *AssistantMessageEvent) UnmarshalJSON(data []byte) error {
	type plain AssistantMessageEvent
	return keepRaw(data, (*plain)(a), &a.Raw)
}

// MessageUpdateEvent: only what changed in the answer, and its usage so far. Join the deltas
// between MessageStartEvent and MessageEndEvent for a live answer.
type MessageUpdateEvent struct {
	EventHeader
	Usage                 *Usage                `json:"usage"`
	AssistantMessageEvent AssistantMessageEvent `json:"assistantMessageEvent"`
}

// MessageEndEvent: the message, final.
type MessageEndEvent struct {
	EventHeader
	Message Message `json:"message"`
}

// ToolResult is what a tool returned (or has returned so far).
type ToolResult struct {
	Content []ContentBlock  `json:"content"`
	Details json.RawMessage `json:"details"`
	Raw     json.RawMessage `json:"-"`
}

func (t *ToolResult) UnmarshalJSON(data []byte) error {
	type plain ToolResult
	return keepRaw(data, (*plain)(t), &t.Raw)
}

// Text is the result's text blocks, joined.
func (t *ToolResult) Text() string {
	s := ""
	for _, b := range t.Content {
		if b.Type == "text" {
			s += b.Text
		}
	}
	return s
}

// ToolExecutionStartEvent: a tool call begins with these arguments.
type ToolExecutionStartEvent struct {
	EventHeader
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`
}

// ToolExecutionUpdateEvent: a tool's partial output.
type ToolExecutionUpdateEvent struct {
	EventHeader
	ToolCallID    string          `json:"toolCallId"`
	ToolName      string          `json:"toolName"`
	Args          json.RawMessage `json:"args"`
	PartialResult ToolResult      `json:"partialResult"`
}

// ToolExecutionEndEvent: a tool call's result.
type ToolExecutionEndEvent struct {
	EventHeader
	ToolCallID string     `json:"toolCallId"`
	ToolName   string     `json:"toolName"`
	Result     ToolResult `json:"result"`
	IsError    bool       `json:"isError"`
}

// QueueUpdateEvent: the steering and follow-up queues now.
type QueueUpdateEvent struct {
	EventHeader
	Steering []string `json:"steering"`
	FollowUp []string `json:"followUp"`
}

// CompactionStartEvent: a compaction begins; Reason is manual, threshold or overflow.
type CompactionStartEvent struct {
	EventHeader
	Reason string `json:"reason"`
}

// CompactionEndEvent: a compaction ended, with its result unless it failed or was aborted.
type CompactionEndEvent struct {
	EventHeader
	Reason       string            `json:"reason"`
	Result       *CompactionResult `json:"result"`
	Aborted      bool              `json:"aborted"`
	WillRetry    bool              `json:"willRetry"`
	ErrorMessage string            `json:"errorMessage"`
}

// SessionInfoChangedEvent: the session's name changed ("" when it has none).
type SessionInfoChangedEvent struct {
	EventHeader
	Name string `json:"name"`
}

// EntryAppendedEvent: an extension appended an entry, as stored.
type EntryAppendedEvent struct {
	EventHeader
	Entry Entry `json:"entry"`
}

// ThinkingLevelChangedEvent: the thinking level now.
type ThinkingLevelChangedEvent struct {
	EventHeader
	Level string `json:"level"`
}

// AutoRetryStartEvent: a failed answer is tried again after DelayMs.
type AutoRetryStartEvent struct {
	EventHeader
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int64  `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// AutoRetryEndEvent: retrying is over, successfully or not.
type AutoRetryEndEvent struct {
	EventHeader
	Success    bool   `json:"success"`
	Attempt    int    `json:"attempt"`
	FinalError string `json:"finalError"`
}

// SummarizationRetryScheduledEvent: a summary request failed and is tried again after DelayMs.
type SummarizationRetryScheduledEvent struct {
	EventHeader
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int64  `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// SummarizationRetryAttemptStartEvent: a summary is tried again. Source is compaction (with
// its Reason) or branchSummary.
type SummarizationRetryAttemptStartEvent struct {
	EventHeader
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// SummarizationRetryFinishedEvent: retrying a summary is over.
type SummarizationRetryFinishedEvent struct{ EventHeader }

// ExtensionErrorEvent: an extension's handler failed; Event names which (an event name,
// "command", …). pig goes on.
type ExtensionErrorEvent struct {
	EventHeader
	ExtensionPath string `json:"extensionPath"`
	Event         string `json:"event"`
	Error         string `json:"error"`
	Stack         string `json:"stack"`
}

// PromptErrorEvent: a prompt that was accepted failed later.
type PromptErrorEvent struct {
	EventHeader
	Error string `json:"error"`
}

// BashExecutionUpdateEvent: output of a bash command as it arrives; ID is the command's id.
type BashExecutionUpdateEvent struct {
	EventHeader
	ID    string `json:"-"`
	Delta string `json:"delta"`
}

// UnknownEvent is a line of a type this package does not decode, a response nobody waits
// for, or a line whose decoding failed (DecodeError).
type UnknownEvent struct {
	EventHeader
	DecodeError error `json:"-"`
}

var eventTypes = map[string]func() Event{
	EventAgentStart:                     func() Event { return &AgentStartEvent{} },
	EventAgentEnd:                       func() Event { return &AgentEndEvent{} },
	EventAgentSettled:                   func() Event { return &AgentSettledEvent{} },
	EventTurnStart:                      func() Event { return &TurnStartEvent{} },
	EventTurnEnd:                        func() Event { return &TurnEndEvent{} },
	EventMessageStart:                   func() Event { return &MessageStartEvent{} },
	EventMessageUpdate:                  func() Event { return &MessageUpdateEvent{} },
	EventMessageEnd:                     func() Event { return &MessageEndEvent{} },
	EventToolExecutionStart:             func() Event { return &ToolExecutionStartEvent{} },
	EventToolExecutionUpdate:            func() Event { return &ToolExecutionUpdateEvent{} },
	EventToolExecutionEnd:               func() Event { return &ToolExecutionEndEvent{} },
	EventQueueUpdate:                    func() Event { return &QueueUpdateEvent{} },
	EventCompactionStart:                func() Event { return &CompactionStartEvent{} },
	EventCompactionEnd:                  func() Event { return &CompactionEndEvent{} },
	EventSessionInfoChanged:             func() Event { return &SessionInfoChangedEvent{} },
	EventEntryAppended:                  func() Event { return &EntryAppendedEvent{} },
	EventThinkingLevelChanged:           func() Event { return &ThinkingLevelChangedEvent{} },
	EventAutoRetryStart:                 func() Event { return &AutoRetryStartEvent{} },
	EventAutoRetryEnd:                   func() Event { return &AutoRetryEndEvent{} },
	EventSummarizationRetryScheduled:    func() Event { return &SummarizationRetryScheduledEvent{} },
	EventSummarizationRetryAttemptStart: func() Event { return &SummarizationRetryAttemptStartEvent{} },
	EventSummarizationRetryFinished:     func() Event { return &SummarizationRetryFinishedEvent{} },
	EventExtensionError:                 func() Event { return &ExtensionErrorEvent{} },
	EventPromptError:                    func() Event { return &PromptErrorEvent{} },
	EventBashExecutionUpdate:            func() Event { return &BashExecutionUpdateEvent{} },
}

// decodeEvent decodes one event line of the given type; the line is copied.
func decodeEvent(typ string, line []byte) Event {
	raw := append(json.RawMessage(nil), line...)
	newEvent, ok := eventTypes[typ]
	if !ok {
		return &UnknownEvent{EventHeader: EventHeader{Type: typ, Raw: raw}}
	}
	ev := newEvent()
	if err := json.Unmarshal(raw, ev); err != nil {
		return &UnknownEvent{EventHeader: EventHeader{Type: typ, Raw: raw}, DecodeError: err}
	}
	header(ev).Raw = raw
	return ev
}

// header is the EventHeader every decoded event embeds.
func header(ev Event) *EventHeader {
	type headed interface{ head() *EventHeader }
	return ev.(headed).head()
}

func (h *EventHeader) head() *EventHeader { return h }
