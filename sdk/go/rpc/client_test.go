package rpc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestAnswersThatComeOutOfOrderReachTheirOwnCallers(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	var state *State
	var stats *SessionStats
	first := async(func() (err error) { state, err = f.client.GetState(ctx); return })
	a := f.expect("get_state")
	second := async(func() (err error) { stats, err = f.client.GetSessionStats(ctx); return })
	b := f.expect("get_session_stats")
	f.respond(b, map[string]any{"sessionId": "from-stats"})
	if err := await(t, second); err != nil {
		t.Fatal(err)
	}
	f.respond(a, map[string]any{"sessionId": "from-state"})
	if err := await(t, first); err != nil {
		t.Fatal(err)
	}
	equal(t, []string{state.SessionID, stats.SessionID}, []string{"from-state", "from-stats"})
}

func TestLinesOfManyMegabytesCRLFAndLineSeparatorsAreRead(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	sub := f.client.Subscribe()
	defer sub.Close()
	// Far over bufio.Scanner's 64 KB, and over this package's read buffer.
	big := strings.Repeat("x", 12<<20) + "\u2028é"
	var messages []Message
	done := async(func() (err error) { messages, err = f.client.GetMessages(ctx); return })
	cmd := f.expect("get_messages")
	f.write(`{"type":"session_info_changed","name":"a\u2028b"}` + "\r")
	f.respond(cmd, map[string]any{"messages": []any{map[string]any{"role": "user", "content": big}}})
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
	if len(messages) != 1 || messages[0].Text() != big {
		t.Fatalf("the long line came back as %d messages", len(messages))
	}
	ev := <-sub.Events()
	if e, ok := ev.(*SessionInfoChangedEvent); !ok || e.Name != "a\u2028b" {
		t.Fatalf("the event before it: %#v", ev)
	}
}

func TestALineOverMaxLineBytesEndsTheClient(t *testing.T) {
	f := newFake(t, Options{MaxLineBytes: 1 << 10})
	ctx := ctxFor(t)
	done := async(func() error { _, err := f.client.GetMessages(ctx); return err })
	cmd := f.expect("get_messages")
	go f.respond(cmd, map[string]any{"messages": []any{map[string]any{"role": "user", "content": strings.Repeat("y", 4<<10)}}})
	err := await(t, done)
	if !errors.Is(err, ErrLineTooLong) || !errors.Is(err, ErrClosed) {
		t.Fatalf("got %v", err)
	}
	<-f.client.Done()
	if !errors.Is(f.client.Wait(), ErrLineTooLong) {
		t.Fatalf("Wait: %v", f.client.Wait())
	}
}

// sampleEvents has a line of each event type pig writes, and what its decoding must give.
var sampleEvents = []struct {
	line  string
	check func(t *testing.T, ev Event)
}{
	{`{"type":"agent_start"}`, func(t *testing.T, ev Event) { _ = ev.(*AgentStartEvent) }},
	{`{"type":"turn_start"}`, func(t *testing.T, ev Event) { _ = ev.(*TurnStartEvent) }},
	{`{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","mimeType":"image/png","data":"AA"}],"timestamp":5}}`, func(t *testing.T, ev Event) {
		m := ev.(*MessageStartEvent).Message
		equal(t, []any{m.Role, m.Text(), m.Blocks()[1].MimeType, m.Timestamp}, []any{"user", "hi", "image/png", int64(5)})
	}},
	{`{"type":"message_update","usage":{"input":3,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":4,"cost":{"total":0}},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"he"}}`, func(t *testing.T, ev Event) {
		e := ev.(*MessageUpdateEvent)
		equal(t, []any{e.AssistantMessageEvent.Type, e.AssistantMessageEvent.Delta, e.Usage.TotalTokens}, []any{"text_delta", "he", int64(4)})
	}},
	{`{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}},"assistantMessageEvent":{"type":"toolcall_start","contentIndex":1,"id":"c1","toolName":"bash"}}`, func(t *testing.T, ev Event) {
		a := ev.(*MessageUpdateEvent).AssistantMessageEvent
		equal(t, []any{a.ContentIndex, a.ID, a.ToolName}, []any{1, "c1", "bash"})
	}},
	{`{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}},"assistantMessageEvent":{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}}}`, func(t *testing.T, ev Event) {
		tc := ev.(*MessageUpdateEvent).AssistantMessageEvent.ToolCall
		equal(t, []any{tc.Name, string(tc.Arguments)}, []any{"bash", `{"command":"ls"}`})
	}},
	{`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}}`, func(t *testing.T, ev Event) {
		m := ev.(*MessageEndEvent).Message
		equal(t, []any{m.Text(), m.StopReason, m.Usage.Output}, []any{"done", "stop", int64(2)})
	}},
	{`{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{"command":"ls"}}`, func(t *testing.T, ev Event) {
		e := ev.(*ToolExecutionStartEvent)
		equal(t, []any{e.ToolCallID, e.ToolName, string(e.Args)}, []any{"c1", "bash", `{"command":"ls"}`})
	}},
	{`{"type":"tool_execution_update","toolCallId":"c1","toolName":"bash","args":{},"partialResult":{"content":[{"type":"text","text":"1/2"}],"details":{"n":1}}}`, func(t *testing.T, ev Event) {
		e := ev.(*ToolExecutionUpdateEvent)
		equal(t, []any{e.PartialResult.Text(), string(e.PartialResult.Details)}, []any{"1/2", `{"n":1}`})
	}},
	{`{"type":"tool_execution_end","toolCallId":"c1","toolName":"bash","result":{"content":[{"type":"text","text":"out"}]},"isError":true}`, func(t *testing.T, ev Event) {
		e := ev.(*ToolExecutionEndEvent)
		equal(t, []any{e.Result.Text(), e.IsError}, []any{"out", true})
	}},
	{`{"type":"turn_end","message":{"role":"assistant","content":[]},"toolResults":[{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[],"isError":false}]}`, func(t *testing.T, ev Event) {
		e := ev.(*TurnEndEvent)
		equal(t, []any{e.Message.Role, len(e.ToolResults), e.ToolResults[0].ToolCallID}, []any{"assistant", 1, "c1"})
	}},
	{`{"type":"agent_end","messages":[{"role":"user","content":"q"},{"role":"assistant","content":[]}],"willRetry":true}`, func(t *testing.T, ev Event) {
		e := ev.(*AgentEndEvent)
		equal(t, []any{len(e.Messages), e.WillRetry}, []any{2, true})
	}},
	{`{"type":"agent_settled"}`, func(t *testing.T, ev Event) { _ = ev.(*AgentSettledEvent) }},
	{`{"type":"queue_update","steering":["s"],"followUp":[]}`, func(t *testing.T, ev Event) {
		e := ev.(*QueueUpdateEvent)
		equal(t, []any{e.Steering, e.FollowUp}, []any{[]string{"s"}, []string{}})
	}},
	{`{"type":"compaction_start","reason":"threshold"}`, func(t *testing.T, ev Event) { equal(t, ev.(*CompactionStartEvent).Reason, "threshold") }},
	{`{"type":"compaction_end","reason":"manual","result":{"summary":"S","firstKeptEntryId":"e1","tokensBefore":10},"aborted":false,"willRetry":false}`, func(t *testing.T, ev Event) {
		e := ev.(*CompactionEndEvent)
		equal(t, []any{e.Reason, e.Result.Summary, e.Aborted}, []any{"manual", "S", false})
	}},
	{`{"type":"compaction_end","reason":"overflow","aborted":true,"willRetry":false,"errorMessage":"stopped"}`, func(t *testing.T, ev Event) {
		e := ev.(*CompactionEndEvent)
		equal(t, []any{e.Result == nil, e.Aborted, e.ErrorMessage}, []any{true, true, "stopped"})
	}},
	{`{"type":"session_info_changed","name":"n"}`, func(t *testing.T, ev Event) { equal(t, ev.(*SessionInfoChangedEvent).Name, "n") }},
	{`{"type":"entry_appended","entry":{"type":"custom","id":"e9","parentId":"e8","customType":"k","data":{}}}`, func(t *testing.T, ev Event) {
		e := ev.(*EntryAppendedEvent).Entry
		equal(t, []any{e.Type, e.ID, e.ParentID}, []any{"custom", "e9", "e8"})
	}},
	{`{"type":"thinking_level_changed","level":"max"}`, func(t *testing.T, ev Event) { equal(t, ev.(*ThinkingLevelChangedEvent).Level, "max") }},
	{`{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"overloaded"}`, func(t *testing.T, ev Event) {
		e := ev.(*AutoRetryStartEvent)
		equal(t, []any{e.Attempt, e.MaxAttempts, e.DelayMs, e.ErrorMessage}, []any{1, 3, int64(2000), "overloaded"})
	}},
	{`{"type":"auto_retry_end","success":false,"attempt":3,"finalError":"gave up"}`, func(t *testing.T, ev Event) {
		e := ev.(*AutoRetryEndEvent)
		equal(t, []any{e.Success, e.Attempt, e.FinalError}, []any{false, 3, "gave up"})
	}},
	{`{"type":"summarization_retry_scheduled","attempt":1,"maxAttempts":2,"delayMs":5,"errorMessage":"e"}`, func(t *testing.T, ev Event) {
		equal(t, ev.(*SummarizationRetryScheduledEvent).MaxAttempts, 2)
	}},
	{`{"type":"summarization_retry_attempt_start","source":"compaction","reason":"threshold"}`, func(t *testing.T, ev Event) {
		e := ev.(*SummarizationRetryAttemptStartEvent)
		equal(t, []any{e.Source, e.Reason}, []any{"compaction", "threshold"})
	}},
	{`{"type":"summarization_retry_finished"}`, func(t *testing.T, ev Event) { _ = ev.(*SummarizationRetryFinishedEvent) }},
	{`{"type":"extension_error","extensionPath":"/e.ts","event":"tool_call","error":"boom","stack":"at x"}`, func(t *testing.T, ev Event) {
		e := ev.(*ExtensionErrorEvent)
		equal(t, []any{e.ExtensionPath, e.Event, e.Error, e.Stack}, []any{"/e.ts", "tool_call", "boom", "at x"})
	}},
	{`{"type":"prompt_error","error":"no key"}`, func(t *testing.T, ev Event) { equal(t, ev.(*PromptErrorEvent).Error, "no key") }},
	{`{"type":"bash_execution_update","id":"other","delta":"out"}`, func(t *testing.T, ev Event) {
		e := ev.(*BashExecutionUpdateEvent)
		equal(t, []any{e.ID, e.Delta}, []any{"other", "out"})
	}},
	{`{"type":"something_new","x":1}`, func(t *testing.T, ev Event) {
		e := ev.(*UnknownEvent)
		equal(t, []any{e.Type, string(e.Raw), e.DecodeError}, []any{"something_new", `{"type":"something_new","x":1}`, nil})
	}},
	{`{"type":"message_end","message":"not an object"}`, func(t *testing.T, ev Event) {
		e := ev.(*UnknownEvent)
		if e.Type != "message_end" || e.DecodeError == nil {
			t.Fatalf("%#v", e)
		}
	}},
}

func TestEveryEventTypeIsDecodedAndUnknownOnesArriveRaw(t *testing.T) {
	f := newFake(t, Options{})
	sub := f.client.Subscribe()
	defer sub.Close()
	for _, s := range sampleEvents {
		f.write(s.line)
	}
	for _, s := range sampleEvents {
		ev := <-sub.Events()
		if string(ev.RawJSON()) != s.line {
			t.Fatalf("raw %s, want %s", ev.RawJSON(), s.line)
		}
		t.Run(ev.EventType(), func(t *testing.T) { s.check(t, ev) })
	}
}

func TestSubscriptionsFilterByTypeAndCallbacksRunInOrderAndMayCallTheClient(t *testing.T) {
	var fromStart []string
	seen := make(chan string, 16)
	f := newFake(t, Options{OnEvent: func(ev Event) { fromStart = append(fromStart, ev.EventType()) }})
	ctx := ctxFor(t)
	ends := f.client.Subscribe(EventAgentEnd, EventAgentSettled)
	defer ends.Close()
	remove := On(f.client, func(e *TurnStartEvent) {
		// A callback may wait for the client: callbacks do not run on the reading goroutine.
		s, err := f.client.GetState(ctx)
		if err != nil {
			seen <- "error: " + err.Error()
			return
		}
		seen <- "turn_start then state " + s.SessionID
	})
	On(f.client, func(e *UnknownEvent) { seen <- "unknown " + e.Type })
	f.write(`{"type":"agent_start"}`)
	f.write(`{"type":"turn_start"}`)
	f.respond(f.expect("get_state"), map[string]any{"sessionId": "s1"})
	f.write(`{"type":"brand_new"}`)
	f.write(`{"type":"agent_end","messages":[],"willRetry":false}`)
	f.write(`{"type":"agent_settled"}`)
	equal(t, []string{<-seen, <-seen}, []string{"turn_start then state s1", "unknown brand_new"})
	equal(t, []string{(<-ends.Events()).EventType(), (<-ends.Events()).EventType()}, []string{"agent_end", "agent_settled"})
	remove()
	f.write(`{"type":"turn_start"}`)
	f.write(`{"type":"marker"}`)
	equal(t, <-seen, "unknown marker")
	// The callbacks saw the events in pig's order; OnEvent from Options saw them all.
	f.crash()
	<-f.client.Done()
	<-f.client.dispatched
	equal(t, fromStart, []string{"agent_start", "turn_start", "brand_new", "agent_end", "agent_settled", "turn_start", "marker"})
}

// run writes the lines of a run that answers text.
func (f *fakePig) run(text string) {
	f.write(`{"type":"agent_start"}`)
	f.write(`{"type":"turn_start"}`)
	f.write(`{"type":"message_start","message":{"role":"user","content":"q"}}`)
	f.write(`{"type":"message_end","message":{"role":"user","content":"q"}}`)
	f.write(`{"type":"message_update","usage":{},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"` + text + `"}}`)
	f.write(`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"` + text + `"}],"stopReason":"stop"}}`)
	f.write(`{"type":"turn_end","message":{"role":"assistant","content":[{"type":"text","text":"` + text + `"}]},"toolResults":[]}`)
	f.write(`{"type":"agent_end","messages":[],"willRetry":false}`)
}

func TestPromptAndWaitWaitsForAgentSettledAndReturnsTheFinalAnswer(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	var res *PromptResult
	done := async(func() (err error) { res, err = f.client.PromptAndWait(ctx, "q", nil); return })
	f.respond(f.expect("prompt"), nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": true})
	f.run("first try")
	// A retry follows the first agent_end: the wait goes on to agent_settled.
	f.write(`{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":0,"errorMessage":"x"}`)
	f.run("the answer")
	f.write(`{"type":"auto_retry_end","success":true,"attempt":1}`)
	f.write(`{"type":"agent_settled"}`)
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
	equal(t, []any{res.Text, res.Message.Role, len(res.Messages), len(res.Events), res.Events[len(res.Events)-1].EventType()},
		[]any{"the answer", "assistant", 4, 19, "agent_settled"})
	if f.client.waiterCount() != 0 {
		t.Fatal("the waiter is left behind")
	}
}

func TestPromptAndWaitOfARunThatEndedBeforeTheStateReturnsThen(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	var res *PromptResult
	done := async(func() (err error) { res, err = f.client.PromptAndWait(ctx, "q", nil); return })
	f.respond(f.expect("prompt"), nil)
	f.run("quick")
	f.write(`{"type":"agent_settled"}`)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": false})
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
	equal(t, res.Text, "quick")
}

func TestPromptAndWaitOfAPromptThatStartedNoRunReturnsWhenPigIsIdle(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	var res *PromptResult
	done := async(func() (err error) { res, err = f.client.PromptAndWait(ctx, "/words a b", nil); return })
	cmd := f.expect("prompt")
	f.write(`{"type":"extension_error","extensionPath":"/x","event":"command","error":"e"}`)
	f.respond(cmd, nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": false})
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
	equal(t, []any{res.Message == nil, res.Text, len(res.Events)}, []any{true, "", 1})
}

func TestPromptAndWaitReportsARefusalAFailureAfterAcceptanceAndAnErroredAnswer(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	var ce *CommandError

	done := async(func() error { _, err := f.client.PromptAndWait(ctx, "q", nil); return err })
	f.refuse(f.expect("prompt"), "Agent is already processing.")
	if err := await(t, done); !errors.As(err, &ce) || ce.Message != "Agent is already processing." {
		t.Fatalf("refusal: %v", err)
	}

	done = async(func() error { _, err := f.client.PromptAndWait(ctx, "q", nil); return err })
	f.respond(f.expect("prompt"), nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": true})
	f.write(`{"type":"agent_start"}`)
	f.write(`{"type":"agent_end","messages":[],"willRetry":false}`)
	f.write(`{"type":"agent_settled"}`)
	f.write(`{"type":"prompt_error","error":"No API key for fake"}`)
	// The prompt_error comes after agent_settled: the wait has ended already, and it is not
	// this prompt's. A prompt_error inside the run is.
	if err := await(t, done); err != nil {
		t.Fatalf("a later prompt_error was taken for this prompt's: %v", err)
	}

	var res *PromptResult
	done = async(func() (err error) { res, err = f.client.PromptAndWait(ctx, "q", nil); return })
	f.respond(f.expect("prompt"), nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": true})
	f.write(`{"type":"agent_start"}`)
	f.write(`{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"error","errorMessage":"429 rate limited"}}`)
	f.write(`{"type":"prompt_error","error":"429 rate limited"}`)
	f.write(`{"type":"agent_settled"}`)
	if err := await(t, done); !errors.As(err, &ce) || ce.Command != "prompt" || ce.Message != "429 rate limited" || res == nil || res.Message.StopReason != "error" {
		t.Fatalf("errored answer: %v, %#v", err, res)
	}
}

func TestAPigThatDiesEndsEveryCallWaiterAndSubscription(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	sub := f.client.Subscribe()
	state := async(func() error { _, err := f.client.GetState(ctx); return err })
	f.expect("get_state")
	prompt := async(func() error { _, err := f.client.PromptAndWait(ctx, "q", nil); return err })
	f.respond(f.expect("prompt"), nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": true})
	f.write(`{"type":"agent_start"}`)
	bash := async(func() error {
		_, err := f.client.Bash(ctx, "sleep 100", &BashOptions{OnOutput: func(string) {}})
		return err
	})
	f.expect("bash")
	f.crash()
	for name, ch := range map[string]<-chan error{"get_state": state, "prompt": prompt, "bash": bash} {
		err := await(t, ch)
		var ce *CommandError
		if !errors.Is(err, ErrClosed) || !errors.As(err, &ce) || ce.Command != name {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// The subscription has what came before the end, then its channel closes.
	if ev := <-sub.Events(); ev.EventType() != "agent_start" {
		t.Fatalf("first event %v", ev)
	}
	if _, open := <-sub.Events(); open {
		t.Fatal("the subscription is still open")
	}
	// Later calls fail at once, naming the command.
	_, err := f.client.GetMessages(ctx)
	if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "get_messages") {
		t.Fatalf("a call after the end: %v", err)
	}
	if f.client.pendingCount() != 0 || f.client.waiterCount() != 0 {
		t.Fatal("calls are left pending")
	}
	if err := f.client.Wait(); err != nil {
		t.Fatalf("an attached client whose output ended cleanly: %v", err)
	}
}

func TestACancelledContextEndsTheWaitAndTheLateAnswerIsDropped(t *testing.T) {
	f := newFake(t, Options{})
	ctx, cancel := context.WithCancel(ctxFor(t))
	sub := f.client.Subscribe()
	defer sub.Close()
	done := async(func() error { _, err := f.client.Compact(ctx, ""); return err })
	cmd := f.expect("compact")
	cancel()
	if err := await(t, done); err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled itself", err)
	}
	if f.client.pendingCount() != 0 {
		t.Fatal("the cancelled call is still pending")
	}
	f.respond(cmd, map[string]any{"summary": "late"})
	if ev := (<-sub.Events()).(*UnknownEvent); ev.Type != "response" || !strings.Contains(string(ev.Raw), "late") {
		t.Fatalf("the late answer: %#v", ev)
	}
	// The client goes on.
	fresh := ctxFor(t)
	next := async(func() error { _, err := f.client.GetState(fresh); return err })
	f.respond(f.expect("get_state"), map[string]any{})
	if err := await(t, next); err != nil {
		t.Fatal(err)
	}
}

func TestACancelledPromptAndWaitAbortsTheRunWaitsForItsEndAndLeavesNoWaiter(t *testing.T) {
	f := newFake(t, Options{})
	ctx, cancel := context.WithCancel(ctxFor(t))
	var res *PromptResult
	done := async(func() (err error) { res, err = f.client.PromptAndWait(ctx, "q", nil); return err })
	f.respond(f.expect("prompt"), nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": true})
	f.write(`{"type":"agent_start"}`)
	cancel()
	// The client stops the run, and waits for its end.
	f.respond(f.expect("abort"), nil)
	f.write(`{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"aborted"}}`)
	f.write(`{"type":"agent_end","messages":[]}`)
	f.write(`{"type":"agent_settled"}`)
	err := await(t, done)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrAborted) {
		t.Fatalf("got %v", err)
	}
	equal(t, err.Error(), "pig rpc prompt: the run was aborted: context canceled")
	if res == nil || res.Message == nil || res.Message.StopReason != "aborted" || len(res.Events) != 4 {
		t.Fatalf("result %+v", res)
	}
	if f.client.waiterCount() != 0 || f.client.pendingCount() != 0 {
		t.Fatal("the cancelled wait left state behind")
	}
}

func TestACancelledPromptAndWaitGivesUpOnAPigThatDoesNotEndTheRun(t *testing.T) {
	saved := abortGrace
	abortGrace = 50 * time.Millisecond
	t.Cleanup(func() { abortGrace = saved })
	f := newFake(t, Options{})
	ctx, cancel := context.WithCancel(ctxFor(t))
	done := async(func() error { _, err := f.client.PromptAndWait(ctx, "q", nil); return err })
	f.respond(f.expect("prompt"), nil)
	f.respond(f.expect("get_state"), map[string]any{"isStreaming": true})
	cancel()
	// abort is sent and never answered: the wait ends after the grace period all the same.
	f.expect("abort")
	if err := await(t, done); !errors.Is(err, context.Canceled) || !errors.Is(err, ErrAborted) {
		t.Fatalf("got %v", err)
	}
}

func TestAPromptWhoseContextIsDoneIsNotSent(t *testing.T) {
	f := newFake(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.client.PromptAndWait(ctx, "q", nil); !errors.Is(err, context.Canceled) || errors.Is(err, ErrAborted) {
		t.Fatalf("got %v", err)
	}
	live := ctxFor(t)
	next := async(func() error { _, err := f.client.GetState(live); return err })
	f.respond(f.expect("get_state"), map[string]any{})
	if err := await(t, next); err != nil {
		t.Fatal(err)
	}
}

func TestACommandWhoseContextIsDoneIsNotSent(t *testing.T) {
	f := newFake(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.client.Abort(ctx); err != context.Canceled {
		t.Fatalf("got %v", err)
	}
	live := ctxFor(t)
	done := async(func() error { return f.client.AbortBash(live) })
	// The first line pig sees is the later command.
	f.respond(f.expect("abort_bash"), nil)
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
}

func TestBashOutputReachesOnOutputInOrderBeforeBashReturns(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	var out []string
	var res *BashResult
	done := async(func() (err error) {
		res, err = f.client.Bash(ctx, "seq 3", &BashOptions{OnOutput: func(d string) { out = append(out, d) }})
		return
	})
	cmd := f.expect("bash")
	for _, d := range []string{"1\n", "2\n", "3\n"} {
		f.writeJSON(map[string]any{"type": "bash_execution_update", "id": cmd["id"], "delta": d})
	}
	f.writeJSON(map[string]any{"type": "bash_execution_update", "id": "someone-else", "delta": "not ours"})
	f.respond(cmd, map[string]any{"output": "1\n2\n3\n", "exitCode": 0, "cancelled": false, "truncated": false})
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
	equal(t, []any{out, res.Output, *res.ExitCode}, []any{[]string{"1\n", "2\n", "3\n"}, "1\n2\n3\n", 0})
}

func TestATreeDeeperThanEncodingJSONsNestingLimitIsDecoded(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	const depth = 25000
	var b strings.Builder
	b.WriteString(`{"tree":[`)
	for i := 0; i < depth; i++ {
		parent := "null"
		if i > 0 {
			parent = fmt.Sprintf(`"e%d"`, i-1)
		}
		fmt.Fprintf(&b, `{"entry":{"type":"message","id":"e%d","parentId":%s,"message":{"role":"user","content":"m%d"}},"children":[`, i, parent, i)
	}
	for i := 0; i < depth; i++ {
		b.WriteString(`]}`)
	}
	fmt.Fprintf(&b, `],"leafId":"e%d"}`, depth-1)
	var tree *Tree
	done := async(func() (err error) { tree, err = f.client.GetTree(ctx); return })
	f.respondRaw(f.expect("get_tree"), b.String())
	if err := await(t, done); err != nil {
		t.Fatal(err)
	}
	n, count := tree.Roots[0], 1
	for len(n.Children) == 1 {
		n = n.Children[0]
		count++
	}
	equal(t, []any{count, n.Entry.ID, n.Entry.ParentID, n.Entry.Message.Text(), tree.LeafID}, []any{depth, "e24999", "e24998", "m24999", "e24999"})
}

func TestStartRunsTheBinaryWithArgsDirAndEnvAndReportsItsExit(t *testing.T) {
	dir := t.TempDir()
	c, err := Start(Options{
		Binary: os.Args[0],
		Args:   []string{"--session", "x.jsonl"},
		Dir:    dir,
		Env:    append(os.Environ(), "PIG_RPC_FAKE_PROCESS=1", "PIG_RPC_FAKE_NAME=env-passed"),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	state, err := c.GetState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, []string{state.SessionID, state.SessionFile, state.SessionName}, []string{"--mode rpc --session x.jsonl", dir, "env-passed"})
	if c.PID() <= 0 || c.ExitCode() != -1 {
		t.Fatalf("pid %d, exit code %d while running", c.PID(), c.ExitCode())
	}
	if err := c.Close(ctx); err != nil {
		t.Fatalf("Close after a clean exit: %v", err)
	}
	equal(t, c.ExitCode(), 0)
}

func TestAStartedPigThatExitsEndsPendingCallsWithItsCodeAndStderr(t *testing.T) {
	var stderr strings.Builder
	c, err := Start(Options{Binary: os.Args[0], Env: append(os.Environ(), "PIG_RPC_FAKE_PROCESS=1"), Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	hang := async(func() error { _, err := c.Do(ctx, "hang", nil); return err })
	_, err = c.Do(ctx, "exit", map[string]any{"code": 3, "message": "pig: fatal: out of cheese"})
	for _, err := range []error{err, await(t, hang)} {
		var exit *ExitError
		if !errors.As(err, &exit) || exit.Code != 3 || !strings.Contains(exit.Stderr, "out of cheese") || !errors.Is(err, ErrClosed) {
			t.Fatalf("got %v", err)
		}
		if !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "out of cheese") {
			t.Fatalf("message %q", err.Error())
		}
	}
	var exit *ExitError
	if err := c.Wait(); !errors.As(err, &exit) || exit.Code != 3 {
		t.Fatalf("Wait: %v", err)
	}
	if !strings.Contains(stderr.String(), "out of cheese") {
		t.Fatalf("Options.Stderr got %q", stderr.String())
	}
}

func TestAKilledPigEndsItsPendingCalls(t *testing.T) {
	c, err := Start(Options{Binary: os.Args[0], Env: append(os.Environ(), "PIG_RPC_FAKE_PROCESS=1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	hang := async(func() error { _, err := c.Do(ctx, "hang", nil); return err })
	// Killed once the call is on its way: the fake has read it when it answers a later one.
	if _, err := c.GetState(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	var exit *ExitError
	if err := await(t, hang); !errors.As(err, &exit) || exit.Code != -1 || !strings.Contains(exit.State, "killed") {
		t.Fatalf("got %v", err)
	}
	equal(t, c.ExitCode(), -1)
}

func TestCloseKillsAPigThatDoesNotExitBeforeItsContextEnds(t *testing.T) {
	c, err := Start(Options{Binary: os.Args[0], Env: append(os.Environ(), "PIG_RPC_FAKE_PROCESS=1", "PIG_RPC_FAKE_LINGER=1")})
	if err != nil {
		t.Fatal(err)
	}
	over, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Close(over); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("Close: %v", err)
	}
	var exit *ExitError
	if err := c.Wait(); !errors.As(err, &exit) || !strings.Contains(exit.State, "killed") {
		t.Fatalf("Wait: %v", err)
	}
}

func TestAPigThatLeftAProcessHoldingItsPipesStillEndsTheClient(t *testing.T) {
	c, err := Start(Options{Binary: os.Args[0], Env: append(os.Environ(), "PIG_RPC_FAKE_PROCESS=1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	_, err = c.Do(ctx, "orphan", nil)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 5 {
		t.Fatalf("got %v", err)
	}
	var orphan int
	if _, scanErr := fmt.Sscanf(strings.TrimSpace(exit.Stderr), "orphan %d", &orphan); scanErr != nil {
		t.Fatalf("stderr %q: %v", exit.Stderr, scanErr)
	}
	if p, err := os.FindProcess(orphan); err == nil {
		_ = p.Kill()
		_, _ = p.Wait()
	}
}

func TestStartingAMissingBinaryIsAnError(t *testing.T) {
	_, err := Start(Options{Binary: "/nonexistent/pig"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/pig") {
		t.Fatalf("got %v", err)
	}
}
