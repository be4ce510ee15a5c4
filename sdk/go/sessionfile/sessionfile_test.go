package sessionfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const header = `{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}`

func TestReadKeepsExactBytesOfLinesFarLongerThanScannersDefault(t *testing.T) {
	big := `{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"` + strings.Repeat("x", 3<<20) + `"}]}}`
	lines := []string{
		`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi \u2028 there"},"extra": 1.50}` + "\r",
		big,
		"",
		`{"type":"custom","id":"c","parentId":"b","timestamp":"t","customType":"count","data":{"n":2}}`,
	}
	f, err := Read(strings.NewReader(header+"\n"+strings.Join(lines, "\n")+"\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Header) != header || len(f.Lines) != 3 || f.Torn {
		t.Fatalf("header %q, %d lines, torn %v", f.Header, len(f.Lines), f.Torn)
	}
	// The CR before the LF is part of the line's bytes; the blank line is not an entry.
	if string(f.Lines[0]) != lines[0] || string(f.Lines[1]) != big || string(f.Lines[2]) != lines[3] {
		t.Fatal("line bytes changed")
	}
	branch := f.Branch()
	if len(branch) != 3 || branch[0].Text != "hi \u2028 there" || branch[1].Role != "toolResult" || branch[1].ToolName != "read" || len(branch[1].Text) != 3<<20 {
		t.Fatalf("branch %+v", branch[0])
	}
	if branch[2].CustomType != "count" || string(branch[2].Data) != `{"n":2}` {
		t.Fatalf("custom %+v", branch[2])
	}
}

func TestALineOverTheLimitIsAnErrorNamingIt(t *testing.T) {
	_, err := Read(strings.NewReader(header+"\n"+strings.Repeat("y", 100)+"\n"), 80)
	if err == nil || !strings.Contains(err.Error(), "line 2 is longer than 80 bytes") {
		t.Fatalf("err %v", err)
	}
}

func TestNotASessionFile(t *testing.T) {
	if _, err := Read(strings.NewReader(`{"type":"message"}`+"\n"), 0); !errors.Is(err, ErrNotSession) {
		t.Fatalf("err %v", err)
	}
	if _, err := Read(bytes.NewReader(nil), 0); !errors.Is(err, ErrNotSession) {
		t.Fatalf("empty: %v", err)
	}
}

func TestTheActiveBranchFollowsParentsFromTheLastEntry(t *testing.T) {
	text := strings.Join([]string{
		header,
		`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"one"}}`,
		`{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"let me look"},{"type":"toolCall","id":"t1","name":"ls","arguments":{"path":"."}}]}}`,
		`{"type":"message","id":"c","parentId":"a","timestamp":"t","message":{"role":"user","content":"other branch"}}`,
		`not json at all`,
		`{"type":"compaction","id":"d","parentId":"c","timestamp":"t","summary":"so far","firstKeptEntryId":"c","tokensBefore":10}`,
		`{"type":"message","id":"e","parentId":"gone","timestamp":"t","message":{"role":"user","content":"dangling"}}`,
		`{"type":"label","id":"f","parentId":"d","timestamp":"t","targetId":"c","label":"here"}`,
	}, "\n") + "\n" + `{"type":"message","id":"g","parentId":"f","timest`
	f, err := Read(strings.NewReader(text), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Torn || f.LeafID() != "f" {
		t.Fatalf("torn %v leaf %q", f.Torn, f.LeafID())
	}
	var ids []string
	for _, e := range f.Branch() {
		ids = append(ids, e.ID)
	}
	if strings.Join(ids, ",") != "a,c,d,f" {
		t.Fatalf("branch %v", ids)
	}
	b := Branch(f.Lines, "b")
	if len(b) != 2 || b[1].Text != "let me look" || len(b[1].ToolCalls) != 1 || b[1].ToolCalls[0].Name != "ls" || string(b[1].ToolCalls[0].Arguments) != `{"path":"."}` {
		t.Fatalf("assistant %+v", b[1])
	}
	if d := Branch(f.Lines, "e"); len(d) != 1 || d[0].ParentID != "gone" {
		t.Fatalf("a dangling parent makes a root: %+v", d)
	}
}

func TestACycleEndsTheWalk(t *testing.T) {
	lines := Lines([]string{`{"id":"a","parentId":"b"}`, `{"id":"b","parentId":"a"}`})
	if got := Branch(lines, "b"); len(got) != 2 {
		t.Fatalf("cycle: %d entries", len(got))
	}
}

func TestQuickLinksAgreeWithTheJSONDecoder(t *testing.T) {
	for _, line := range []string{
		`{"type":"message","id":"a1","parentId":null,"message":{"id":"inner"}}`,
		`{"message":{"id":"inner","parentId":"x"},"parentId":"p\u00e9","id":"b\"2"}`,
		`{ "id" : "c3" , "data" : [1, {"id": "no"}, "]}"] }`,
		`{"type":"session","id":"s"}`,
		`{"parentId":"p"}`,
	} {
		id, parent, hasID, ok := quickLinks([]byte(line))
		var l Links
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		want := ""
		if l.ParentID != nil {
			want = *l.ParentID
		}
		if !ok || id != l.ID || parent != want || hasID != (l.ID != "") {
			t.Fatalf("%s: got %q %q %v %v, want %q %q", line, id, parent, hasID, ok, l.ID, want)
		}
	}
	if _, _, _, ok := quickLinks([]byte(`[1,2]`)); ok {
		t.Fatal("an array has no links")
	}
}
