package rpc

import "context"

// The commands of docs/rpc.md, one method each. A refused command returns a *CommandError
// with pig's message; a cancelled ctx returns ctx.Err() (the command may still run: ctx only
// ends the wait; Abort stops a run).

// Do sends any command (type and fields) and returns its data undecoded: for commands this
// package does not know yet. A refusal is a *CommandError.
func (c *Client) Do(ctx context.Context, command string, fields map[string]any) ([]byte, error) {
	r, err := c.call(ctx, command, fields, nil)
	if err != nil {
		return nil, err
	}
	return r.data, nil
}

// simple sends a command whose answer has no data.
func (c *Client) simple(ctx context.Context, command string, fields map[string]any) error {
	_, err := c.call(ctx, command, fields, nil)
	return err
}

// getAs sends a command and returns its data decoded as a T (nil with an error).
func getAs[T any](ctx context.Context, c *Client, command string, fields map[string]any) (*T, error) {
	var v T
	if err := c.get(ctx, command, fields, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// get sends a command and decodes its data into v.
func (c *Client) get(ctx context.Context, command string, fields map[string]any, v any) error {
	r, err := c.call(ctx, command, fields, nil)
	if err != nil {
		return err
	}
	return decodeData(command, r, v)
}

// PromptOptions are a prompt's optional fields.
type PromptOptions struct {
	Images []Image
	// StreamingBehavior says where the prompt goes while the agent works: StreamingSteer or
	// StreamingFollowUp. Without it such a prompt is refused.
	StreamingBehavior string
}

func promptFields(message string, opts *PromptOptions) map[string]any {
	f := map[string]any{"message": message}
	if opts != nil {
		if len(opts.Images) > 0 {
			f["images"] = opts.Images
		}
		if opts.StreamingBehavior != "" {
			f["streamingBehavior"] = opts.StreamingBehavior
		}
	}
	return f
}

// Prompt sends a prompt. It returns once pig accepted it (the run starts, or it was queued)
// or refused it, not when the run is over: see PromptAndWait. A failure after acceptance
// comes as a PromptErrorEvent. "/name args" for an extension command runs the command and
// returns when it has finished.
func (c *Client) Prompt(ctx context.Context, message string, opts *PromptOptions) error {
	return c.simple(ctx, "prompt", promptFields(message, opts))
}

// Steer queues a message for the running turn (or the next run, while idle).
func (c *Client) Steer(ctx context.Context, message string, images ...Image) error {
	return c.simple(ctx, "steer", promptFields(message, &PromptOptions{Images: images}))
}

// FollowUp queues a message for when the agent would stop.
func (c *Client) FollowUp(ctx context.Context, message string, images ...Image) error {
	return c.simple(ctx, "follow_up", promptFields(message, &PromptOptions{Images: images}))
}

// Abort stops the run, a compaction and a branch summary, and returns once they stopped.
// Queued messages stay queued (ClearQueue takes them off).
func (c *Client) Abort(ctx context.Context) error {
	return c.simple(ctx, "abort", nil)
}

// ClearQueue takes the queued messages off the queues and returns their texts.
func (c *Client) ClearQueue(ctx context.Context) (*Queues, error) {
	return getAs[Queues](ctx, c, "clear_queue", nil)
}

// NewSession starts a new session; parentSession ("" for none) is recorded as its parent.
func (c *Client) NewSession(ctx context.Context, parentSession string) (*SessionChange, error) {
	f := map[string]any{}
	if parentSession != "" {
		f["parentSession"] = parentSession
	}
	return getAs[SessionChange](ctx, c, "new_session", f)
}

// GetState returns the session's state.
func (c *Client) GetState(ctx context.Context) (*State, error) {
	return getAs[State](ctx, c, "get_state", nil)
}

// GetMessages returns the messages of the context (the active branch, as the model sees it).
func (c *Client) GetMessages(ctx context.Context) ([]Message, error) {
	var d struct {
		Messages []Message `json:"messages"`
	}
	if err := c.get(ctx, "get_messages", nil, &d); err != nil {
		return nil, err
	}
	return d.Messages, nil
}

// SetModel switches the model and returns it.
func (c *Client) SetModel(ctx context.Context, provider, modelID string) (*Model, error) {
	return getAs[Model](ctx, c, "set_model", map[string]any{"provider": provider, "modelId": modelID})
}

// CycleModel switches to the next model; nil when there is no other.
func (c *Client) CycleModel(ctx context.Context) (*ModelCycle, error) {
	var m *ModelCycle
	if err := c.get(ctx, "cycle_model", nil, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// GetAvailableModels returns the models there are keys for.
func (c *Client) GetAvailableModels(ctx context.Context) ([]Model, error) {
	var d struct {
		Models []Model `json:"models"`
	}
	if err := c.get(ctx, "get_available_models", nil, &d); err != nil {
		return nil, err
	}
	return d.Models, nil
}

// SetThinkingLevel sets the thinking level (ThinkingOff … ThinkingMax).
func (c *Client) SetThinkingLevel(ctx context.Context, level string) error {
	return c.simple(ctx, "set_thinking_level", map[string]any{"level": level})
}

// CycleThinkingLevel switches to the next thinking level and returns it; "" when the model
// has no levels to cycle through.
func (c *Client) CycleThinkingLevel(ctx context.Context) (string, error) {
	var d *struct {
		Level string `json:"level"`
	}
	if err := c.get(ctx, "cycle_thinking_level", nil, &d); err != nil || d == nil {
		return "", err
	}
	return d.Level, nil
}

// GetAvailableThinkingLevels returns the model's thinking levels (["off"] without reasoning).
func (c *Client) GetAvailableThinkingLevels(ctx context.Context) ([]string, error) {
	var d struct {
		Levels []string `json:"levels"`
	}
	if err := c.get(ctx, "get_available_thinking_levels", nil, &d); err != nil {
		return nil, err
	}
	return d.Levels, nil
}

// SetSteeringMode sets how steering messages are delivered (QueueAll, QueueOneAtATime).
func (c *Client) SetSteeringMode(ctx context.Context, mode string) error {
	return c.simple(ctx, "set_steering_mode", map[string]any{"mode": mode})
}

// SetFollowUpMode sets how follow-up messages are delivered (QueueAll, QueueOneAtATime).
func (c *Client) SetFollowUpMode(ctx context.Context, mode string) error {
	return c.simple(ctx, "set_follow_up_mode", map[string]any{"mode": mode})
}

// Compact summarises the older part of the context; customInstructions ("" for none) guide
// the summary.
func (c *Client) Compact(ctx context.Context, customInstructions string) (*CompactionResult, error) {
	f := map[string]any{}
	if customInstructions != "" {
		f["customInstructions"] = customInstructions
	}
	return getAs[CompactionResult](ctx, c, "compact", f)
}

// SetAutoCompaction turns compaction at the context threshold on or off.
func (c *Client) SetAutoCompaction(ctx context.Context, enabled bool) error {
	return c.simple(ctx, "set_auto_compaction", map[string]any{"enabled": enabled})
}

// SetAutoRetry turns retrying failed answers on or off.
func (c *Client) SetAutoRetry(ctx context.Context, enabled bool) error {
	return c.simple(ctx, "set_auto_retry", map[string]any{"enabled": enabled})
}

// AbortRetry stops a retry that is waiting.
func (c *Client) AbortRetry(ctx context.Context) error {
	return c.simple(ctx, "abort_retry", nil)
}

// AbortCompaction stops a running compaction or branch summary, and nothing else.
func (c *Client) AbortCompaction(ctx context.Context) error {
	return c.simple(ctx, "abort_compaction", nil)
}

// BashOptions are a bash command's optional fields.
type BashOptions struct {
	// ExcludeFromContext keeps the command and its output out of what the model is sent.
	ExcludeFromContext bool
	// OnOutput gets the output as it arrives (all of it, where the result may keep only the
	// tail), on the caller's goroutine, before Bash returns.
	OnOutput func(delta string)
}

// Bash runs a shell command the way the user's "!command" does, and records it in the
// session.
func (c *Client) Bash(ctx context.Context, command string, opts *BashOptions) (*BashResult, error) {
	f := map[string]any{"command": command}
	var onOutput func(string)
	if opts != nil {
		if opts.ExcludeFromContext {
			f["excludeFromContext"] = true
		}
		onOutput = opts.OnOutput
	}
	r, err := c.call(ctx, "bash", f, onOutput)
	if err != nil {
		return nil, err
	}
	var b BashResult
	if err := decodeData("bash", r, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// AbortBash stops a running bash command.
func (c *Client) AbortBash(ctx context.Context) error {
	return c.simple(ctx, "abort_bash", nil)
}

// GetSessionStats returns the session's message counts, tokens and cost.
func (c *Client) GetSessionStats(ctx context.Context) (*SessionStats, error) {
	return getAs[SessionStats](ctx, c, "get_session_stats", nil)
}

// ExportHTML writes the session as an HTML page and returns its path; outputPath ("" for
// pig's default name) is relative to pig's working directory.
func (c *Client) ExportHTML(ctx context.Context, outputPath string) (string, error) {
	f := map[string]any{}
	if outputPath != "" {
		f["outputPath"] = outputPath
	}
	var d struct {
		Path string `json:"path"`
	}
	if err := c.get(ctx, "export_html", f, &d); err != nil {
		return "", err
	}
	return d.Path, nil
}

// SwitchSession opens another session file.
func (c *Client) SwitchSession(ctx context.Context, sessionPath string) (*SessionChange, error) {
	return getAs[SessionChange](ctx, c, "switch_session", map[string]any{"sessionPath": sessionPath})
}

// Fork starts a new session file holding the branch up to the user message entryID (left
// out); its text comes back for an editor.
func (c *Client) Fork(ctx context.Context, entryID string) (*ForkResult, error) {
	return getAs[ForkResult](ctx, c, "fork", map[string]any{"entryId": entryID})
}

// Clone starts a new session file holding the whole active branch.
func (c *Client) Clone(ctx context.Context) (*SessionChange, error) {
	return getAs[SessionChange](ctx, c, "clone", nil)
}

// GetForkMessages returns the user messages the session can be forked at.
func (c *Client) GetForkMessages(ctx context.Context) ([]ForkMessage, error) {
	var d struct {
		Messages []ForkMessage `json:"messages"`
	}
	if err := c.get(ctx, "get_fork_messages", nil, &d); err != nil {
		return nil, err
	}
	return d.Messages, nil
}

// GetEntries returns the session's entries in file order (no header), or those after the
// entry since ("" for all); an unknown since is refused.
func (c *Client) GetEntries(ctx context.Context, since string) (*Entries, error) {
	f := map[string]any{}
	if since != "" {
		f["since"] = since
	}
	return getAs[Entries](ctx, c, "get_entries", f)
}

// GetTree returns every entry of the session as a tree. Trees nest one level per entry of a
// branch; they are decoded without encoding/json's nesting limit.
func (c *Client) GetTree(ctx context.Context) (*Tree, error) {
	r, err := c.call(ctx, "get_tree", nil, nil)
	if err != nil {
		return nil, err
	}
	t, err := decodeTree(r.data)
	if err != nil {
		return nil, &CommandError{Command: "get_tree", Message: "unexpected answer: " + err.Error(), Err: err}
	}
	return t, nil
}

// GetLastAssistantText returns the text of the last answer; ok is false when there is none.
func (c *Client) GetLastAssistantText(ctx context.Context) (text string, ok bool, err error) {
	var d struct {
		Text *string `json:"text"`
	}
	if err := c.get(ctx, "get_last_assistant_text", nil, &d); err != nil || d.Text == nil {
		return "", false, err
	}
	return *d.Text, true, nil
}

// SetSessionName names the session.
func (c *Client) SetSessionName(ctx context.Context, name string) error {
	return c.simple(ctx, "set_session_name", map[string]any{"name": name})
}

// GetCommands returns the commands a prompt can run: extension commands, prompt templates,
// then skills.
func (c *Client) GetCommands(ctx context.Context) ([]CommandInfo, error) {
	var d struct {
		Commands []CommandInfo `json:"commands"`
	}
	if err := c.get(ctx, "get_commands", nil, &d); err != nil {
		return nil, err
	}
	return d.Commands, nil
}

// GetExtensions returns each loaded extension's process and state (pig).
func (c *Client) GetExtensions(ctx context.Context) ([]ExtensionInfo, error) {
	var d struct {
		Extensions []ExtensionInfo `json:"extensions"`
	}
	if err := c.get(ctx, "get_extensions", nil, &d); err != nil {
		return nil, err
	}
	return d.Extensions, nil
}

// NavigateOptions are navigate_tree's optional fields.
type NavigateOptions struct {
	// Summarize leaves a summary of the branch left behind.
	Summarize           bool
	CustomInstructions  string
	ReplaceInstructions bool
	// Label labels the entry navigated to.
	Label string
}

// NavigateTree moves the session's leaf to targetID (pig).
func (c *Client) NavigateTree(ctx context.Context, targetID string, opts *NavigateOptions) (*NavigateResult, error) {
	f := map[string]any{"targetId": targetID}
	if opts != nil {
		if opts.Summarize {
			f["summarize"] = true
		}
		if opts.CustomInstructions != "" {
			f["customInstructions"] = opts.CustomInstructions
		}
		if opts.ReplaceInstructions {
			f["replaceInstructions"] = true
		}
		if opts.Label != "" {
			f["label"] = opts.Label
		}
	}
	return getAs[NavigateResult](ctx, c, "navigate_tree", f)
}

// SetLabel labels an entry; "" removes its label (pig).
func (c *Client) SetLabel(ctx context.Context, entryID, label string) error {
	f := map[string]any{"entryId": entryID}
	if label != "" {
		f["label"] = label
	}
	return c.simple(ctx, "set_label", f)
}

// GetPiglets returns the Piglets there are and the session's (pig).
func (c *Client) GetPiglets(ctx context.Context) (*Piglets, error) {
	return getAs[Piglets](ctx, c, "get_piglets", nil)
}

// SetPiglet switches the session to a Piglet (pig); refused while the agent runs.
func (c *Client) SetPiglet(ctx context.Context, name string) (*PigletSwitch, error) {
	return getAs[PigletSwitch](ctx, c, "set_piglet", map[string]any{"name": name})
}
