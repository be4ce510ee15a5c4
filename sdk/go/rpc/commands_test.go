package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// commandCase is one command: the call, the line it must send (besides id), the data pig
// answers with, and what the call must return.
type commandCase struct {
	name  string
	call  func(ctx context.Context, c *Client) (any, error)
	sent  string
	data  string
	check func(t *testing.T, got any)
}

func equal(t *testing.T, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

var commandCases = []commandCase{
	{"prompt", func(ctx context.Context, c *Client) (any, error) {
		return nil, c.Prompt(ctx, "hi", &PromptOptions{Images: []Image{{Data: "AAAA", MimeType: "image/png"}}, StreamingBehavior: StreamingFollowUp})
	}, `{"type":"prompt","message":"hi","images":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"streamingBehavior":"followUp"}`, ``, nil},
	{"prompt without options", func(ctx context.Context, c *Client) (any, error) { return nil, c.Prompt(ctx, "hi", nil) },
		`{"type":"prompt","message":"hi"}`, ``, nil},
	{"steer", func(ctx context.Context, c *Client) (any, error) { return nil, c.Steer(ctx, "left") },
		`{"type":"steer","message":"left"}`, ``, nil},
	{"follow_up", func(ctx context.Context, c *Client) (any, error) {
		return nil, c.FollowUp(ctx, "then", Image{Data: "B", MimeType: "image/jpeg"})
	}, `{"type":"follow_up","message":"then","images":[{"type":"image","data":"B","mimeType":"image/jpeg"}]}`, ``, nil},
	{"abort", func(ctx context.Context, c *Client) (any, error) { return nil, c.Abort(ctx) }, `{"type":"abort"}`, ``, nil},
	{"clear_queue", func(ctx context.Context, c *Client) (any, error) { return c.ClearQueue(ctx) },
		`{"type":"clear_queue"}`, `{"steering":["a"],"followUp":["b","c"]}`, func(t *testing.T, got any) {
			q := got.(*Queues)
			equal(t, [][]string{q.Steering, q.FollowUp}, [][]string{{"a"}, {"b", "c"}})
		}},
	{"new_session", func(ctx context.Context, c *Client) (any, error) { return c.NewSession(ctx, "/s/parent.jsonl") },
		`{"type":"new_session","parentSession":"/s/parent.jsonl"}`, `{"cancelled":true}`, func(t *testing.T, got any) {
			equal(t, got.(*SessionChange).Cancelled, true)
		}},
	{"get_state", func(ctx context.Context, c *Client) (any, error) { return c.GetState(ctx) },
		`{"type":"get_state"}`,
		`{"model":{"id":"m1","name":"M one","api":"openai-completions","provider":"p","baseUrl":"http://x","reasoning":true,"input":["text","image"],"cost":{"input":1.5,"output":2,"cacheRead":0,"cacheWrite":0},"contextWindow":128000,"maxTokens":16384,"compat":{"x":1}},"thinkingLevel":"max","isStreaming":true,"isCompacting":false,"steeringMode":"all","followUpMode":"one-at-a-time","sessionFile":"/s/a.jsonl","sessionId":"sid","sessionName":"named","autoCompactionEnabled":true,"messageCount":3,"pendingMessageCount":1,"later":"kept"}`,
		func(t *testing.T, got any) {
			s := got.(*State)
			equal(t, []any{s.Model.ID, s.Model.Provider, s.Model.Reasoning, s.Model.Input, s.Model.Cost.Input, s.Model.ContextWindow, s.ThinkingLevel, s.IsStreaming, s.SteeringMode, s.FollowUpMode, s.SessionFile, s.SessionID, s.SessionName, s.AutoCompactionEnabled, s.MessageCount, s.PendingMessageCount},
				[]any{"m1", "p", true, []string{"text", "image"}, 1.5, int64(128000), "max", true, "all", "one-at-a-time", "/s/a.jsonl", "sid", "named", true, 3, 1})
			if !strings.Contains(string(s.Raw), `"later":"kept"`) || !strings.Contains(string(s.Model.Raw), `"compat":{"x":1}`) {
				t.Fatalf("unknown fields are not kept: %s", s.Raw)
			}
		}},
	{"get_messages", func(ctx context.Context, c *Client) (any, error) { return c.GetMessages(ctx) },
		`{"type":"get_messages"}`,
		`{"messages":[{"role":"user","content":"plain","timestamp":1},{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"a"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x"}},{"type":"text","text":"b"}],"api":"x","provider":"p","model":"m","usage":{"input":10,"output":5,"cacheRead":1,"cacheWrite":2,"totalTokens":18,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"toolUse","timestamp":2},{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"file"}],"isError":true,"details":{"n":1},"timestamp":3}]}`,
		func(t *testing.T, got any) {
			m := got.([]Message)
			equal(t, len(m), 3)
			equal(t, []any{m[0].Role, m[0].Text(), m[1].Text(), len(m[1].Blocks()), m[1].ToolCalls()[0].Name, string(m[1].ToolCalls()[0].Arguments), m[1].Usage.TotalTokens, m[1].Usage.Cost.Total, m[1].StopReason},
				[]any{"user", "plain", "ab", 4, "read", `{"path":"x"}`, int64(18), 0.3, "toolUse"})
			equal(t, []any{m[2].ToolCallID, m[2].ToolName, m[2].IsError, string(m[2].Details), m[2].Text()}, []any{"c1", "read", true, `{"n":1}`, "file"})
		}},
	{"set_model", func(ctx context.Context, c *Client) (any, error) { return c.SetModel(ctx, "p", "m2") },
		`{"type":"set_model","provider":"p","modelId":"m2"}`, `{"id":"m2","name":"M2","provider":"p"}`, func(t *testing.T, got any) {
			equal(t, got.(*Model).Name, "M2")
		}},
	{"cycle_model", func(ctx context.Context, c *Client) (any, error) { return c.CycleModel(ctx) },
		`{"type":"cycle_model"}`, `{"model":{"id":"m3"},"thinkingLevel":"low","isScoped":true}`, func(t *testing.T, got any) {
			m := got.(*ModelCycle)
			equal(t, []any{m.Model.ID, m.ThinkingLevel, m.IsScoped}, []any{"m3", "low", true})
		}},
	{"cycle_model with one model", func(ctx context.Context, c *Client) (any, error) { return c.CycleModel(ctx) },
		`{"type":"cycle_model"}`, `null`, func(t *testing.T, got any) {
			equal(t, got.(*ModelCycle) == nil, true)
		}},
	{"get_available_models", func(ctx context.Context, c *Client) (any, error) { return c.GetAvailableModels(ctx) },
		`{"type":"get_available_models"}`, `{"models":[{"id":"a"},{"id":"b"}]}`, func(t *testing.T, got any) {
			m := got.([]Model)
			equal(t, []string{m[0].ID, m[1].ID}, []string{"a", "b"})
		}},
	{"set_thinking_level", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetThinkingLevel(ctx, ThinkingHigh) },
		`{"type":"set_thinking_level","level":"high"}`, ``, nil},
	{"cycle_thinking_level", func(ctx context.Context, c *Client) (any, error) { return c.CycleThinkingLevel(ctx) },
		`{"type":"cycle_thinking_level"}`, `{"level":"xhigh"}`, func(t *testing.T, got any) { equal(t, got, "xhigh") }},
	{"cycle_thinking_level without levels", func(ctx context.Context, c *Client) (any, error) { return c.CycleThinkingLevel(ctx) },
		`{"type":"cycle_thinking_level"}`, `null`, func(t *testing.T, got any) { equal(t, got, "") }},
	{"get_available_thinking_levels", func(ctx context.Context, c *Client) (any, error) { return c.GetAvailableThinkingLevels(ctx) },
		`{"type":"get_available_thinking_levels"}`, `{"levels":["off","low"]}`, func(t *testing.T, got any) { equal(t, got, []string{"off", "low"}) }},
	{"set_steering_mode", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetSteeringMode(ctx, QueueOneAtATime) },
		`{"type":"set_steering_mode","mode":"one-at-a-time"}`, ``, nil},
	{"set_follow_up_mode", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetFollowUpMode(ctx, QueueAll) },
		`{"type":"set_follow_up_mode","mode":"all"}`, ``, nil},
	{"compact", func(ctx context.Context, c *Client) (any, error) { return c.Compact(ctx, "keep the names") },
		`{"type":"compact","customInstructions":"keep the names"}`,
		`{"summary":"S","firstKeptEntryId":"e5","tokensBefore":900,"estimatedTokensAfter":120,"usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"total":0.5}},"details":{"files":[]}}`,
		func(t *testing.T, got any) {
			r := got.(*CompactionResult)
			equal(t, []any{r.Summary, r.FirstKeptEntryID, r.TokensBefore, *r.EstimatedTokensAfter, r.Usage.Cost.Total, string(r.Details)}, []any{"S", "e5", int64(900), int64(120), 0.5, `{"files":[]}`})
		}},
	{"compact without instructions", func(ctx context.Context, c *Client) (any, error) { return c.Compact(ctx, "") },
		`{"type":"compact"}`, `{"summary":"S","firstKeptEntryId":"e1","tokensBefore":5}`, func(t *testing.T, got any) {
			equal(t, got.(*CompactionResult).EstimatedTokensAfter == nil, true)
		}},
	{"set_auto_compaction", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetAutoCompaction(ctx, false) },
		`{"type":"set_auto_compaction","enabled":false}`, ``, nil},
	{"set_auto_retry", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetAutoRetry(ctx, true) },
		`{"type":"set_auto_retry","enabled":true}`, ``, nil},
	{"abort_retry", func(ctx context.Context, c *Client) (any, error) { return nil, c.AbortRetry(ctx) }, `{"type":"abort_retry"}`, ``, nil},
	{"abort_compaction", func(ctx context.Context, c *Client) (any, error) { return nil, c.AbortCompaction(ctx) }, `{"type":"abort_compaction"}`, ``, nil},
	{"bash", func(ctx context.Context, c *Client) (any, error) {
		return c.Bash(ctx, "ls", &BashOptions{ExcludeFromContext: true})
	}, `{"type":"bash","command":"ls","excludeFromContext":true}`, `{"output":"a\n","exitCode":0,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/o"}`,
		func(t *testing.T, got any) {
			b := got.(*BashResult)
			equal(t, []any{b.Output, *b.ExitCode, b.Cancelled, b.Truncated, b.FullOutputPath}, []any{"a\n", 0, false, true, "/tmp/o"})
		}},
	{"bash cancelled", func(ctx context.Context, c *Client) (any, error) { return c.Bash(ctx, "sleep 9", nil) },
		`{"type":"bash","command":"sleep 9"}`, `{"output":"","cancelled":true,"truncated":false}`, func(t *testing.T, got any) {
			equal(t, got.(*BashResult).ExitCode == nil, true)
		}},
	{"abort_bash", func(ctx context.Context, c *Client) (any, error) { return nil, c.AbortBash(ctx) }, `{"type":"abort_bash"}`, ``, nil},
	{"get_session_stats", func(ctx context.Context, c *Client) (any, error) { return c.GetSessionStats(ctx) },
		`{"type":"get_session_stats"}`,
		`{"sessionFile":"/s/a.jsonl","sessionId":"sid","userMessages":2,"assistantMessages":3,"toolCalls":4,"toolResults":4,"totalMessages":10,"tokens":{"input":100,"output":20,"cacheRead":5,"cacheWrite":1,"total":126},"cost":0.25,"contextUsage":{"tokens":null,"contextWindow":1000,"percent":null}}`,
		func(t *testing.T, got any) {
			s := got.(*SessionStats)
			equal(t, []any{s.UserMessages, s.AssistantMessages, s.ToolCalls, s.ToolResults, s.TotalMessages, s.Tokens, s.Cost, s.ContextUsage.ContextWindow, s.ContextUsage.Tokens == nil},
				[]any{2, 3, 4, 4, 10, Tokens{100, 20, 5, 1, 126}, 0.25, int64(1000), true})
		}},
	{"export_html", func(ctx context.Context, c *Client) (any, error) { return c.ExportHTML(ctx, "out.html") },
		`{"type":"export_html","outputPath":"out.html"}`, `{"path":"/w/out.html"}`, func(t *testing.T, got any) { equal(t, got, "/w/out.html") }},
	{"switch_session", func(ctx context.Context, c *Client) (any, error) { return c.SwitchSession(ctx, "/s/b.jsonl") },
		`{"type":"switch_session","sessionPath":"/s/b.jsonl"}`, `{"cancelled":false}`, func(t *testing.T, got any) {
			equal(t, got.(*SessionChange).Cancelled, false)
		}},
	{"fork", func(ctx context.Context, c *Client) (any, error) { return c.Fork(ctx, "e2") },
		`{"type":"fork","entryId":"e2"}`, `{"text":"the prompt","cancelled":false}`, func(t *testing.T, got any) {
			equal(t, got.(*ForkResult).Text, "the prompt")
		}},
	{"clone", func(ctx context.Context, c *Client) (any, error) { return c.Clone(ctx) }, `{"type":"clone"}`, `{"cancelled":false}`, nil},
	{"get_fork_messages", func(ctx context.Context, c *Client) (any, error) { return c.GetForkMessages(ctx) },
		`{"type":"get_fork_messages"}`, `{"messages":[{"entryId":"e1","text":"one"}]}`, func(t *testing.T, got any) {
			equal(t, got, []ForkMessage{{"e1", "one"}})
		}},
	{"get_entries", func(ctx context.Context, c *Client) (any, error) { return c.GetEntries(ctx, "e1") },
		`{"type":"get_entries","since":"e1"}`,
		`{"entries":[{"type":"message","id":"e2","parentId":"e1","timestamp":"T","message":{"role":"user","content":"hi"}},{"type":"custom","id":"e3","parentId":null,"timestamp":"T","customType":"k","data":{"n":1}}],"leafId":"e3"}`,
		func(t *testing.T, got any) {
			e := got.(*Entries)
			equal(t, []any{len(e.Entries), e.LeafID, e.Entries[0].ParentID, e.Entries[0].Message.Text(), e.Entries[1].ParentID, e.Entries[1].Message == nil}, []any{2, "e3", "e1", "hi", "", true})
			flat, err := e.Entries[1].Flat()
			if err != nil {
				t.Fatal(err)
			}
			equal(t, []any{flat.CustomType, string(flat.Data)}, []any{"k", `{"n":1}`})
		}},
	{"get_entries of an empty session", func(ctx context.Context, c *Client) (any, error) { return c.GetEntries(ctx, "") },
		`{"type":"get_entries"}`, `{"entries":[],"leafId":null}`, func(t *testing.T, got any) { equal(t, got.(*Entries).LeafID, "") }},
	{"get_tree", func(ctx context.Context, c *Client) (any, error) { return c.GetTree(ctx) },
		`{"type":"get_tree"}`,
		`{"tree":[{"entry":{"type":"message","id":"a","parentId":null},"children":[{"entry":{"type":"message","id":"b","parentId":"a"},"children":[],"label":"L","labelTimestamp":"T"},{"entry":{"type":"message","id":"c","parentId":"a"},"children":[]}],"unknown":{"x":[1]}},{"children":[],"entry":{"type":"custom","id":"r2","parentId":null}}],"leafId":"c"}`,
		func(t *testing.T, got any) {
			tr := got.(*Tree)
			equal(t, []any{len(tr.Roots), tr.Roots[0].Entry.ID, len(tr.Roots[0].Children), tr.Roots[0].Children[0].Label, tr.Roots[0].Children[0].LabelTimestamp, tr.Roots[0].Children[1].Entry.ParentID, tr.Roots[1].Entry.ID, tr.LeafID},
				[]any{2, "a", 2, "L", "T", "a", "r2", "c"})
		}},
	{"get_last_assistant_text", func(ctx context.Context, c *Client) (any, error) {
		text, ok, err := c.GetLastAssistantText(ctx)
		return []any{text, ok}, err
	}, `{"type":"get_last_assistant_text"}`, `{"text":"last"}`, func(t *testing.T, got any) { equal(t, got, []any{"last", true}) }},
	{"get_last_assistant_text without an answer", func(ctx context.Context, c *Client) (any, error) {
		text, ok, err := c.GetLastAssistantText(ctx)
		return []any{text, ok}, err
	}, `{"type":"get_last_assistant_text"}`, `{}`, func(t *testing.T, got any) { equal(t, got, []any{"", false}) }},
	{"set_session_name", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetSessionName(ctx, "n") },
		`{"type":"set_session_name","name":"n"}`, ``, nil},
	{"get_commands", func(ctx context.Context, c *Client) (any, error) { return c.GetCommands(ctx) },
		`{"type":"get_commands"}`, `{"commands":[{"name":"words","description":"d","source":"extension","sourceInfo":{"path":"/x"}},{"name":"skill:s","source":"skill","sourceInfo":{}}]}`,
		func(t *testing.T, got any) {
			cs := got.([]CommandInfo)
			equal(t, []any{cs[0].Name, cs[0].Source, string(cs[0].SourceInfo), cs[1].Name}, []any{"words", "extension", `{"path":"/x"}`, "skill:s"})
		}},
	{"get_extensions", func(ctx context.Context, c *Client) (any, error) { return c.GetExtensions(ctx) },
		`{"type":"get_extensions"}`, `{"extensions":[{"path":"/e","pid":42,"generation":2,"state":"running","events":["tool_call"],"calls":7,"medianLatencyMs":0.5},{"path":"/f","generation":1,"state":"load-failed","events":[],"calls":0,"error":"bad"}]}`,
		func(t *testing.T, got any) {
			x := got.([]ExtensionInfo)
			equal(t, []any{x[0].PID, x[0].Generation, x[0].State, x[0].Events, x[0].Calls, *x[0].MedianLatencyMs, x[1].PID, x[1].MedianLatencyMs == nil, x[1].Error},
				[]any{42, 2, "running", []string{"tool_call"}, 7, 0.5, 0, true, "bad"})
		}},
	{"navigate_tree", func(ctx context.Context, c *Client) (any, error) {
		return c.NavigateTree(ctx, "e1", &NavigateOptions{Summarize: true, CustomInstructions: "short", ReplaceInstructions: true, Label: "here"})
	}, `{"type":"navigate_tree","targetId":"e1","summarize":true,"customInstructions":"short","replaceInstructions":true,"label":"here"}`,
		`{"editorText":"typed","cancelled":false,"summaryEntryId":"s1"}`, func(t *testing.T, got any) {
			n := got.(*NavigateResult)
			equal(t, []any{n.EditorText, n.Cancelled, n.SummaryEntryID}, []any{"typed", false, "s1"})
		}},
	{"set_label", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetLabel(ctx, "e1", "mark") },
		`{"type":"set_label","entryId":"e1","label":"mark"}`, ``, nil},
	{"set_label clears", func(ctx context.Context, c *Client) (any, error) { return nil, c.SetLabel(ctx, "e1", "") },
		`{"type":"set_label","entryId":"e1"}`, ``, nil},
	{"get_piglets", func(ctx context.Context, c *Client) (any, error) { return c.GetPiglets(ctx) },
		`{"type":"get_piglets"}`, `{"current":null,"piglets":[{"name":"reviewer","filePath":"/p/reviewer.md","scope":"user"}]}`,
		func(t *testing.T, got any) {
			p := got.(*Piglets)
			equal(t, []any{p.Current, p.Piglets[0].Name, p.Piglets[0].Scope}, []any{"", "reviewer", "user"})
		}},
	{"set_piglet", func(ctx context.Context, c *Client) (any, error) { return c.SetPiglet(ctx, "reviewer") },
		`{"type":"set_piglet","name":"reviewer"}`, `{"name":"reviewer","model":"p/m","tools":["read"],"needsRestart":[]}`,
		func(t *testing.T, got any) {
			p := got.(*PigletSwitch)
			equal(t, []any{p.Name, p.Model, p.Tools, p.Extensions == nil}, []any{"reviewer", "p/m", []string{"read"}, true})
		}},
	{"do", func(ctx context.Context, c *Client) (any, error) {
		data, err := c.Do(ctx, "some_future_command", map[string]any{"x": 1})
		return string(data), err
	}, `{"type":"some_future_command","x":1}`, `{"y":2}`, func(t *testing.T, got any) { equal(t, got, `{"y":2}`) }},
}

func TestEveryCommandSendsItsFieldsAndDecodesItsAnswer(t *testing.T) {
	for _, tc := range commandCases {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Options{})
			ctx := ctxFor(t)
			var got any
			done := async(func() (err error) {
				got, err = tc.call(ctx, f.client)
				return err
			})
			cmd := f.next()
			id := cmd["id"]
			delete(cmd, "id")
			var want map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tc.sent), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(canonical(t, cmd), canonical(t, want)) {
				t.Fatalf("sent %v, want %s", canonical(t, cmd), tc.sent)
			}
			if str(id) == "" {
				t.Fatalf("the command has no string id: %s", id)
			}
			cmd["id"] = id
			if tc.data == "" {
				f.respond(cmd, nil)
			} else {
				f.respondRaw(cmd, tc.data)
			}
			if err := await(t, done); err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

// TestEveryCommandPigAnswersHasAMethod reads the commands pig's RPC mode accepts from its
// source, so a command pig gains fails here until it has a method (and a case above).
func TestEveryCommandPigAnswersHasAMethod(t *testing.T) {
	const file = "rpc-command-schema.ts"
	source, err := os.ReadFile(filepath.Join("..", "..", "..", "src", "modes", file))
	if err != nil {
		t.Skipf("pig's source is not beside the SDK: %v", err)
	}
	schema := string(source)
	start := strings.Index(schema, "export const CommandSchema")
	if start < 0 {
		t.Fatalf("%s has no CommandSchema; has it moved?", file)
	}
	schema = schema[start:]
	if end := strings.Index(schema, "]);"); end >= 0 {
		schema = schema[:end]
	}
	names := regexp.MustCompile(`type: v\.literal\("([a-z_]+)"\)`).FindAllStringSubmatch(schema, -1)
	if len(names) < 30 {
		t.Fatalf("found only %d commands in %s; has its shape changed?", len(names), file)
	}
	covered := map[string]bool{}
	for _, tc := range commandCases {
		var sent struct{ Type string }
		if err := json.Unmarshal([]byte(tc.sent), &sent); err != nil {
			t.Fatal(err)
		}
		covered[sent.Type] = true
	}
	for _, name := range names {
		if !covered[name[1]] {
			t.Errorf("no method sends %s", name[1])
		}
	}
}

func canonical(t *testing.T, m map[string]json.RawMessage) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, v := range m {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			t.Fatal(err)
		}
		out[k] = x
	}
	return out
}

func TestARefusedCommandIsACommandErrorNamingIt(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	done := async(func() error {
		_, err := f.client.SetModel(ctx, "nope", "x")
		return err
	})
	f.refuse(f.expect("set_model"), "Model not found: nope/x")
	err := await(t, done)
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Command != "set_model" || ce.Message != "Model not found: nope/x" || ce.Err != nil {
		t.Fatalf("got %#v", err)
	}
	if err.Error() != "pig rpc set_model: Model not found: nope/x" {
		t.Fatalf("message %q", err.Error())
	}
	if errors.Is(err, ErrClosed) {
		t.Fatal("a refusal is not a closed connection")
	}
}

func TestAnAnswerOfAnUnexpectedShapeIsAnErrorNamingTheCommand(t *testing.T) {
	f := newFake(t, Options{})
	ctx := ctxFor(t)
	done := async(func() error {
		_, err := f.client.GetState(ctx)
		return err
	})
	f.respondRaw(f.expect("get_state"), `{"messageCount":"many"}`)
	var ce *CommandError
	if err := await(t, done); !errors.As(err, &ce) || ce.Command != "get_state" || !strings.HasPrefix(ce.Message, "unexpected answer") {
		t.Fatalf("got %v", err)
	}
}
