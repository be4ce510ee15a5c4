package sdk

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
)

type fields = map[string]json.RawMessage

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// rules says how each event's answers combine: the last column of the event table of
// docs/extension-protocol.md §3. The tests hold it to pig's table
// (test/fixtures/extension-events/events.json) and run pig's chaining cases through chain.
var rules = map[string]string{
	"project_trust":           "first-that-decides",
	"resources_discover":      "collect",
	"session_start":           "ignore",
	"session_before_switch":   "cancel-or-last",
	"session_before_fork":     "cancel-or-last",
	"session_before_compact":  "cancel-or-last",
	"session_shutdown":        "ignore",
	"session_before_tree":     "cancel-or-last",
	"context":                 "replace-field",
	"context_with_system":     "replace-field",
	"cache_warming_decision":  "patch-fields",
	"before_provider_request": "replace-payload",
	"before_provider_headers": "merge-objects",
	"before_agent_start":      "collect-messages-pass-prompt",
	"agent_before_settle":     "boundary",
	"turn_end":                "boundary",
	"message_end":             "replace-field",
	"user_bash":               "first-that-decides",
	"input":                   "handled-or-transform",
	"tool_call":               "block-or-edit",
	"tool_result":             "patch-fields",
}

// ruleFields are the fields a rule works on, for the events whose rule takes some.
var ruleFields = map[string][]string{
	"context":                 {"messages"},
	"context_with_system":     {"messages"},
	"message_end":             {"message"},
	"before_provider_request": {"payload"},
	"before_provider_headers": {"headers"},
	"tool_result":             {"content", "details", "structuredContent", "isError"},
	"cache_warming_decision":  {"action"},
	"resources_discover":      {"skillPaths", "promptPaths", "themePaths"},
	"user_bash":               {"result"},
	"project_trust":           {"trusted"},
}

// decidingValues: for first-that-decides, the values that decide (any, when absent).
var decidingValues = map[string][]string{"project_trust": {"yes", "no"}}

// runHandlers runs one extension's handlers for one event in registration order, combining
// their results as pig combines extensions (docs §3): each handler sees the payload as the
// ones before it left it. A handler that fails is reported with `extension.error` and
// skipped — except for tool_call, where a failure blocks the call (the error answer is its
// report).
func (x *Extension) runHandlers(c *Context, event string, payload json.RawMessage, handlers []eventHandler) (json.RawMessage, error) {
	return chain(event, payload, handlers,
		func(h eventHandler, p json.RawMessage) (json.RawMessage, error) { return x.safely(c, event, h, p) },
		func(err error) { x.report(event, err) })
}

// chain combines handlers' answers to one event by the event's rule; run calls one handler.
func chain(event string, payload json.RawMessage, handlers []eventHandler, run func(eventHandler, json.RawMessage) (json.RawMessage, error), report func(error)) (json.RawMessage, error) {
	p := fields{}
	if !isNull(payload) {
		if err := json.Unmarshal(payload, &p); err != nil {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "payload: " + err.Error()}
		}
	}
	rule, ok := rules[event]
	if !ok {
		rule = "ignore"
	}
	fs := ruleFields[event]
	changed := map[string]bool{}
	collected := map[string][]json.RawMessage{}
	var messages []json.RawMessage
	var last json.RawMessage
	var before map[string]any
	if rule == "merge-objects" {
		before, _ = object(p[fs[0]])
	}
	for _, h := range handlers {
		raw, err := run(h, mustRaw(p))
		if err != nil {
			if rule == "block-or-edit" {
				return nil, err
			}
			report(err)
			continue
		}
		if isNull(raw) || rule == "ignore" {
			continue
		}
		var r fields
		_ = json.Unmarshal(raw, &r)
		switch rule {
		case "block-or-edit":
			if string(r["block"]) == "true" {
				return raw, nil
			}
			if !isNull(r["input"]) {
				p["input"] = r["input"]
				changed["input"] = true
			}
		case "handled-or-transform":
			switch string(r["action"]) {
			case `"handled"`:
				return raw, nil
			case `"transform"`:
				p["text"] = r["text"]
				changed["text"] = true
				if !isNull(r["images"]) {
					p["images"] = r["images"]
				}
			}
		case "replace-field":
			if !isNull(r[fs[0]]) {
				p[fs[0]] = r[fs[0]]
				changed[fs[0]] = true
			}
		case "replace-payload":
			p[fs[0]] = raw
			changed[fs[0]] = true
		case "patch-fields":
			for _, key := range fs {
				if v, ok := r[key]; ok {
					p[key] = v
					changed[key] = true
				}
			}
		case "merge-objects":
			if edits, ok := object(r[fs[0]]); ok {
				current, _ := object(p[fs[0]])
				for k, v := range edits {
					current[k] = v
				}
				p[fs[0]] = mustRaw(current)
			}
		case "collect":
			for _, key := range fs {
				var items []json.RawMessage
				if json.Unmarshal(r[key], &items) == nil {
					collected[key] = append(collected[key], items...)
				}
			}
		case "collect-messages-pass-prompt":
			var several []json.RawMessage
			if json.Unmarshal(r["messages"], &several) == nil && len(several) > 0 {
				messages = append(messages, several...)
			} else if !isNull(r["message"]) {
				messages = append(messages, r["message"])
			}
			if s := r["systemPrompt"]; !isNull(s) && string(s) != `""` {
				p["systemPrompt"] = s
				changed["systemPrompt"] = true
			}
		case "boundary":
			for _, key := range []string{"entries", "continue"} {
				if v := r[key]; !isNull(v) {
					p[key] = v
					changed[key] = true
				}
			}
		case "first-that-decides":
			if v := r[fs[0]]; !isNull(v) && decides(event, v) {
				return raw, nil
			}
		case "cancel-or-last":
			last = raw
			if string(r["cancel"]) == "true" {
				return raw, nil
			}
		}
	}
	return answer(rule, fs, p, changed, collected, messages, last, before), nil
}

// answer is what the chain sends back once every handler has run.
func answer(rule string, fs []string, p fields, changed map[string]bool, collected map[string][]json.RawMessage, messages []json.RawMessage, last json.RawMessage, before map[string]any) json.RawMessage {
	switch rule {
	case "cancel-or-last":
		return last
	case "collect":
		if len(collected) == 0 {
			return nil
		}
		return mustRaw(collected)
	case "merge-objects":
		current, _ := object(p[fs[0]])
		changes := map[string]any{}
		for k, v := range current {
			if old, ok := before[k]; !ok || !reflect.DeepEqual(old, v) {
				changes[k] = v
			}
		}
		for k := range before {
			if _, ok := current[k]; !ok {
				changes[k] = nil
			}
		}
		if len(changes) == 0 {
			return nil
		}
		return mustRaw(map[string]any{fs[0]: changes})
	}
	if len(changed) == 0 && len(messages) == 0 {
		return nil
	}
	out := fields{}
	switch rule {
	case "replace-payload":
		return p[fs[0]]
	case "handled-or-transform":
		out["action"] = json.RawMessage(`"transform"`)
		out["text"] = p["text"]
		if !isNull(p["images"]) {
			out["images"] = p["images"]
		}
	case "collect-messages-pass-prompt":
		if len(messages) > 0 {
			out["message"] = messages[0]
		}
		if len(messages) > 1 {
			out["messages"] = mustRaw(messages)
		}
		if changed["systemPrompt"] {
			out["systemPrompt"] = p["systemPrompt"]
		}
	case "boundary":
		out["entries"], out["continue"] = p["entries"], p["continue"]
		if isNull(out["entries"]) {
			out["entries"] = json.RawMessage(`[]`)
		}
		if isNull(out["continue"]) {
			out["continue"] = json.RawMessage(`false`)
		}
	default:
		for key := range changed {
			out[key] = p[key]
		}
	}
	return mustRaw(out)
}

// object decodes a JSON object (an empty one, and false, for anything else).
func object(raw json.RawMessage) (map[string]any, bool) {
	out := map[string]any{}
	if isNull(raw) || json.Unmarshal(raw, &out) != nil {
		return map[string]any{}, false
	}
	return out, true
}

func decides(event string, v json.RawMessage) bool {
	values, limited := decidingValues[event]
	if !limited {
		return true
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return false
	}
	for _, want := range values {
		if s == want {
			return true
		}
	}
	return false
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
