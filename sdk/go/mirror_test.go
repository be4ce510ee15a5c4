package sdk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// A reader tool: reports what GetEntries, GetBranch and GetLeafID see (the seed's forms, with
// Err after them).
func readerSetup(x *Extension) {
	x.RegisterTool(Tool{Name: "read", Execute: func(c *ToolContext, _ json.RawMessage) (ToolResult, error) {
		entries := c.GetEntries()
		branch := c.GetBranch()
		leaf := c.GetLeafID()
		if err := c.Err(); err != nil {
			return ToolResult{}, err
		}
		return readoutOf(entries, branch, leaf), nil
	}})
}

// The same reader through ReadEntries, ReadBranch and ReadLeafID.
func errorReaderSetup(x *Extension) {
	x.RegisterTool(Tool{Name: "read", Execute: func(c *ToolContext, _ json.RawMessage) (ToolResult, error) {
		entries, err := c.ReadEntries()
		if err != nil {
			return ToolResult{}, err
		}
		branch, err := c.ReadBranch()
		if err != nil {
			return ToolResult{}, err
		}
		leaf, err := c.ReadLeafID()
		if err != nil {
			return ToolResult{}, err
		}
		return readoutOf(entries, branch, leaf), nil
	}})
}

func readoutOf(entries []json.RawMessage, branch []BranchEntry, leaf string) ToolResult {
	ids := []string{}
	for _, b := range branch {
		ids = append(ids, b.ID+":"+b.Text)
	}
	lines := []string{}
	for _, e := range entries {
		lines = append(lines, string(e))
	}
	return ToolResult{Content: []Content{Text(mustJSON(map[string]any{"lines": lines, "branch": ids, "leaf": leaf}))}}
}

type readout struct {
	Lines  []string `json:"lines"`
	Branch []string `json:"branch"`
	Leaf   string   `json:"leaf"`
}

func readBack(t *testing.T, h *fakeHost) readout {
	t.Helper()
	id := h.request("tool.execute", map[string]any{"extension": "x", "name": "read", "toolCallId": "c", "args": map[string]any{}})
	r := result(t, h.answerTo(t, id))
	var out readout
	text := r["content"].([]any)[0].(map[string]any)["text"].(string)
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	return out
}

const header = `{"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/tmp"}`

func msg(id, parent, text string) string {
	p := `null`
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"t","message":{"role":"user","content":"` + text + `"},"unknown":{"kept": 1.50}}`
}

func TestNothingOfTheLogIsAskedUntilReadThenAppendsAndLeafMovesAreMirrored(t *testing.T) {
	first := msg("a1", "", "caf\u00e9 \u2028 \U0001F437")
	h := startHost(t, readerSetup, nil, map[string]hostMethod{"session.subscribe": func(h *fakeHost, id, _ json.RawMessage) {
		h.answer(id, map[string]any{"header": header, "entries": []string{first}, "leafId": "a1"})
		// Sent right after the answer, as pig does.
		h.notify("session.appended", map[string]any{"entries": []string{msg("b2", "a1", "second")}, "leafId": "b2"})
	}})
	// Changes before any read are not for this extension (pig would not send them).
	if h.count("session.subscribe") != 0 {
		t.Fatal("subscribed before a read")
	}
	out := readBack(t, h)
	if h.count("session.subscribe") != 1 {
		t.Fatalf("subscribed %d times", h.count("session.subscribe"))
	}
	if out.Lines[0] != first {
		t.Fatalf("line bytes changed: %q", out.Lines[0])
	}
	// The append sent after the answer may land before or after this read; wait for it.
	for len(out.Lines) < 2 {
		out = readBack(t, h)
	}
	if strings.Join(out.Branch, ",") != "a1:caf\u00e9 \u2028 \U0001F437,b2:second" || out.Leaf != "b2" {
		t.Fatalf("branch %v leaf %s", out.Branch, out.Leaf)
	}
	h.notify("session.appended", map[string]any{"entries": []string{msg("c3", "a1", "fork")}, "leafId": "c3"})
	h.notify("session.leaf", map[string]any{"leafId": "b2"})
	out = readBack(t, h)
	if len(out.Lines) != 3 || out.Leaf != "b2" || strings.Join(out.Branch, ",") != "a1:caf\u00e9 \u2028 \U0001F437,b2:second" {
		t.Fatalf("after a leaf move: %+v", out)
	}
	h.notify("session.replaced", map[string]any{"header": header, "entries": []string{msg("z9", "", "new")}, "leafId": "z9"})
	if out = readBack(t, h); len(out.Lines) != 1 || out.Leaf != "z9" {
		t.Fatalf("after replaced: %+v", out)
	}
	if h.count("session.subscribe") != 1 {
		t.Fatal("subscribed again")
	}
}

func TestTheFileFormReadsLinesFromDiskAndFallsBackWhenTheFileChanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	onDisk := header + "\n" + msg("a1", "", "one") + "\n" + msg("b2", "a1", "two") + "\n"
	if err := os.WriteFile(path, []byte(onDisk), 0o600); err != nil {
		t.Fatal(err)
	}
	var plain atomic.Int32
	subscribe := func(h *fakeHost, id, p json.RawMessage) {
		if strings.Contains(string(p), `"file":true`) {
			h.answer(id, map[string]any{"header": header, "entries": []string{msg("c3", "b2", "three")}, "leafId": "c3",
				"file": map[string]any{"path": path, "offset": 0, "length": len(onDisk), "count": 2}})
			return
		}
		plain.Add(1)
		h.answer(id, map[string]any{"header": header, "entries": []string{msg("x1", "", "plain")}, "leafId": "x1"})
	}
	h := startHost(t, readerSetup, nil, map[string]hostMethod{"session.subscribe": subscribe})
	out := readBack(t, h)
	if strings.Join(out.Lines, "\n") != msg("a1", "", "one")+"\n"+msg("b2", "a1", "two")+"\n"+msg("c3", "b2", "three") || out.Leaf != "c3" {
		t.Fatalf("file form: %+v", out)
	}

	// A second process whose file was replaced under pig: the checks fail, the plain form is used.
	if err := os.WriteFile(path, []byte(header+"\n"+msg("q1", "", "other")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h2 := startHost(t, readerSetup, nil, map[string]hostMethod{"session.subscribe": subscribe})
	out = readBack(t, h2)
	if len(out.Lines) != 1 || out.Leaf != "x1" || plain.Load() != 1 {
		t.Fatalf("fallback: %+v plain=%d", out, plain.Load())
	}
}

func TestLongMessagesTravelInPartsBothWays(t *testing.T) {
	big := strings.Repeat("é<&\u2028\"\\", 40_000) // well over the 64 KiB frame limit below
	h := startHost(t, func(x *Extension) {
		x.RegisterTool(Tool{Name: "echo", Execute: func(c *ToolContext, args json.RawMessage) (ToolResult, error) {
			var a struct{ Text string }
			if err := json.Unmarshal(args, &a); err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Content: []Content{Text(a.Text)}}, nil
		}})
	}, map[string]any{"maxFrameBytes": 65536}, nil)
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tool.execute", "params": map[string]any{"extension": "x", "name": "echo", "toolCallId": "c", "args": map[string]any{"text": big}}})
	for i, n := 0, 0; i < len(call); i += n {
		n = 30_000
		if i+n > len(call) {
			n = len(call) - i
		}
		h.notify("$/part", map[string]any{"stream": 1, "data": string(call[i : i+n]), "final": i+n == len(call)})
	}
	// The answer comes in parts no longer than the limit; put them together.
	h.waitFor(t, func(f map[string]json.RawMessage) bool {
		return method(f) == "$/part" && strings.Contains(string(f["params"]), `"final":true`)
	})
	var text strings.Builder
	for _, f := range h.all() {
		if method(f) == "$/part" {
			var p struct{ Data string }
			_ = json.Unmarshal(f["params"], &p)
			text.WriteString(p.Data)
		}
	}
	h.mu.Lock()
	longest := h.longest
	h.mu.Unlock()
	if longest > 65536 {
		t.Fatalf("a line of %d bytes", longest)
	}
	var answer struct {
		ID     int        `json:"id"`
		Result ToolResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(text.String()), &answer); err != nil {
		t.Fatal(err)
	}
	if answer.ID != 7 || answer.Result.Content[0].Text != big {
		t.Fatalf("answer %d of %d bytes", answer.ID, len(answer.Result.Content[0].Text))
	}
}

func TestBothFormsOfTheReadsSeeTheSameLog(t *testing.T) {
	for name, setup := range map[string]func(*Extension){"Get": readerSetup, "Read": errorReaderSetup} {
		t.Run(name, func(t *testing.T) {
			h := startHost(t, setup, nil, map[string]hostMethod{"session.subscribe": func(h *fakeHost, id, _ json.RawMessage) {
				h.answer(id, map[string]any{"header": header, "entries": []string{msg("a1", "", "one"), msg("b2", "a1", "two")}, "leafId": "b2"})
			}})
			out := readBack(t, h)
			if len(out.Lines) != 2 || out.Lines[1] != msg("b2", "a1", "two") || strings.Join(out.Branch, ",") != "a1:one,b2:two" || out.Leaf != "b2" {
				t.Fatalf("%+v", out)
			}
		})
	}
}

func TestAFailedGetReadIsKeptForErrAndLaterGetReadsAreEmpty(t *testing.T) {
	var subscribes atomic.Int32
	h := startHost(t, func(x *Extension) {
		x.RegisterTool(Tool{Name: "read", Execute: func(c *ToolContext, _ json.RawMessage) (ToolResult, error) {
			report := map[string]any{"errBefore": c.Err() == nil}
			report["entries"] = len(c.GetEntries())
			first := c.Err()
			// Pig would answer now; the Get reads do not ask again.
			report["branch"] = len(c.GetBranch())
			report["leaf"] = c.GetLeafID()
			report["header"] = len(c.GetHeader())
			report["subscribesAfterGets"] = subscribes.Load()
			// The Read forms try again and give their own result.
			entries, err := c.ReadEntries()
			report["readEntries"], report["readErr"] = len(entries), err == nil
			report["leafAfterRead"] = c.GetLeafID()
			report["same"] = c.Err() == first
			report["err"] = first.Error()
			report["ended"] = c.Context.Context.Err() != nil // the request itself goes on
			return ToolResult{Content: []Content{Text(mustJSON(report))}}, nil
		}})
		x.RegisterTool(Tool{Name: "again", Execute: func(c *ToolContext, _ json.RawMessage) (ToolResult, error) {
			leaf := c.GetLeafID()
			return ToolResult{Content: []Content{Text(mustJSON(map[string]any{"leaf": leaf, "ok": c.Err() == nil}))}}, nil
		}})
	}, nil, map[string]hostMethod{"session.subscribe": func(h *fakeHost, id, _ json.RawMessage) {
		if subscribes.Add(1) == 1 {
			h.send(map[string]any{"id": id, "error": map[string]any{"code": -32603, "message": "no log today"}})
			return
		}
		h.answer(id, map[string]any{"header": header, "entries": []string{msg("a1", "", "one")}, "leafId": "a1"})
	}})
	call := func(name string) map[string]any {
		id := h.request("tool.execute", map[string]any{"extension": "x", "name": name, "toolCallId": "c", "args": map[string]any{}})
		r := result(t, h.answerTo(t, id))
		var out map[string]any
		if err := json.Unmarshal([]byte(r["content"].([]any)[0].(map[string]any)["text"].(string)), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := call("read")
	want := map[string]any{"errBefore": true, "entries": 0.0, "branch": 0.0, "leaf": "", "header": 0.0, "subscribesAfterGets": 1.0,
		"readEntries": 1.0, "readErr": true, "leafAfterRead": "", "same": true, "ended": false}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("%s: %v, want %v (%v)", k, got[k], v, got)
		}
	}
	if !strings.Contains(got["err"].(string), "no log today") {
		t.Fatalf("err %v", got["err"])
	}
	// A handler's next Context starts without the failure.
	if got = call("again"); got["leaf"] != "a1" || got["ok"] != true {
		t.Fatalf("next context: %v", got)
	}
}
