package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

type target struct {
	Extension  string          `json:"extension"`
	Event      string          `json:"event"`
	Payload    json.RawMessage `json:"payload"`
	Name       string          `json:"name"`
	ToolCallID string          `json:"toolCallId"`
	Args       json.RawMessage `json:"args"`
	Prefix     string          `json:"prefix"`
	Key        string          `json:"key"`
}

// request handles one of pig's requests on a goroutine of its own, so the reading goroutine
// stays free for ping and $/cancel.
func (x *Extension) request(id json.RawMessage, method string, params json.RawMessage) {
	var t target
	if err := json.Unmarshal(params, &t); err != nil && len(params) > 0 {
		x.peer.respond(id, nil, &RPCError{Code: CodeInvalidParams, Message: err.Error()})
		return
	}
	var run func(ctx context.Context) (any, error)
	switch method {
	case "event":
		run = func(ctx context.Context) (any, error) {
			raw, err := x.runEvent(x.newContext(ctx, nil), t.Event, t.Payload)
			if isNull(raw) {
				return nil, err
			}
			return raw, err
		}
	case "tool.execute":
		run = func(ctx context.Context) (any, error) { return x.executeTool(ctx, id, t) }
	case "command.run":
		run = func(ctx context.Context) (any, error) {
			x.mu.Lock()
			cmd, ok := x.commands[t.Name]
			x.mu.Unlock()
			if !ok {
				return nil, &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf("no command %s", t.Name)}
			}
			var args struct {
				Args string `json:"args"`
			}
			_ = json.Unmarshal(params, &args)
			return struct{}{}, protect("command "+t.Name, func() error { return cmd.Run(x.newContext(ctx, nil), args.Args) })
		}
	case "command.complete":
		run = func(ctx context.Context) (any, error) {
			x.mu.Lock()
			cmd := x.commands[t.Name]
			x.mu.Unlock()
			var items []Completion
			if cmd.Complete != nil {
				err := protect("completion "+t.Name, func() error { items = cmd.Complete(t.Prefix); return nil })
				if err != nil {
					return nil, err
				}
			}
			return map[string]any{"items": items}, nil
		}
	case "shortcut.run":
		run = func(ctx context.Context) (any, error) {
			x.mu.Lock()
			s, ok := x.keys[t.Key]
			x.mu.Unlock()
			if !ok {
				return nil, &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf("no shortcut %s", t.Key)}
			}
			return struct{}{}, protect("shortcut "+t.Key, func() error { return s.Run(x.newContext(ctx, nil)) })
		}
	case "check.mirror":
		run = func(ctx context.Context) (any, error) { return x.mirror.checkView(), nil }
	default:
		x.peer.respond(id, nil, &RPCError{Code: CodeMethodNotFound, Message: "method not found: " + method})
		return
	}
	ctx, done := x.peer.track(id)
	go func() {
		defer done()
		result, err := run(ctx)
		if ctx.Err() != nil && x.peer.life.Err() == nil {
			err = &RPCError{Code: CodeCancelled, Message: "cancelled"}
		}
		x.peer.respond(id, result, err)
	}()
}

func protect(what string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", what, r)
		}
	}()
	return fn()
}

func (x *Extension) runEvent(c *Context, event string, payload json.RawMessage) (json.RawMessage, error) {
	x.mu.Lock()
	handlers := append([]eventHandler(nil), x.handlers[event]...)
	x.mu.Unlock()
	if len(handlers) == 0 {
		return nil, nil
	}
	return x.runHandlers(c, event, payload, handlers)
}

func (x *Extension) executeTool(ctx context.Context, id json.RawMessage, t target) (any, error) {
	x.mu.Lock()
	tool, ok := x.tools[t.Name]
	x.mu.Unlock()
	if !ok || tool.Execute == nil {
		return nil, &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf("no tool %s", t.Name)}
	}
	tc := &ToolContext{Context: x.newContext(ctx, nil), ToolCallID: t.ToolCallID, request: id}
	var result ToolResult
	err := protect("tool "+t.Name, func() error {
		var err error
		result, err = tool.Execute(tc, t.Args)
		return err
	})
	if err != nil {
		return ToolResult{Content: []Content{Text(err.Error())}, IsError: true}, nil
	}
	if result.Content == nil {
		result.Content = []Content{}
	}
	return result, nil
}

// notification handles what pig tells: state and log changes at once, in order; events, state
// and bus callbacks on one goroutine, in order, so a slow handler does not stop the reader.
func (x *Extension) notification(method string, params json.RawMessage) {
	switch method {
	case "state":
		var s State
		if json.Unmarshal(params, &s) != nil {
			return
		}
		s.Raw = params
		x.mu.Lock()
		x.state = s
		for k, v := range s.Flags {
			x.flagVals[k] = v
		}
		fns := append([]func(State){}, x.onState...)
		x.mu.Unlock()
		for _, fn := range fns {
			fn := fn
			x.events.push(func() { _ = protect("state callback", func() error { fn(s); return nil }) })
		}
	case "session.appended", "session.leaf", "session.replaced":
		x.mirror.apply(method, params)
	case "event":
		var t target
		if json.Unmarshal(params, &t) != nil {
			return
		}
		x.events.push(func() {
			if _, err := x.runEvent(x.newContext(x.peer.life, nil), t.Event, t.Payload); err != nil {
				x.report(t.Event, err)
			}
		})
	case "bus.message":
		var m struct {
			Channel string          `json:"channel"`
			Data    json.RawMessage `json:"data"`
		}
		if json.Unmarshal(params, &m) != nil {
			return
		}
		x.mu.Lock()
		fns := append([]func(string, json.RawMessage){}, x.onBus...)
		x.mu.Unlock()
		for _, fn := range fns {
			fn := fn
			x.events.push(func() { _ = protect("bus callback", func() error { fn(m.Channel, m.Data); return nil }) })
		}
	case "shutdown":
		x.mu.Lock()
		x.shutdown = true
		x.mu.Unlock()
		x.peer.shutdown()
	}
}

func (x *Extension) shutdownSeen() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.shutdown
}

// queue is an unbounded FIFO of jobs run by one goroutine: pushing never blocks the reader.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	jobs   []func()
	closed bool
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) push(job func()) {
	q.mu.Lock()
	if !q.closed {
		q.jobs = append(q.jobs, job)
	}
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// run works until the queue is closed (jobs still queued then are dropped).
func (q *queue) run() {
	for {
		q.mu.Lock()
		for len(q.jobs) == 0 && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			return
		}
		job := q.jobs[0]
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		job()
	}
}
