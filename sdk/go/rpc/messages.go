package rpc

import (
	"encoding/json"
	"strings"
)

// Image is an image sent with a prompt: base64 data and its MIME type.
type Image struct {
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

func (i Image) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type     string `json:"type"`
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
	}{"image", i.Data, i.MimeType})
}

// Cost is money in the model's currency (US dollars for the built-in catalogue).
type Cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

// Usage is what one answer (or summary) used and cost.
type Usage struct {
	Input       int64 `json:"input"`
	Output      int64 `json:"output"`
	CacheRead   int64 `json:"cacheRead"`
	CacheWrite  int64 `json:"cacheWrite"`
	TotalTokens int64 `json:"totalTokens"`
	// Reasoning tokens, already counted in Output.
	Reasoning int64 `json:"reasoning,omitempty"`
	Cost      Cost  `json:"cost"`
}

// ContentBlock is one block of a message's content: text, thinking, a tool call or an image.
type ContentBlock struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// thinking
	Thinking string `json:"thinking,omitempty"`
	Redacted bool   `json:"redacted,omitempty"`
	// toolCall
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// image
	MimeType string          `json:"mimeType,omitempty"`
	Data     string          `json:"data,omitempty"`
	Raw      json.RawMessage `json:"-"`
}

func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	type plain ContentBlock
	return keepRaw(data, (*plain)(b), &b.Raw)
}

// Message is a message of the conversation, any role: user, assistant, toolResult, system,
// custom, bashExecution, … The fields are those of the roles that have them; Raw has the rest.
type Message struct {
	Role string `json:"role"`
	// Content is a string or a list of blocks; Blocks and Text read it.
	Content   json.RawMessage `json:"content,omitempty"`
	Timestamp int64           `json:"timestamp,omitempty"`
	// An assistant message's.
	API          string `json:"api,omitempty"`
	Provider     string `json:"provider,omitempty"`
	Model        string `json:"model,omitempty"`
	Usage        *Usage `json:"usage,omitempty"`
	StopReason   string `json:"stopReason,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	ResponseID   string `json:"responseId,omitempty"`
	// A tool result's.
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	Details    json.RawMessage `json:"details,omitempty"`
	// A custom message's (an extension's).
	CustomType string          `json:"customType,omitempty"`
	Raw        json.RawMessage `json:"-"`
}

func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	return keepRaw(data, (*plain)(m), &m.Raw)
}

// Blocks is the content as blocks; string content is one text block.
func (m *Message) Blocks() []ContentBlock {
	return blocksOf(m.Content)
}

// Text is the text blocks of the content, joined.
func (m *Message) Text() string {
	return textOf(m.Content)
}

// ToolCalls are the content's tool call blocks (an assistant message's).
func (m *Message) ToolCalls() []ContentBlock {
	var calls []ContentBlock
	for _, b := range m.Blocks() {
		if b.Type == "toolCall" {
			calls = append(calls, b)
		}
	}
	return calls
}

func blocksOf(content json.RawMessage) []ContentBlock {
	if len(content) == 0 {
		return nil
	}
	if content[0] == '"' {
		var s string
		if json.Unmarshal(content, &s) != nil {
			return nil
		}
		return []ContentBlock{{Type: "text", Text: s}}
	}
	var blocks []ContentBlock
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	return blocks
}

func textOf(content json.RawMessage) string {
	var parts []string
	for _, b := range blocksOf(content) {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "")
}
