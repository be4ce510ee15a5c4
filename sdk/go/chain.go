package sdk

import (
	"encoding/json"
	"fmt"
	"os"
)

type fields = map[string]json.RawMessage

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// runHandlers runs one extension's handlers for one event in registration order, combining
// their results as pig combines extensions (docs §3, "Chaining rules"): each handler sees the
// payload as the ones before it left it. A handler that fails is reported with
// `extension.error` and skipped — except for tool_call, where a failure blocks the call.
func (x *Extension) runHandlers(c *Context, event string, payload json.RawMessage, handlers []eventHandler) (json.RawMessage, error) {
	p := fields{}
	if !isNull(payload) {
		if err := json.Unmarshal(payload, &p); err != nil {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "payload: " + err.Error()}
		}
	}
	current := func() json.RawMessage { return mustRaw(p) }
	var last json.RawMessage
	changed := map[string]bool{}
	var collected []json.RawMessage
	for _, h := range handlers {
		raw, err := x.safely(c, event, h, current())
		if err != nil {
			if event == "tool_call" {
				return nil, err
			}
			x.report(event, err)
			continue
		}
		if isNull(raw) {
			continue
		}
		var r fields
		_ = json.Unmarshal(raw, &r)
		switch event {
		case "tool_call":
			if string(r["block"]) == "true" {
				return raw, nil
			}
			if !isNull(r["input"]) {
				p["input"] = r["input"]
				changed["input"] = true
			}
		case "context", "context_with_system", "message_end", "turn_end", "agent_before_settle", "tool_result":
			for _, key := range []string{"messages", "message", "entries", "continue", "content", "details", "isError"} {
				if v, ok := r[key]; ok && !isNull(v) {
					p[key] = v
					changed[key] = true
				}
			}
		case "input":
			switch string(r["action"]) {
			case `"handled"`:
				return raw, nil
			case `"transform"`:
				p["text"] = r["text"]
				changed["text"] = true
				if v, ok := r["images"]; ok {
					p["images"] = v
					changed["images"] = true
				}
			}
		case "before_agent_start":
			if !isNull(r["message"]) {
				collected = append(collected, r["message"])
			}
			if s := r["systemPrompt"]; !isNull(s) && string(s) != `""` {
				p["systemPrompt"] = s
				changed["systemPrompt"] = true
			}
		case "before_provider_request":
			p["payload"] = raw
			last = raw
		default:
			last = raw
			if string(r["cancel"]) == "true" {
				return raw, nil
			}
		}
	}
	switch event {
	case "input":
		if !changed["text"] {
			return nil, nil
		}
		out := fields{"action": json.RawMessage(`"transform"`), "text": p["text"]}
		if changed["images"] {
			out["images"] = p["images"]
		}
		return mustRaw(out), nil
	case "before_agent_start":
		if len(collected) == 0 && !changed["systemPrompt"] {
			return nil, nil
		}
		out := fields{}
		if len(collected) > 0 {
			out["message"] = collected[0]
		}
		if len(collected) > 1 {
			out["messages"] = mustRaw(collected)
		}
		if changed["systemPrompt"] {
			out["systemPrompt"] = p["systemPrompt"]
		}
		return mustRaw(out), nil
	case "tool_call", "context", "context_with_system", "message_end", "turn_end", "agent_before_settle", "tool_result":
		if len(changed) == 0 {
			return nil, nil
		}
		out := fields{}
		for key := range changed {
			out[key] = p[key]
		}
		return mustRaw(out), nil
	}
	return last, nil
}

// safely runs one handler; a panic becomes its error.
func (x *Extension) safely(c *Context, event string, h eventHandler, payload json.RawMessage) (raw json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s handler panicked: %v", event, r)
		}
	}()
	return h(c, payload)
}

// report tells pig a handler failed (the session's extension_error) and logs it on stderr.
func (x *Extension) report(event string, err error) {
	fmt.Fprintf(os.Stderr, "[%s] %s handler failed: %v\n", x.id, event, err)
	_ = x.peer.notify("extension.error", map[string]any{"extension": x.id, "event": event, "error": err.Error()})
}
