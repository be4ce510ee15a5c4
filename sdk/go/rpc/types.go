package rpc

import (
	"encoding/json"

	"github.com/pig-coding-agent/pig/sdk/go/sessionfile"
)

// keepRaw decodes data into v (a value of a local type without the UnmarshalJSON method
// that called it) and keeps a copy of data in raw, so fields this package does not name stay
// reachable.
func keepRaw(data []byte, v any, raw *json.RawMessage) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	*raw = append(json.RawMessage(nil), data...)
	return nil
}

// Thinking levels (set_thinking_level; get_state reports one of them).
const (
	ThinkingOff     = "off"
	ThinkingMinimal = "minimal"
	ThinkingLow     = "low"
	ThinkingMedium  = "medium"
	ThinkingHigh    = "high"
	ThinkingXHigh   = "xhigh"
	ThinkingMax     = "max"
)

// Queue modes (set_steering_mode, set_follow_up_mode).
const (
	QueueAll        = "all"
	QueueOneAtATime = "one-at-a-time"
)

// Streaming behaviours: where a prompt sent while the agent works goes.
const (
	StreamingSteer    = "steer"
	StreamingFollowUp = "followUp"
)

// ModelCost is a model's price per million tokens.
type ModelCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

// Model is a model as pig describes it (get_state, set_model, get_available_models).
type Model struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	API           string          `json:"api"`
	Provider      string          `json:"provider"`
	BaseURL       string          `json:"baseUrl"`
	Reasoning     bool            `json:"reasoning"`
	Input         []string        `json:"input"`
	Cost          ModelCost       `json:"cost"`
	ContextWindow int64           `json:"contextWindow"`
	MaxTokens     int64           `json:"maxTokens"`
	Raw           json.RawMessage `json:"-"`
}

func (m *Model) UnmarshalJSON(data []byte) error {
	type plain Model
	return keepRaw(data, (*plain)(m), &m.Raw)
}

// State is get_state's answer.
type State struct {
	// Model is nil when no model is chosen.
	Model                 *Model          `json:"model"`
	ThinkingLevel         string          `json:"thinkingLevel"`
	IsStreaming           bool            `json:"isStreaming"`
	IsCompacting          bool            `json:"isCompacting"`
	SteeringMode          string          `json:"steeringMode"`
	FollowUpMode          string          `json:"followUpMode"`
	SessionFile           string          `json:"sessionFile"`
	SessionID             string          `json:"sessionId"`
	SessionName           string          `json:"sessionName"`
	AutoCompactionEnabled bool            `json:"autoCompactionEnabled"`
	MessageCount          int             `json:"messageCount"`
	PendingMessageCount   int             `json:"pendingMessageCount"`
	Raw                   json.RawMessage `json:"-"`
}

func (s *State) UnmarshalJSON(data []byte) error {
	type plain State
	return keepRaw(data, (*plain)(s), &s.Raw)
}

// ModelCycle is cycle_model's answer.
type ModelCycle struct {
	Model         Model           `json:"model"`
	ThinkingLevel string          `json:"thinkingLevel"`
	IsScoped      bool            `json:"isScoped"`
	Raw           json.RawMessage `json:"-"`
}

func (m *ModelCycle) UnmarshalJSON(data []byte) error {
	type plain ModelCycle
	return keepRaw(data, (*plain)(m), &m.Raw)
}

// Queues are the texts taken off the queues by clear_queue.
type Queues struct {
	Steering []string        `json:"steering"`
	FollowUp []string        `json:"followUp"`
	Raw      json.RawMessage `json:"-"`
}

func (q *Queues) UnmarshalJSON(data []byte) error {
	type plain Queues
	return keepRaw(data, (*plain)(q), &q.Raw)
}

// SessionChange is the answer of new_session, switch_session and clone: Cancelled when an
// extension's session_before_* handler refused.
type SessionChange struct {
	Cancelled bool            `json:"cancelled"`
	Raw       json.RawMessage `json:"-"`
}

func (s *SessionChange) UnmarshalJSON(data []byte) error {
	type plain SessionChange
	return keepRaw(data, (*plain)(s), &s.Raw)
}

// ForkResult is fork's answer: the text of the user message forked at (for an editor).
type ForkResult struct {
	Text      string          `json:"text"`
	Cancelled bool            `json:"cancelled"`
	Raw       json.RawMessage `json:"-"`
}

func (f *ForkResult) UnmarshalJSON(data []byte) error {
	type plain ForkResult
	return keepRaw(data, (*plain)(f), &f.Raw)
}

// ForkMessage is a user message the session can be forked at.
type ForkMessage struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// CompactionResult is compact's answer, and compaction_end's result.
type CompactionResult struct {
	Summary          string `json:"summary"`
	FirstKeptEntryID string `json:"firstKeptEntryId"`
	TokensBefore     int64  `json:"tokensBefore"`
	// EstimatedTokensAfter is an estimate of the context right after; nil when not given.
	EstimatedTokensAfter *int64          `json:"estimatedTokensAfter"`
	Usage                *Usage          `json:"usage"`
	Details              json.RawMessage `json:"details"`
	Raw                  json.RawMessage `json:"-"`
}

func (c *CompactionResult) UnmarshalJSON(data []byte) error {
	type plain CompactionResult
	return keepRaw(data, (*plain)(c), &c.Raw)
}

// BashResult is bash's answer. Output may be only the tail of a long output (Truncated; the
// whole is in FullOutputPath); Bash's OnOutput sees all of it.
type BashResult struct {
	Output string `json:"output"`
	// ExitCode is nil when the command did not exit on its own (cancelled).
	ExitCode       *int            `json:"exitCode"`
	Cancelled      bool            `json:"cancelled"`
	Truncated      bool            `json:"truncated"`
	FullOutputPath string          `json:"fullOutputPath"`
	Raw            json.RawMessage `json:"-"`
}

func (b *BashResult) UnmarshalJSON(data []byte) error {
	type plain BashResult
	return keepRaw(data, (*plain)(b), &b.Raw)
}

// Tokens are token totals by kind.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
	Total      int64 `json:"total"`
}

// ContextUsage is how full the model's context window is. Tokens and Percent are nil when
// unknown (right after a compaction, before the next answer).
type ContextUsage struct {
	Tokens        *int64   `json:"tokens"`
	ContextWindow int64    `json:"contextWindow"`
	Percent       *float64 `json:"percent"`
}

// SessionStats is get_session_stats's answer: counts over every message entry of the file
// (all branches), and the usage of everything billed.
type SessionStats struct {
	SessionFile       string          `json:"sessionFile"`
	SessionID         string          `json:"sessionId"`
	UserMessages      int             `json:"userMessages"`
	AssistantMessages int             `json:"assistantMessages"`
	ToolCalls         int             `json:"toolCalls"`
	ToolResults       int             `json:"toolResults"`
	TotalMessages     int             `json:"totalMessages"`
	Tokens            Tokens          `json:"tokens"`
	Cost              float64         `json:"cost"`
	ContextUsage      *ContextUsage   `json:"contextUsage"`
	Raw               json.RawMessage `json:"-"`
}

func (s *SessionStats) UnmarshalJSON(data []byte) error {
	type plain SessionStats
	return keepRaw(data, (*plain)(s), &s.Raw)
}

// Entry is a session entry as stored (get_entries, get_tree, entry_appended). Flat reads it
// the way sessionfile does.
type Entry struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	ParentID  string `json:"-"` // "" for a root
	Timestamp string `json:"timestamp"`
	// Message is a "message" entry's message.
	Message *Message        `json:"message"`
	Raw     json.RawMessage `json:"-"`
}

func (e *Entry) UnmarshalJSON(data []byte) error {
	type plain Entry
	var links struct {
		ParentID *string `json:"parentId"`
	}
	if err := json.Unmarshal(data, &links); err != nil {
		return err
	}
	if links.ParentID != nil {
		e.ParentID = *links.ParentID
	}
	return keepRaw(data, (*plain)(e), &e.Raw)
}

// Flat is the entry flattened as sessionfile.ParseEntry does it (role, text, tool calls,
// custom data, …).
func (e *Entry) Flat() (sessionfile.Entry, error) {
	return sessionfile.ParseEntry(e.Raw)
}

// Entries is get_entries's answer: entries in file order, and the active branch's leaf.
type Entries struct {
	Entries []Entry `json:"entries"`
	// LeafID is "" for a session without entries.
	LeafID string          `json:"leafId"`
	Raw    json.RawMessage `json:"-"`
}

func (e *Entries) UnmarshalJSON(data []byte) error {
	type plain Entries
	return keepRaw(data, (*plain)(e), &e.Raw)
}

// TreeNode is one entry of get_tree's answer with the entries that continue from it.
type TreeNode struct {
	Entry          Entry
	Children       []*TreeNode
	Label          string
	LabelTimestamp string
}

// Tree is get_tree's answer: every entry once (several roots are possible).
type Tree struct {
	Roots  []*TreeNode
	LeafID string
}

// CommandInfo is a command get_commands lists.
type CommandInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is "extension", "prompt" (a template) or "skill".
	Source     string          `json:"source"`
	SourceInfo json.RawMessage `json:"sourceInfo"`
	Raw        json.RawMessage `json:"-"`
}

func (c *CommandInfo) UnmarshalJSON(data []byte) error {
	type plain CommandInfo
	return keepRaw(data, (*plain)(c), &c.Raw)
}

// ExtensionInfo is one loaded extension of get_extensions.
type ExtensionInfo struct {
	Path string `json:"path"`
	// PID is 0 when no process holds it.
	PID        int `json:"pid"`
	Generation int `json:"generation"`
	// State: idle, starting, running, restarting, disabled, failed, stopped or load-failed.
	State           string          `json:"state"`
	Events          []string        `json:"events"`
	Calls           int             `json:"calls"`
	MedianLatencyMs *float64        `json:"medianLatencyMs"`
	Error           string          `json:"error"`
	Raw             json.RawMessage `json:"-"`
}

func (x *ExtensionInfo) UnmarshalJSON(data []byte) error {
	type plain ExtensionInfo
	return keepRaw(data, (*plain)(x), &x.Raw)
}

// NavigateResult is navigate_tree's answer.
type NavigateResult struct {
	EditorText     string          `json:"editorText"`
	Cancelled      bool            `json:"cancelled"`
	Aborted        bool            `json:"aborted"`
	SummaryEntryID string          `json:"summaryEntryId"`
	Raw            json.RawMessage `json:"-"`
}

func (n *NavigateResult) UnmarshalJSON(data []byte) error {
	type plain NavigateResult
	return keepRaw(data, (*plain)(n), &n.Raw)
}

// Piglet is a Piglet get_piglets lists.
type Piglet struct {
	Name     string          `json:"name"`
	FilePath string          `json:"filePath"`
	Scope    string          `json:"scope"`
	Raw      json.RawMessage `json:"-"`
}

func (p *Piglet) UnmarshalJSON(data []byte) error {
	type plain Piglet
	return keepRaw(data, (*plain)(p), &p.Raw)
}

// Piglets is get_piglets's answer. Current is "" when the session has none.
type Piglets struct {
	Current string          `json:"current"`
	Piglets []Piglet        `json:"piglets"`
	Raw     json.RawMessage `json:"-"`
}

func (p *Piglets) UnmarshalJSON(data []byte) error {
	type plain Piglets
	return keepRaw(data, (*plain)(p), &p.Raw)
}

// PigletSwitch is set_piglet's answer. Model is "provider/id" when the Piglet chose one;
// Extensions is non-nil when the extensions were switched.
type PigletSwitch struct {
	Name         string          `json:"name"`
	Model        string          `json:"model"`
	Thinking     string          `json:"thinking"`
	Extensions   []string        `json:"extensions"`
	Tools        []string        `json:"tools"`
	NeedsRestart []string        `json:"needsRestart"`
	Raw          json.RawMessage `json:"-"`
}

func (p *PigletSwitch) UnmarshalJSON(data []byte) error {
	type plain PigletSwitch
	return keepRaw(data, (*plain)(p), &p.Raw)
}
