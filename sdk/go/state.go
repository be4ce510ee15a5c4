package sdk

import "encoding/json"

// State is pig's `state` notification (docs §5). Raw holds it whole.
type State struct {
	Cwd         string `json:"cwd"`
	SessionFile string `json:"sessionFile"`
	SessionID   string `json:"sessionId"`
	SessionName string `json:"sessionName"`
	Model       *struct {
		Provider string `json:"provider"`
		ID       string `json:"id"`
	} `json:"model"`
	ThinkingLevel      string          `json:"thinkingLevel"`
	ActiveTools        []string        `json:"activeTools"`
	IsIdle             bool            `json:"isIdle"`
	HasPendingMessages bool            `json:"hasPendingMessages"`
	SystemPrompt       string          `json:"systemPrompt"`
	Flags              map[string]any  `json:"flags"`
	Raw                json.RawMessage `json:"-"`
}

// State is the latest `state` pig sent (the zero State before the first).
func (x *Extension) State() State {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.state
}
