package sdk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// A reader tool: reports what GetEntries, GetBranch and GetLeafID see.
func readerSetup(x *Extension) {
	x.RegisterTool(Tool{Name: "read", Execute: func(c *ToolContext, _ json.RawMessage) (ToolResult, error) {
		entries, err := c.GetEntries()
		if err != nil {
			return ToolResult{}, err
		}
		branch, err := c.GetBranch()
		if err != nil {
			return ToolResult{}, err
		}
		leaf, err := c.GetLeafID()
		if err != nil {
			return ToolResult{}, err
		}
		ids := []string{}
		for _, b := range branch {
			ids = append(ids, b.ID+":"+b.Text)
		}
		lines := []string{}
		for _, e := range entries {
			lines = append(lines, string(e))
		}
		return ToolResult{Content: []Content{Text(mustJSON(map[string]any{"lines": lines, "branch": ids, "leaf": leaf}))}}, nil
	}})
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
