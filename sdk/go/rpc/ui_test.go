package rpc

import (
	"context"
	"encoding/json"
	"testing"
)

// answerTo reads the client's lines until the extension_ui_response to id.
func (f *fakePig) answerTo(id string) map[string]any {
	f.t.Helper()
	for {
		m := f.next()
		if str(m["type"]) == "extension_ui_response" && str(m["id"]) == id {
			return canonical(f.t, m)
		}
	}
}

func TestDialogsAreAnsweredByTheirCallbacks(t *testing.T) {
	got := make(chan *UIRequest, 4)
	f := newFake(t, Options{UI: &UI{
		Select: func(ctx context.Context, r *UIRequest) (string, bool) {
			got <- r
			return r.Options[1], true
		},
		Confirm: func(ctx context.Context, r *UIRequest) bool { got <- r; return true },
		Input: func(ctx context.Context, r *UIRequest) (string, bool) {
			got <- r
			return "", false
		},
		Editor: func(ctx context.Context, r *UIRequest) (string, bool) { got <- r; return r.Prefill + "!", true },
	}})
	f.write(`{"type":"extension_ui_request","id":"u1","method":"select","title":"Pick","options":["a","b"],"timeout":60000}`)
	equal(t, f.answerTo("u1"), map[string]any{"type": "extension_ui_response", "id": "u1", "value": "b"})
	r := <-got
	equal(t, []any{r.ID, r.Method, r.Title, r.Options, r.Timeout}, []any{"u1", "select", "Pick", []string{"a", "b"}, int64(60000)})

	f.write(`{"type":"extension_ui_request","id":"u2","method":"confirm","title":"Sure?","message":"Really"}`)
	equal(t, f.answerTo("u2"), map[string]any{"type": "extension_ui_response", "id": "u2", "confirmed": true})
	r = <-got
	equal(t, []string{r.Title, r.Message}, []string{"Sure?", "Really"})

	f.write(`{"type":"extension_ui_request","id":"u3","method":"input","title":"Name?","placeholder":"a name"}`)
	equal(t, f.answerTo("u3"), map[string]any{"type": "extension_ui_response", "id": "u3", "cancelled": true})
	equal(t, (<-got).Placeholder, "a name")

	f.write(`{"type":"extension_ui_request","id":"u4","method":"editor","title":"Edit","prefill":"text"}`)
	equal(t, f.answerTo("u4"), map[string]any{"type": "extension_ui_response", "id": "u4", "value": "text!"})
	<-got
}

func TestWithoutCallbacksDialogsAreCancelledAndUnknownMethodsToo(t *testing.T) {
	f := newFake(t, Options{})
	for _, method := range []string{"select", "confirm", "input", "editor", "someday_dialog"} {
		f.writeJSON(map[string]any{"type": "extension_ui_request", "id": "d-" + method, "method": method, "title": "t"})
		equal(t, f.answerTo("d-"+method), map[string]any{"type": "extension_ui_response", "id": "d-" + method, "cancelled": true})
	}
}

func TestADialogWhoseTimeoutRanOutIsNotAnswered(t *testing.T) {
	release := make(chan struct{})
	f := newFake(t, Options{UI: &UI{
		Confirm: func(ctx context.Context, r *UIRequest) bool {
			if r.ID == "slow" {
				// pig has resolved the dialog to its default by the time ctx ends.
				<-ctx.Done()
				close(release)
			}
			return true
		},
	}})
	f.write(`{"type":"extension_ui_request","id":"slow","method":"confirm","title":"t","message":"m","timeout":1}`)
	<-release
	// The next answer the client writes is the next dialog's: none was sent for "slow".
	f.write(`{"type":"extension_ui_request","id":"fast","method":"confirm","title":"t","message":"m"}`)
	m := f.next()
	equal(t, canonical(t, m), map[string]any{"type": "extension_ui_response", "id": "fast", "confirmed": true})
}

func TestAnotherMethodGoesToOtherWhichMayAnswer(t *testing.T) {
	f := newFake(t, Options{UI: &UI{
		Other: func(ctx context.Context, r *UIRequest) *UIResponse {
			var extra struct {
				Question string `json:"question"`
			}
			_ = json.Unmarshal(r.Raw, &extra)
			v := "answer to " + extra.Question
			return &UIResponse{Value: &v}
		},
	}})
	f.write(`{"type":"extension_ui_request","id":"o1","method":"ask_later","question":"why"}`)
	equal(t, f.answerTo("o1"), map[string]any{"type": "extension_ui_response", "id": "o1", "value": "answer to why"})
}

func TestFireAndForgetRequestsReachTheirCallbacksInOrderAndAreNotAnswered(t *testing.T) {
	seen := make(chan string, 16)
	f := newFake(t, Options{UI: &UI{
		Notify: func(r *UIRequest) { seen <- "notify " + r.NotifyType + " " + r.Message },
		SetStatus: func(r *UIRequest) {
			if r.StatusText == nil {
				seen <- "status " + r.StatusKey + " cleared"
				return
			}
			seen <- "status " + r.StatusKey + " " + *r.StatusText
		},
		SetWidget: func(r *UIRequest) {
			if r.WidgetLines == nil {
				seen <- "widget " + r.WidgetKey + " cleared"
				return
			}
			seen <- "widget " + r.WidgetKey + " " + r.WidgetPlacement + " " + r.WidgetLines[0]
		},
		SetTitle:      func(r *UIRequest) { seen <- "title " + r.Title },
		SetEditorText: func(r *UIRequest) { seen <- "editor " + r.Text },
	}})
	ctx := ctxFor(t)
	f.write(`{"type":"extension_ui_request","id":"1","method":"notify","message":"hello","notifyType":"warning"}`)
	f.write(`{"type":"extension_ui_request","id":"2","method":"setStatus","statusKey":"k","statusText":"busy"}`)
	f.write(`{"type":"extension_ui_request","id":"3","method":"setStatus","statusKey":"k"}`)
	f.write(`{"type":"extension_ui_request","id":"4","method":"setWidget","widgetKey":"w","widgetLines":["line"],"widgetPlacement":"belowEditor"}`)
	f.write(`{"type":"extension_ui_request","id":"5","method":"setWidget","widgetKey":"w"}`)
	f.write(`{"type":"extension_ui_request","id":"6","method":"setTitle","title":"T"}`)
	f.write(`{"type":"extension_ui_request","id":"7","method":"set_editor_text","text":"draft"}`)
	var got []string
	for i := 0; i < 7; i++ {
		got = append(got, <-seen)
	}
	equal(t, got, []string{"notify warning hello", "status k busy", "status k cleared", "widget w belowEditor line", "widget w cleared", "title T", "editor draft"})
	// Nothing was written for them: the first line pig reads is the next command.
	done := async(func() error { return f.client.Abort(ctx) })
	f.respond(f.expect("abort"), nil)
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
}

func TestFireAndForgetRequestsWithoutCallbacksAreIgnored(t *testing.T) {
	notified := make(chan struct{})
	f := newFake(t, Options{UI: &UI{Notify: func(*UIRequest) { close(notified) }}})
	ctx := ctxFor(t)
	f.write(`{"type":"extension_ui_request","id":"1","method":"setTitle","title":"T"}`)
	f.write(`{"type":"extension_ui_request","id":"2","method":"setWidget","widgetKey":"w"}`)
	f.write(`{"type":"extension_ui_request","id":"3","method":"notify","message":"after them"}`)
	// They are handled in order: by the time the notice is shown, the two before it are done.
	<-notified
	done := async(func() error { return f.client.Abort(ctx) })
	f.respond(f.expect("abort"), nil)
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
}
