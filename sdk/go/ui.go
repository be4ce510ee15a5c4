package sdk

// UI is the user interface calls of a handler. Without a UI (print and JSON mode) dialogs
// return their defaults at once. Errors are the connection's, never "the user said no".
type UI struct{ c *Context }

// DialogOptions: Timeout (milliseconds) resolves the dialog to its default when it runs out.
type DialogOptions struct {
	Timeout int
}

func (u UI) dialog(method string, params map[string]any, opts []DialogOptions, result any) error {
	if !u.c.HasUI() {
		return nil
	}
	if len(opts) > 0 && opts[0].Timeout > 0 {
		params["timeout"] = opts[0].Timeout
	}
	return u.c.Call(method, params, result)
}

// Select asks to pick one of options; ok is false when nothing was picked.
func (u UI) Select(title string, options []string, opts ...DialogOptions) (value string, ok bool, err error) {
	var r struct {
		Value *string `json:"value"`
	}
	err = u.dialog("ui.select", map[string]any{"title": title, "options": options}, opts, &r)
	if r.Value == nil {
		return "", false, err
	}
	return *r.Value, true, err
}

// Confirm asks a yes/no question; false without a UI, on timeout or when declined.
func (u UI) Confirm(title, message string, opts ...DialogOptions) (bool, error) {
	var r struct {
		Confirmed bool `json:"confirmed"`
	}
	err := u.dialog("ui.confirm", map[string]any{"title": title, "message": message}, opts, &r)
	return r.Confirmed, err
}

// Input asks for a line of text; ok is false when cancelled.
func (u UI) Input(title, placeholder string, opts ...DialogOptions) (value string, ok bool, err error) {
	params := map[string]any{"title": title}
	if placeholder != "" {
		params["placeholder"] = placeholder
	}
	var r struct {
		Value *string `json:"value"`
	}
	err = u.dialog("ui.input", params, opts, &r)
	if r.Value == nil {
		return "", false, err
	}
	return *r.Value, true, err
}

// Editor opens a multi-line editor with prefill; ok is false when cancelled.
func (u UI) Editor(title, prefill string) (value string, ok bool, err error) {
	params := map[string]any{"title": title}
	if prefill != "" {
		params["prefill"] = prefill
	}
	var r struct {
		Value *string `json:"value"`
	}
	err = u.dialog("ui.editor", params, nil, &r)
	if r.Value == nil {
		return "", false, err
	}
	return *r.Value, true, err
}

// Notify shows a notice; kind is "info" (default), "warning" or "error".
func (u UI) Notify(message, kind string) error {
	params := map[string]any{"message": message}
	if kind != "" {
		params["type"] = kind
	}
	return u.c.Notify("ui.notify", params)
}

// SetStatus sets the status text under key ("" clears it).
func (u UI) SetStatus(key, text string) error {
	params := map[string]any{"key": key, "text": nil}
	if text != "" {
		params["text"] = text
	}
	return u.c.Notify("ui.setStatus", params)
}

// SetWidget shows lines under key (nil clears); placement is "aboveEditor" or "belowEditor" ("" for pig's default).
func (u UI) SetWidget(key string, lines []string, placement string) error {
	params := map[string]any{"key": key, "lines": lines}
	if placement != "" {
		params["placement"] = placement
	}
	return u.c.Notify("ui.setWidget", params)
}

// SetTitle sets the terminal title.
func (u UI) SetTitle(title string) error {
	return u.c.Notify("ui.setTitle", map[string]any{"title": title})
}

// SetEditorText replaces the text in the prompt editor.
func (u UI) SetEditorText(text string) error {
	return u.c.Notify("ui.setEditorText", map[string]any{"text": text})
}

// GetEditorText is the text in the prompt editor ("" without a UI).
func (u UI) GetEditorText() (string, error) {
	if !u.c.HasUI() {
		return "", nil
	}
	var r struct {
		Text string `json:"text"`
	}
	err := u.c.Call("ui.getEditorText", nil, &r)
	return r.Text, err
}
