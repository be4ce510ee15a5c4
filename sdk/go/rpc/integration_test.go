package rpc_test

// Tests against the real pig binary and a fake model. test/e2e/go-rpc.test.ts runs them
// (go test -run Integration) with the binary, an agent directory whose models point at the
// fake LLM server it started, and the server's script, whose answers are picked by the
// markers these prompts carry. Without PIG_RPC_TEST_BINARY they are skipped.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pig-coding-agent/pig/sdk/go/rpc"
)

type pigWorld struct {
	binary string
	cwd    string
	env    []string
}

func world(t *testing.T) pigWorld {
	t.Helper()
	binary := os.Getenv("PIG_RPC_TEST_BINARY")
	if binary == "" {
		t.Skip("PIG_RPC_TEST_BINARY is not set: test/e2e/go-rpc.test.ts runs these against the built pig")
	}
	var env map[string]string
	if err := json.Unmarshal([]byte(os.Getenv("PIG_RPC_TEST_ENV")), &env); err != nil {
		t.Fatalf("PIG_RPC_TEST_ENV must be a JSON object of strings: %v", err)
	}
	w := pigWorld{binary: binary, cwd: os.Getenv("PIG_RPC_TEST_CWD")}
	for k, v := range env {
		w.env = append(w.env, k+"="+v)
	}
	return w
}

// start runs pig in the world; it is killed after the test if it still runs.
func (w pigWorld) start(t *testing.T, opts rpc.Options) *rpc.Client {
	t.Helper()
	opts.Binary, opts.Env = w.binary, w.env
	if opts.Dir == "" {
		opts.Dir = w.cwd
	}
	c, err := rpc.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.ExitCode() == -1 {
			_ = c.Kill()
		}
		_ = c.Wait()
	})
	return c
}

func deadline(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// must(c.GetState(ctx))(t) is the state, or the test ends with the error.
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// until reads sub until an event for which match is true.
func until(t *testing.T, ctx context.Context, sub *rpc.Subscription, match func(rpc.Event) bool) rpc.Event {
	t.Helper()
	for {
		select {
		case ev, ok := <-sub.Events():
			if !ok {
				t.Fatal("the subscription ended first")
			}
			if match(ev) {
				return ev
			}
		case <-ctx.Done():
			t.Fatal("no such event")
		}
	}
}

func TestIntegrationPromptAndWaitReturnsTheAnswerAndItsEvents(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	var deltas strings.Builder
	rpc.On(c, func(e *rpc.MessageUpdateEvent) {
		if e.AssistantMessageEvent.Type == "text_delta" {
			deltas.WriteString(e.AssistantMessageEvent.Delta)
		}
	})
	res := must(c.PromptAndWait(ctx, "integration-answer: what is it?", nil))(t)
	if res.Text != "The answer is 42." || res.Message.StopReason != "stop" || res.Message.Provider != "fake" {
		t.Fatalf("answer %q, message %+v", res.Text, res.Message)
	}
	var types []string
	for _, ev := range res.Events {
		if _, unknown := ev.(*rpc.UnknownEvent); unknown {
			t.Fatalf("an event this package does not decode: %s", ev.RawJSON())
		}
		types = append(types, ev.EventType())
	}
	joined := strings.Join(types, " ")
	for _, want := range []string{"agent_start", "turn_start", "message_start", "message_update", "message_end", "turn_end", "agent_end"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("no %s among %s", want, joined)
		}
	}
	if types[len(types)-1] != "agent_settled" {
		t.Fatalf("the last event is %s", types[len(types)-1])
	}
	text, ok, err := c.GetLastAssistantText(ctx)
	check(t, err)
	if !ok || text != "The answer is 42." {
		t.Fatalf("last assistant text %q %v", text, ok)
	}
	state := must(c.GetState(ctx))(t)
	if state.IsStreaming || state.Model == nil || state.Model.ID != "fake-model" || state.SessionFile == "" {
		t.Fatalf("state %+v", state)
	}
	stats := must(c.GetSessionStats(ctx))(t)
	if stats.UserMessages != 1 || stats.AssistantMessages != 1 || stats.Tokens.Total == 0 {
		t.Fatalf("stats %+v", stats)
	}
	roles := []string{}
	for _, m := range must(c.GetMessages(ctx))(t) {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant" {
		t.Fatalf("roles %v", roles)
	}
	check(t, c.Close(ctx))
	// The callbacks saw the deltas (they run before the client ends).
	if deltas.String() != "The answer is 42." {
		t.Fatalf("deltas %q", deltas.String())
	}
	if c.ExitCode() != 0 {
		t.Fatalf("exit code %d", c.ExitCode())
	}
}

func TestIntegrationToolCallsAndUserBashStream(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	res := must(c.PromptAndWait(ctx, "integration-tool: run the echo", nil))(t)
	var start *rpc.ToolExecutionStartEvent
	var end *rpc.ToolExecutionEndEvent
	for _, ev := range res.Events {
		switch e := ev.(type) {
		case *rpc.ToolExecutionStartEvent:
			start = e
		case *rpc.ToolExecutionEndEvent:
			end = e
		}
	}
	if start == nil || start.ToolName != "bash" || !strings.Contains(string(start.Args), "echoed-by-bash") {
		t.Fatalf("tool start %+v", start)
	}
	if end == nil || end.IsError || strings.TrimSpace(end.Result.Text()) != "echoed-by-bash" || end.ToolCallID != start.ToolCallID {
		t.Fatalf("tool end %+v", end)
	}
	if res.Text != "The tool ran." {
		t.Fatalf("answer %q", res.Text)
	}
	roles := []string{}
	for _, m := range res.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,toolResult,assistant" {
		t.Fatalf("messages %v", roles)
	}

	var streamed strings.Builder
	out := must(c.Bash(ctx, "printf 'one\\ntwo\\n'; exit 3", &rpc.BashOptions{OnOutput: func(d string) { streamed.WriteString(d) }}))(t)
	if out.Output != "one\ntwo\n" || out.ExitCode == nil || *out.ExitCode != 3 || streamed.String() != out.Output {
		t.Fatalf("bash %+v, streamed %q", out, streamed.String())
	}
	check(t, c.Close(ctx))
}

func TestIntegrationExtensionUIRequestsReachTheCallbacks(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	demo, err := filepath.Abs(filepath.Join("..", "..", "..", "test", "fixtures", "extensions", "pi-examples", "rpc-demo.ts"))
	check(t, err)
	notices := make(chan string, 32)
	widget := make(chan []string, 4)
	status := make(chan string, 32)
	titles := make(chan string, 4)
	editorText := make(chan string, 4)
	ui := &rpc.UI{
		Select: func(ctx context.Context, r *rpc.UIRequest) (string, bool) {
			if r.Title != "Dangerous command: rm -rf ./nothing-here" || strings.Join(r.Options, "/") != "Allow/Block" {
				return "", false
			}
			return "Block", true
		},
		Confirm: func(ctx context.Context, r *rpc.UIRequest) bool {
			return !(r.Title == "Clear session?" && r.Message == "All messages will be lost.")
		},
		Input: func(ctx context.Context, r *rpc.UIRequest) (string, bool) {
			return "typed in Go (" + r.Title + ", " + r.Placeholder + ")", true
		},
		Editor: func(ctx context.Context, r *rpc.UIRequest) (string, bool) {
			return r.Prefill + "\nLine 4", true
		},
		Notify:        func(r *rpc.UIRequest) { notices <- r.NotifyType + ": " + r.Message },
		SetWidget:     func(r *rpc.UIRequest) { widget <- r.WidgetLines },
		SetStatus:     func(r *rpc.UIRequest) { status <- *r.StatusText },
		SetTitle:      func(r *rpc.UIRequest) { titles <- r.Title },
		SetEditorText: func(r *rpc.UIRequest) { editorText <- r.Text },
	}
	c := w.start(t, rpc.Options{Args: []string{"-e", demo}, UI: ui})
	recv := func(ch <-chan string) string {
		t.Helper()
		select {
		case s := <-ch:
			return s
		case <-ctx.Done():
			t.Fatal("no UI request came")
			return ""
		}
	}
	// session_start: title, widget, status.
	if title := recv(titles); !strings.HasPrefix(title, "pi RPC Demo") {
		t.Fatalf("title %q", title)
	}
	select {
	case lines := <-widget:
		if strings.Join(lines, "|") != "--- RPC Extension UI Demo ---|Loaded and ready." {
			t.Fatalf("widget %v", lines)
		}
	case <-ctx.Done():
		t.Fatal("no widget")
	}
	if s := recv(status); s != "Turns: 0" {
		t.Fatalf("status %q", s)
	}

	res := must(c.PromptAndWait(ctx, "/rpc-input", nil))(t)
	if res.Message != nil {
		t.Fatalf("an extension command started a run: %+v", res.Message)
	}
	if n := recv(notices); n != "info: You entered: typed in Go (Enter a value, type something...)" {
		t.Fatalf("notice %q", n)
	}
	must(c.PromptAndWait(ctx, "/rpc-editor", nil))(t)
	if n := recv(notices); n != "info: Editor submitted (4 lines)" {
		t.Fatalf("notice %q", n)
	}
	must(c.PromptAndWait(ctx, "/rpc-prefill", nil))(t)
	if s := recv(editorText); s != "This text was set by the rpc-demo extension." {
		t.Fatalf("editor text %q", s)
	}
	if n := recv(notices); n != "info: Editor prefilled" {
		t.Fatalf("notice %q", n)
	}

	// confirm: declining keeps the session.
	change := must(c.NewSession(ctx, ""))(t)
	if !change.Cancelled {
		t.Fatal("new_session went ahead though the confirm was declined")
	}
	if n := recv(notices); n != "info: Clear cancelled" {
		t.Fatalf("notice %q", n)
	}

	// select: the dangerous command is blocked by the answer.
	res = must(c.PromptAndWait(ctx, "integration-dangerous: clean up", nil))(t)
	var end *rpc.ToolExecutionEndEvent
	for _, ev := range res.Events {
		if e, ok := ev.(*rpc.ToolExecutionEndEvent); ok {
			end = e
		}
	}
	if end == nil || !end.IsError || !strings.Contains(end.Result.Text(), "Blocked by user") {
		t.Fatalf("tool end %+v", end)
	}
	if n := recv(notices); n != "warning: Command blocked by user" {
		t.Fatalf("notice %q", n)
	}
	check(t, c.Close(ctx))
}

// hangingPrompt runs a prompt the fake model never answers under promptCtx, and returns once
// its turn started: abort(c) then ends it; the result is PromptAndWait's.
func hangingPrompt(t *testing.T, ctx context.Context, c *rpc.Client, promptCtx context.Context, abort func()) (*rpc.PromptResult, error) {
	t.Helper()
	turns := c.Subscribe(rpc.EventTurnStart)
	defer turns.Close()
	type outcome struct {
		res *rpc.PromptResult
		err error
	}
	waited := make(chan outcome, 1)
	go func() {
		res, err := c.PromptAndWait(promptCtx, "integration-hang: never answered", nil)
		waited <- outcome{res, err}
	}()
	until(t, ctx, turns, func(rpc.Event) bool { return true })
	abort()
	got := <-waited
	return got.res, got.err
}

// expectRunOver checks that PromptAndWait returned after the run ended: the last event is
// agent_settled, the answer says aborted, and pig is idle.
func expectRunOver(t *testing.T, ctx context.Context, c *rpc.Client, res *rpc.PromptResult) {
	t.Helper()
	if res == nil || len(res.Events) == 0 || res.Events[len(res.Events)-1].EventType() != rpc.EventAgentSettled {
		t.Fatalf("the result does not end with the run: %+v", res)
	}
	if res.Message == nil || res.Message.StopReason != "aborted" {
		t.Fatalf("final answer %+v", res.Message)
	}
	if must(c.GetState(ctx))(t).IsStreaming {
		t.Fatal("the run goes on after PromptAndWait returned")
	}
}

func TestIntegrationCancellingThePromptsContextAbortsTheRun(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	promptCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	res, err := hangingPrompt(t, ctx, c, promptCtx, cancel)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, rpc.ErrAborted) {
		t.Fatalf("PromptAndWait: %v", err)
	}
	expectRunOver(t, ctx, c, res)
	// pig goes on: the next prompt is answered.
	if next := must(c.PromptAndWait(ctx, "integration-after-abort: still there?", nil))(t); next.Text != "Still here." {
		t.Fatalf("next answer %q", next.Text)
	}
	check(t, c.Close(ctx))
}

func TestIntegrationAPromptPastItsDeadlineIsAbortedWithTheDeadlineError(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	// The model never answers, so the deadline is what ends the run, however late it fires.
	promptCtx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	res, err := c.PromptAndWait(promptCtx, "integration-hang: too slow", nil)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, rpc.ErrAborted) {
		t.Fatalf("PromptAndWait: %v", err)
	}
	expectRunOver(t, ctx, c, res)
	check(t, c.Close(ctx))
}

func TestIntegrationARunAbortedBySomeoneElseIsErrAborted(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	res, err := hangingPrompt(t, ctx, c, ctx, func() { check(t, c.Abort(ctx)) })
	if !errors.Is(err, rpc.ErrAborted) || errors.Is(err, context.Canceled) || ctx.Err() != nil {
		t.Fatalf("PromptAndWait: %v", err)
	}
	var ce *rpc.CommandError
	if !errors.As(err, &ce) || ce.Command != "prompt" || err.Error() != "pig rpc prompt: the run was aborted" {
		t.Fatalf("error %#v", err)
	}
	expectRunOver(t, ctx, c, res)
	check(t, c.Close(ctx))
}

func TestIntegrationAKilledPigEndsEveryWaitAndCall(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	turns := c.Subscribe(rpc.EventTurnStart)
	events := c.Subscribe()
	waited := make(chan error, 1)
	go func() {
		_, err := c.PromptAndWait(ctx, "integration-hang: pig goes away", nil)
		waited <- err
	}()
	until(t, ctx, turns, func(rpc.Event) bool { return true })
	check(t, c.Kill())
	err := <-waited
	var exit *rpc.ExitError
	var ce *rpc.CommandError
	if !errors.As(err, &exit) || exit.Code != -1 || !errors.As(err, &ce) || ce.Command != "prompt" {
		t.Fatalf("PromptAndWait: %v", err)
	}
	// Every subscription ends too, and later calls fail at once.
	for range events.Events() {
	}
	if _, err := c.GetState(ctx); !errors.Is(err, rpc.ErrClosed) {
		t.Fatalf("a call after the end: %v", err)
	}
	if c.ExitCode() != -1 || !errors.As(c.Wait(), &exit) {
		t.Fatalf("exit code %d, Wait %v", c.ExitCode(), c.Wait())
	}
}

func TestIntegrationSIGTERMStopsTheRunThenPigExitsWith143(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	turns := c.Subscribe(rpc.EventTurnStart)
	type outcome struct {
		res *rpc.PromptResult
		err error
	}
	waited := make(chan outcome, 1)
	go func() {
		res, err := c.PromptAndWait(ctx, "integration-hang: asked to stop", nil)
		waited <- outcome{res, err}
	}()
	until(t, ctx, turns, func(rpc.Event) bool { return true })
	check(t, c.Signal(syscall.SIGTERM))
	// pig aborts the run first: the wait ends with the run, before pig exits.
	got := <-waited
	if !errors.Is(got.err, rpc.ErrAborted) || got.res.Events[len(got.res.Events)-1].EventType() != rpc.EventAgentSettled {
		t.Fatalf("PromptAndWait: %v", got.err)
	}
	var exit *rpc.ExitError
	if err := c.Wait(); !errors.As(err, &exit) || exit.Code != 143 {
		t.Fatalf("Wait: %v", err)
	}
}

func TestIntegrationSessionModelAndQueueCommands(t *testing.T) {
	w := world(t)
	ctx := deadline(t)
	c := w.start(t, rpc.Options{})
	names := c.Subscribe(rpc.EventSessionInfoChanged, rpc.EventThinkingLevelChanged)
	defer names.Close()
	must(c.PromptAndWait(ctx, "integration-first: one", nil))(t)
	must(c.PromptAndWait(ctx, "integration-second: two", nil))(t)
	first := must(c.GetState(ctx))(t)

	compactions := c.Subscribe(rpc.EventCompactionEnd)
	defer compactions.Close()
	compacted := must(c.Compact(ctx, "integration-compact"))(t)
	if compacted.Summary == "" || compacted.FirstKeptEntryID == "" || compacted.TokensBefore == 0 {
		t.Fatalf("compact %+v", compacted)
	}
	if e := until(t, ctx, compactions, func(rpc.Event) bool { return true }).(*rpc.CompactionEndEvent); e.Reason != "manual" || e.Result == nil || e.Result.Summary != compacted.Summary {
		t.Fatalf("compaction_end %s", e.RawJSON())
	}

	check(t, c.SetSessionName(ctx, "go session"))
	if e := until(t, ctx, names, func(e rpc.Event) bool { return e.EventType() == rpc.EventSessionInfoChanged }); e.(*rpc.SessionInfoChangedEvent).Name != "go session" {
		t.Fatalf("event %s", e.RawJSON())
	}
	if s := must(c.GetState(ctx))(t); s.SessionName != "go session" {
		t.Fatalf("name %q", s.SessionName)
	}

	models := must(c.GetAvailableModels(ctx))(t)
	ids := []string{}
	for _, m := range models {
		ids = append(ids, m.Provider+"/"+m.ID)
	}
	if strings.Join(ids, ",") != "fake/fake-model,fake/fake-reasoner" {
		t.Fatalf("models %v", ids)
	}
	if m := must(c.SetModel(ctx, "fake", "fake-reasoner"))(t); !m.Reasoning {
		t.Fatalf("set_model %+v", m)
	}
	levels := must(c.GetAvailableThinkingLevels(ctx))(t)
	if len(levels) < 2 || levels[0] != "off" {
		t.Fatalf("levels %v", levels)
	}
	check(t, c.SetThinkingLevel(ctx, rpc.ThinkingLow))
	if e := until(t, ctx, names, func(e rpc.Event) bool { return e.EventType() == rpc.EventThinkingLevelChanged }); e.(*rpc.ThinkingLevelChangedEvent).Level != "low" {
		t.Fatalf("event %s", e.RawJSON())
	}
	if level := must(c.CycleThinkingLevel(ctx))(t); level == "" || level == "low" {
		t.Fatalf("cycled to %q", level)
	}
	if cycled := must(c.CycleModel(ctx))(t); cycled == nil || cycled.Model.ID != "fake-model" {
		t.Fatalf("cycle_model %+v", cycled)
	}
	check(t, c.SetSteeringMode(ctx, rpc.QueueOneAtATime))
	check(t, c.SetFollowUpMode(ctx, rpc.QueueAll))
	check(t, c.SetAutoCompaction(ctx, false))
	check(t, c.SetAutoRetry(ctx, false))
	if s := must(c.GetState(ctx))(t); s.SteeringMode != "one-at-a-time" || s.FollowUpMode != "all" || s.AutoCompactionEnabled {
		t.Fatalf("state %+v", s)
	}
	check(t, c.Steer(ctx, "queued while idle"))
	q := must(c.ClearQueue(ctx))(t)
	if strings.Join(q.Steering, ",") != "queued while idle" {
		t.Fatalf("queues %+v", q)
	}
	check(t, c.AbortRetry(ctx))
	check(t, c.AbortCompaction(ctx))
	check(t, c.AbortBash(ctx))

	entries := must(c.GetEntries(ctx, ""))(t)
	if len(entries.Entries) == 0 || entries.LeafID != entries.Entries[len(entries.Entries)-1].ID {
		t.Fatalf("entries %d, leaf %q", len(entries.Entries), entries.LeafID)
	}
	later := must(c.GetEntries(ctx, entries.Entries[0].ID))(t)
	if len(later.Entries) != len(entries.Entries)-1 {
		t.Fatalf("since: %d entries", len(later.Entries))
	}
	var ce *rpc.CommandError
	if _, err := c.GetEntries(ctx, "no-such-entry"); !errors.As(err, &ce) || ce.Command != "get_entries" || !strings.Contains(ce.Message, "no-such-entry") {
		t.Fatalf("unknown since: %v", err)
	}
	forks := must(c.GetForkMessages(ctx))(t)
	if len(forks) != 2 || !strings.Contains(forks[1].Text, "integration-second") {
		t.Fatalf("fork messages %+v", forks)
	}
	check(t, c.SetLabel(ctx, forks[0].EntryID, "the start"))
	tree := must(c.GetTree(ctx))(t)
	var labelled *rpc.TreeNode
	var walk func(ns []*rpc.TreeNode)
	walk = func(ns []*rpc.TreeNode) {
		for _, n := range ns {
			if n.Entry.ID == forks[0].EntryID {
				labelled = n
			}
			walk(n.Children)
		}
	}
	walk(tree.Roots)
	if labelled == nil || labelled.Label != "the start" || tree.LeafID == "" {
		t.Fatalf("tree: labelled %+v, leaf %q", labelled, tree.LeafID)
	}
	// Back to the first prompt: the next one starts a second branch.
	nav := must(c.NavigateTree(ctx, forks[0].EntryID, nil))(t)
	if nav.Cancelled || !strings.Contains(nav.EditorText, "integration-first") {
		t.Fatalf("navigate %+v", nav)
	}

	html := filepath.Join(t.TempDir(), "session.html")
	if path := must(c.ExportHTML(ctx, html))(t); path != html {
		t.Fatalf("export path %q", path)
	}
	if data, err := os.ReadFile(html); err != nil || !strings.Contains(string(data), "<html") {
		t.Fatalf("the export: %v", err)
	}
	commands := must(c.GetCommands(ctx))(t)
	if commands == nil {
		t.Fatal("get_commands gave no list")
	}
	if exts := must(c.GetExtensions(ctx))(t); len(exts) != 0 {
		t.Fatalf("extensions %+v", exts)
	}
	if p := must(c.GetPiglets(ctx))(t); p.Current != "" {
		t.Fatalf("piglets %+v", p)
	}
	if _, err := c.SetPiglet(ctx, "no-such-piglet"); !errors.As(err, &ce) || ce.Command != "set_piglet" {
		t.Fatalf("set_piglet: %v", err)
	}

	fork := must(c.Fork(ctx, forks[1].EntryID))(t)
	if fork.Cancelled || !strings.Contains(fork.Text, "integration-second") {
		t.Fatalf("fork %+v", fork)
	}
	forked := must(c.GetState(ctx))(t)
	if forked.SessionFile == first.SessionFile {
		t.Fatal("fork stayed in the same file")
	}
	if sw := must(c.SwitchSession(ctx, first.SessionFile))(t); sw.Cancelled {
		t.Fatal("switch_session cancelled")
	}
	if s := must(c.GetState(ctx))(t); s.SessionFile != first.SessionFile {
		t.Fatalf("switched to %q", s.SessionFile)
	}
	if cl := must(c.Clone(ctx))(t); cl.Cancelled {
		t.Fatal("clone cancelled")
	}
	if ns := must(c.NewSession(ctx, ""))(t); ns.Cancelled {
		t.Fatal("new_session cancelled")
	}
	if s := must(c.GetState(ctx))(t); s.MessageCount != 0 || s.SessionID == first.SessionID {
		t.Fatalf("new session state %+v", s)
	}
	if _, err := c.Do(ctx, "no_such_command", nil); !errors.As(err, &ce) || ce.Message != "Unknown command: no_such_command" {
		t.Fatalf("unknown command: %v", err)
	}
	check(t, c.Close(ctx))
}
