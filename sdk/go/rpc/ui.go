package rpc

import (
	"context"
	"encoding/json"
	"time"
)

// UI methods pig asks for (docs/rpc.md, "Extension UI"). The first four are dialogs that
// wait for an answer; the others expect none.
const (
	UISelect        = "select"
	UIConfirm       = "confirm"
	UIInput         = "input"
	UIEditor        = "editor"
	UINotify        = "notify"
	UISetStatus     = "setStatus"
	UISetWidget     = "setWidget"
	UISetTitle      = "setTitle"
	UISetEditorText = "set_editor_text"
)

// UIRequest is an extension_ui_request: an extension's handler asks the user something, or
// tells the client to show something. Which fields are set depends on Method.
type UIRequest struct {
	ID     string `json:"id"`
	Method string `json:"method"`
	// Title: select, confirm, input, editor and setTitle.
	Title string `json:"title"`
	// Options are select's choices.
	Options []string `json:"options"`
	// Message: confirm's question, notify's text.
	Message string `json:"message"`
	// Placeholder (input) and Prefill (editor) are "" when not given.
	Placeholder string `json:"placeholder"`
	Prefill     string `json:"prefill"`
	// Timeout is a dialog's time limit in milliseconds (0: none). pig enforces it: once it
	// runs out, the dialog resolves to its default and an answer is no longer read.
	Timeout int64 `json:"timeout"`
	// NotifyType is notify's kind: info, warning or error ("" when not given).
	NotifyType string `json:"notifyType"`
	// StatusKey and StatusText: setStatus; a nil StatusText clears the status.
	StatusKey  string  `json:"statusKey"`
	StatusText *string `json:"statusText"`
	// WidgetKey, WidgetLines and WidgetPlacement (aboveEditor or belowEditor): setWidget; nil
	// WidgetLines clears the widget.
	WidgetKey       string   `json:"widgetKey"`
	WidgetLines     []string `json:"widgetLines"`
	WidgetPlacement string   `json:"widgetPlacement"`
	// Text is set_editor_text's text.
	Text string          `json:"text"`
	Raw  json.RawMessage `json:"-"`
}

// uiItem carries a request through the queue of the in-order callbacks.
type uiItem struct{ r *UIRequest }

func (u uiItem) EventType() string        { return "extension_ui_request" }
func (u uiItem) RawJSON() json.RawMessage { return u.r.Raw }

// UIResponse answers a dialog: a Value (select, input, editor), Confirmed (confirm), or
// Cancelled.
type UIResponse struct {
	Value     *string
	Confirmed *bool
	Cancelled bool
}

// UI answers pig's extension UI requests. Any field may be nil: a dialog without a callback
// is answered "cancelled" at once (pig's extensions then take their default, as without a
// user), and a fire-and-forget request without one is ignored.
//
// Dialog callbacks each run on a goroutine of their own, with a ctx that ends at the dialog's
// timeout or when the client ends; an answer given after that is not sent. The other
// callbacks run on one goroutine, in the order pig sent the requests.
type UI struct {
	// Select returns the chosen option; ok false cancels.
	Select func(ctx context.Context, r *UIRequest) (choice string, ok bool)
	// Confirm returns the answer to a yes/no question.
	Confirm func(ctx context.Context, r *UIRequest) bool
	// Input returns a line of text; ok false cancels.
	Input func(ctx context.Context, r *UIRequest) (text string, ok bool)
	// Editor returns the edited text; ok false cancels. pig gives the editor no timeout.
	Editor func(ctx context.Context, r *UIRequest) (text string, ok bool)

	Notify        func(r *UIRequest)
	SetStatus     func(r *UIRequest)
	SetWidget     func(r *UIRequest)
	SetTitle      func(r *UIRequest)
	SetEditorText func(r *UIRequest)
	// Other gets the requests of methods this package does not know, on a goroutine of its
	// own; a non-nil answer is sent. Without it they are answered "cancelled" (pig ignores
	// an answer to a request that expects none).
	Other func(ctx context.Context, r *UIRequest) *UIResponse
}

func (c *Client) handleUI(line []byte) {
	r := &UIRequest{}
	if err := json.Unmarshal(line, r); err != nil || r.ID == "" {
		return
	}
	r.Raw = append(json.RawMessage(nil), line...)
	switch r.Method {
	case UINotify, UISetStatus, UISetWidget, UISetTitle, UISetEditorText:
		c.uiOrdered.push(item{ev: uiItem{r}})
	default:
		go c.answerDialog(r)
	}
}

// serveOrderedUI runs the fire-and-forget callbacks in order.
func (c *Client) serveOrderedUI() {
	for {
		it, ok := c.uiOrdered.pop(nil)
		if !ok {
			return
		}
		r := it.ev.(uiItem).r
		ui := c.opts.UI
		if ui == nil {
			continue
		}
		var fn func(*UIRequest)
		switch r.Method {
		case UINotify:
			fn = ui.Notify
		case UISetStatus:
			fn = ui.SetStatus
		case UISetWidget:
			fn = ui.SetWidget
		case UISetTitle:
			fn = ui.SetTitle
		case UISetEditorText:
			fn = ui.SetEditorText
		}
		if fn != nil {
			fn(r)
		}
	}
}

func (c *Client) answerDialog(r *UIRequest) {
	ctx, cancel := c.life, context.CancelFunc(func() {})
	if r.Timeout > 0 {
		ctx, cancel = context.WithTimeout(c.life, time.Duration(r.Timeout)*time.Millisecond)
	}
	defer cancel()
	answer := c.dialogAnswer(ctx, r)
	if answer == nil || ctx.Err() != nil {
		return
	}
	msg := map[string]any{"type": "extension_ui_response", "id": r.ID}
	switch {
	case answer.Cancelled:
		msg["cancelled"] = true
	case answer.Confirmed != nil:
		msg["confirmed"] = *answer.Confirmed
	case answer.Value != nil:
		msg["value"] = *answer.Value
	default:
		msg["cancelled"] = true
	}
	line, err := encodeLine(msg)
	if err != nil {
		return
	}
	_ = c.write(c.life, line)
}

var cancelled = &UIResponse{Cancelled: true}

func (c *Client) dialogAnswer(ctx context.Context, r *UIRequest) *UIResponse {
	ui := c.opts.UI
	if ui == nil {
		ui = &UI{}
	}
	text := func(fn func(context.Context, *UIRequest) (string, bool)) *UIResponse {
		if fn == nil {
			return cancelled
		}
		v, ok := fn(ctx, r)
		if !ok {
			return cancelled
		}
		return &UIResponse{Value: &v}
	}
	switch r.Method {
	case UISelect:
		return text(ui.Select)
	case UIInput:
		return text(ui.Input)
	case UIEditor:
		return text(ui.Editor)
	case UIConfirm:
		if ui.Confirm == nil {
			return cancelled
		}
		yes := ui.Confirm(ctx, r)
		return &UIResponse{Confirmed: &yes}
	default:
		if ui.Other == nil {
			return cancelled
		}
		return ui.Other(ctx, r)
	}
}
