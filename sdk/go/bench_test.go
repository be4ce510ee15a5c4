package sdk

import (
	"encoding/json"
	"testing"
)

// BenchmarkToolRoundTrip is one tool.execute from the fake host to its answer, over a Unix
// socket pair: the SDK's share of a tool call (go test -bench ToolRoundTrip).
func BenchmarkToolRoundTrip(b *testing.B) {
	h := startHost(b, func(x *Extension) {
		x.RegisterTool(Tool{Name: "echo", Execute: func(*ToolContext, json.RawMessage) (ToolResult, error) {
			return ToolResult{Content: []Content{Text("ok")}}, nil
		}})
	}, nil, nil)
	args := map[string]any{"extension": "x", "name": "echo", "toolCallId": "c", "args": map[string]any{"path": "src/a.ts", "count": 1}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := h.request("tool.execute", args)
		h.answerTo(b, id)
		h.mu.Lock()
		h.frames = h.frames[:0]
		h.mu.Unlock()
	}
}
