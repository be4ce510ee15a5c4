package sdk

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func params(t *testing.T, f map[string]json.RawMessage) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(f["params"], &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func result(t *testing.T, f map[string]json.RawMessage) map[string]any {
	t.Helper()
	if f["error"] != nil {
		t.Fatalf("error answer: %s", f["error"])
	}
	var r map[string]any
	if err := json.Unmarshal(f["result"], &r); err != nil {
		t.Fatalf("result %s: %v", f["result"], err)
	}
	return r
}

func TestHandshakeRegistersWhatSetupDeclared(t *testing.T) {
	h := startHost(t, func(x *Extension) {
		x.RegisterTool(Tool{Name: "shout", Description: "Upper-cases", Parameters: json.RawMessage(`{"type":"object"}`)})
		x.RegisterCommand(Command{Name: "hi", Description: "greets", Run: func(*Context, string) error { return nil }, Complete: func(string) []Completion { return nil }})
		x.RegisterFlag(Flag{Name: "plan", Description: "plan mode"})
		x.OnToolCall(func(*Context, ToolCallEvent) (ToolCallResult, error) { return ToolCallResult{}, nil })
		x.On("agent_end", func(*Context, Event) (any, error) { return nil, nil })
	}, nil, nil)
	init := params(t, h.waitFor(t, func(f map[string]json.RawMessage) bool { return method(f) == "initialize" }))
	if init["token"] != "secret" || init["pid"] == nil || init["protocols"].([]any)[0] != "pig-ext/1" {
		t.Fatalf("initialize params: %v", init)
	}
	reg := params(t, h.waitFor(t, func(f map[string]json.RawMessage) bool { return method(f) == "register" }))
	if reg["extension"] != "/ext/go/pig-extension.json" {
		t.Fatalf("register names %v", reg["extension"])
	}
	if got := reg["tools"].([]any)[0].(map[string]any)["name"]; got != "shout" {
		t.Fatalf("tool %v", got)
	}
	if c := reg["commands"].([]any)[0].(map[string]any); c["hasCompletions"] != true {
		t.Fatalf("command %v", c)
	}
	if ev := reg["events"].([]any); len(ev) != 2 || ev[0] != "tool_call" || ev[1] != "agent_end" {
		t.Fatalf("events %v", ev)
	}
	if f := reg["flags"].([]any)[0].(map[string]any); f["type"] != "boolean" {
		t.Fatalf("flag %v", f)
	}
}

func TestPingIsAnsweredWhileAToolIsBusyAndCancelEndsIt(t *testing.T) {
	started := make(chan struct{})
	h := startHost(t, func(x *Extension) {
		x.RegisterTool(Tool{Name: "wait", Execute: func(c *ToolContext, args json.RawMessage) (ToolResult, error) {
			if err := c.Progress([]Content{Text("waiting")}, nil); err != nil {
				return ToolResult{}, err
			}
			close(started)
			<-c.Done()
			return ToolResult{Content: []Content{Text("stopped")}}, nil
		}})
	}, nil, nil)
	call := h.request("tool.execute", map[string]any{"extension": "/ext/go/pig-extension.json", "name": "wait", "toolCallId": "c1", "args": map[string]any{}})
	<-started
	progress := params(t, h.waitFor(t, func(f map[string]json.RawMessage) bool { return method(f) == "$/progress" }))
	if mustJSON(progress["id"]) != call || !strings.Contains(mustJSON(progress["value"]), "waiting") {
		t.Fatalf("progress %v", progress)
	}
	ping := h.request("ping", nil)
	if r := result(t, h.answerTo(t, ping)); len(r) != 0 {
		t.Fatalf("ping answered %v", r)
	}
	h.notify("$/cancel", map[string]any{"id": json.RawMessage(call)})
	answer := h.answerTo(t, call)
	var e RPCError
	if err := json.Unmarshal(answer["error"], &e); err != nil || e.Code != CodeCancelled {
		t.Fatalf("cancelled tool answered %s %s", answer["result"], answer["error"])
	}
}

func mustJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func TestToolErrorsBecomeErrorResultsAndPanicsDoNotKillTheProcess(t *testing.T) {
	h := startHost(t, func(x *Extension) {
		x.RegisterTool(Tool{Name: "fail", Execute: func(*ToolContext, json.RawMessage) (ToolResult, error) {
			return ToolResult{}, errors.New("no such file")
		}})
		x.RegisterTool(Tool{Name: "boom", Execute: func(*ToolContext, json.RawMessage) (ToolResult, error) { panic("boom") }})
	}, nil, nil)
	for _, name := range []string{"fail", "boom"} {
		id := h.request("tool.execute", map[string]any{"extension": "x", "name": name, "toolCallId": "c", "args": map[string]any{}})
		r := result(t, h.answerTo(t, id))
		if r["isError"] != true || !strings.Contains(mustJSON(r["content"]), map[string]string{"fail": "no such file", "boom": "panicked: boom"}[name]) {
			t.Fatalf("%s answered %v", name, r)
		}
	}
}

func TestToolCallChainBlocksAndAFailingHandlerBlocks(t *testing.T) {
	h := startHost(t, func(x *Extension) {
		x.OnToolCall(func(c *Context, e ToolCallEvent) (ToolCallResult, error) {
			if e.ToolName == "read" {
				return ToolCallResult{Input: json.RawMessage(`{"path":"other.txt"}`)}, nil
			}
			return ToolCallResult{}, nil
		})
		x.OnToolCall(func(c *Context, e ToolCallEvent) (ToolCallResult, error) {
			if e.ToolName == "bash" {
				return ToolCallResult{Block: true, Reason: "no bash"}, nil
			}
			if e.ToolName == "write" {
				return ToolCallResult{}, errors.New("cannot decide")
			}
			if e.ToolName == "read" && string(e.Input) != `{"path":"other.txt"}` {
				t.Errorf("the second handler saw %s", e.Input)
			}
			return ToolCallResult{}, nil
		})
	}, nil, nil)
	ask := func(tool string) map[string]json.RawMessage {
		id := h.request("event", map[string]any{"extension": "x", "event": "tool_call", "payload": map[string]any{"toolCallId": "1", "toolName": tool, "input": map[string]any{"path": "a"}}})
		return h.answerTo(t, id)
	}
	if r := result(t, ask("bash")); r["block"] != true || r["reason"] != "no bash" {
		t.Fatalf("bash: %v", r)
	}
	if r := result(t, ask("read")); mustJSON(r) != `{"input":{"path":"other.txt"}}` {
		t.Fatalf("read: %v", r)
	}
	if f := ask("write"); f["error"] == nil || !strings.Contains(string(f["error"]), "cannot decide") {
		t.Fatalf("write: %s %s", f["result"], f["error"])
	}
	if f := ask("ls"); string(f["result"]) != "null" {
		t.Fatalf("ls: %s", f["result"])
	}
}

func TestEventsWithoutHandlersAndTypedResults(t *testing.T) {
	h := startHost(t, func(x *Extension) {
		x.OnInput(func(c *Context, e InputEvent) (InputResult, error) {
			return InputResult{Action: "transform", Text: strings.ToUpper(e.Text)}, nil
		})
		x.OnBoundary("turn_end", func(c *Context, e BoundaryEvent) (BoundaryResult, error) {
			entries := []any{}
			for _, d := range e.Entries {
				entries = append(entries, d)
			}
			return BoundaryResult{Entries: append(entries, CustomDraft("mark", map[string]int{"n": 1})), Continue: Bool(true)}, nil
		})
	}, nil, nil)
	id := h.request("event", map[string]any{"extension": "x", "event": "input", "payload": map[string]any{"text": "hi", "source": "rpc"}})
	if r := result(t, h.answerTo(t, id)); r["action"] != "transform" || r["text"] != "HI" {
		t.Fatalf("input: %v", r)
	}
	id = h.request("event", map[string]any{"extension": "x", "event": "turn_end", "payload": map[string]any{"entries": []any{map[string]any{"type": "custom", "customType": "first"}}, "continue": false, "boundary": "b1", "outcome": "completed"}})
	r := result(t, h.answerTo(t, id))
	if mustJSON(r) != `{"continue":true,"entries":[{"customType":"first","type":"custom"},{"customType":"mark","data":{"n":1},"type":"custom"}]}` {
		t.Fatalf("turn_end: %v", mustJSON(r))
	}
	id = h.request("event", map[string]any{"extension": "x", "event": "context", "payload": map[string]any{"messages": []any{}}})
	if f := h.answerTo(t, id); string(f["result"]) != "null" {
		t.Fatalf("an event without handlers answered %s", f["result"])
	}
}

func TestDialogsWithoutAUIReturnDefaultsWithoutAsking(t *testing.T) {
	got := make(chan bool, 1)
	h := startHost(t, func(x *Extension) {
		x.RegisterCommand(Command{Name: "ask", Run: func(c *Context, _ string) error {
			ok, err := c.UI().Confirm("Sure?", "really")
			got <- ok
			return err
		}})
	}, map[string]any{"session": map[string]any{"cwd": "/tmp", "mode": "print", "hasUI": false}}, nil)
	id := h.request("command.run", map[string]any{"extension": "x", "name": "ask", "args": ""})
	result(t, h.answerTo(t, id))
	if <-got {
		t.Fatal("confirmed without a UI")
	}
	if h.count("ui.confirm") != 0 {
		t.Fatal("asked pig without a UI")
	}
}

func TestServeReturnsWhenTheSocketCloses(t *testing.T) {
	h := startHost(t, func(x *Extension) {}, nil, nil)
	_ = h.conn.Close()
	select {
	case err := <-h.served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the socket closed")
	}
}

func TestShutdownNotificationEndsServe(t *testing.T) {
	h := startHost(t, func(x *Extension) {}, nil, nil)
	h.notify("shutdown", map[string]any{"reason": "quit"})
	select {
	case err := <-h.served:
		if !errors.Is(err, errShutdown) {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after shutdown")
	}
}

func TestFlagValuesAndCwdFollowTheLatestState(t *testing.T) {
	got := make(chan string, 2)
	h := startHost(t, func(x *Extension) {
		x.RegisterFlag(Flag{Name: "plan", Description: "plan mode"})
		x.RegisterCommand(Command{Name: "show", Run: func(c *Context, _ string) error {
			v, ok := c.Extension().FlagValue("plan")
			got <- mustJSON(map[string]any{"plan": v, "set": ok, "cwd": c.Cwd(), "file": c.GetSessionFile()})
			return nil
		}})
	}, nil, nil)
	run := func() string {
		result(t, h.answerTo(t, h.request("command.run", map[string]any{"extension": "x", "name": "show", "args": ""})))
		return <-got
	}
	if r := run(); r != `{"cwd":"/tmp","file":"","plan":null,"set":false}` {
		t.Fatalf("before state: %s", r)
	}
	h.notify("state", map[string]any{"cwd": "/work", "sessionFile": "/s/a.jsonl", "sessionId": "s", "thinkingLevel": "off", "activeTools": []string{}, "allTools": []any{},
		"commands": []any{}, "isIdle": true, "hasPendingMessages": false, "systemPrompt": "", "flags": map[string]any{"plan": true}})
	if r := run(); r != `{"cwd":"/work","file":"/s/a.jsonl","plan":true,"set":true}` {
		t.Fatalf("after state: %s", r)
	}
}

func TestExecRunsInTheSessionCwdAndStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	got := make(chan ExecResult, 2)
	h := startHost(t, func(x *Extension) {
		x.RegisterCommand(Command{Name: "pwd", Run: func(c *Context, _ string) error {
			r, err := c.Exec("pwd", nil, ExecOptions{})
			got <- r
			return err
		}})
		x.RegisterCommand(Command{Name: "sleep", Run: func(c *Context, _ string) error {
			r, err := c.Exec("sleep", []string{"30"}, ExecOptions{Timeout: 50 * time.Millisecond})
			got <- r
			return err
		}})
	}, map[string]any{"session": map[string]any{"cwd": dir, "mode": "rpc", "hasUI": true}}, nil)
	result(t, h.answerTo(t, h.request("command.run", map[string]any{"extension": "x", "name": "pwd", "args": ""})))
	if r := <-got; strings.TrimSpace(r.Stdout) != dir || r.Code != 0 {
		t.Fatalf("pwd: %+v", r)
	}
	result(t, h.answerTo(t, h.request("command.run", map[string]any{"extension": "x", "name": "sleep", "args": ""})))
	if r := <-got; !r.Killed {
		t.Fatalf("sleep: %+v", r)
	}
}

func TestCompletionsShortcutsAndADialogAnsweredByThePerson(t *testing.T) {
	picked := make(chan string, 1)
	h := startHost(t, func(x *Extension) {
		x.RegisterCommand(Command{Name: "fruit", Run: func(c *Context, _ string) error { return nil },
			Complete: func(prefix string) []Completion {
				out := []Completion{}
				for _, f := range []string{"apple", "apricot", "banana"} {
					if strings.HasPrefix(f, prefix) {
						out = append(out, Completion{Value: f})
					}
				}
				return out
			}})
		x.RegisterShortcut(Shortcut{Key: "ctrl+g", Run: func(c *Context) error {
			v, ok, err := c.UI().Select("Pick", []string{"a", "b"})
			if ok {
				picked <- v
			}
			return err
		}})
	}, nil, map[string]hostMethod{"ui.select": func(h *fakeHost, id, p json.RawMessage) {
		if !strings.Contains(string(p), `"options":["a","b"]`) {
			h.t.Errorf("select params %s", p)
		}
		h.answer(id, map[string]any{"value": "b"})
	}})
	r := result(t, h.answerTo(t, h.request("command.complete", map[string]any{"extension": "x", "name": "fruit", "prefix": "ap"})))
	if mustJSON(r) != `{"items":[{"value":"apple"},{"value":"apricot"}]}` {
		t.Fatalf("completions %s", mustJSON(r))
	}
	result(t, h.answerTo(t, h.request("shortcut.run", map[string]any{"extension": "x", "key": "ctrl+g"})))
	if v := <-picked; v != "b" {
		t.Fatalf("picked %q", v)
	}
}

func TestBeforeAgentStartCollectsMessagesAndAFailingObserverIsReported(t *testing.T) {
	h := startHost(t, func(x *Extension) {
		for _, n := range []string{"one", "two"} {
			n := n
			x.OnBeforeAgentStart(func(c *Context, e BeforeAgentStartEvent) (BeforeAgentStartResult, error) {
				return BeforeAgentStartResult{Message: &CustomMessage{CustomType: n, Content: e.Prompt, Display: false}}, nil
			})
		}
		x.On("agent_end", func(*Context, Event) (any, error) { return nil, errors.New("observer broke") })
	}, nil, nil)
	r := result(t, h.answerTo(t, h.request("event", map[string]any{"extension": "x", "event": "before_agent_start", "payload": map[string]any{"prompt": "hi", "systemPrompt": "base"}})))
	if mustJSON(r["message"]) != `{"content":"hi","customType":"one","display":false}` || len(r["messages"].([]any)) != 2 {
		t.Fatalf("before_agent_start %s", mustJSON(r))
	}
	h.notify("event", map[string]any{"extension": "x", "event": "agent_end", "payload": map[string]any{"messages": []any{}}})
	e := params(t, h.waitFor(t, func(f map[string]json.RawMessage) bool { return method(f) == "extension.error" }))
	if e["event"] != "agent_end" || e["error"] != "observer broke" || e["extension"] != "/ext/go/pig-extension.json" {
		t.Fatalf("extension.error %v", e)
	}
}
