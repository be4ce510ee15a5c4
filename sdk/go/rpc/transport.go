package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

func (c *Client) closeInput() {
	c.closeOnce.Do(func() { _ = c.closeIn() })
}

// read is the one goroutine that reads pig's output, until it ends.
func (c *Client) read(r io.Reader) {
	lr := newLineReader(r, c.opts.MaxLineBytes)
	var seq uint64
	var cause error
	for {
		line, err := lr.next()
		if err != nil {
			cause = err
			break
		}
		seq++
		c.handleLine(seq, line)
	}
	if c.proc != nil {
		// The exit code says more than the closed pipe.
		if errors.Is(cause, ErrLineTooLong) {
			_ = c.Kill()
		}
		<-c.exited
		if errors.Is(cause, ErrLineTooLong) {
			c.finish(&closedError{cause: cause})
			return
		}
		c.finish(c.exit)
		return
	}
	if errors.Is(cause, io.EOF) {
		c.finish(errEOF)
		return
	}
	c.finish(&closedError{cause: cause})
}

// lineHead is what the reader needs of every line.
type lineHead struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id"`
	Success bool            `json:"success"`
	Error   string          `json:"error"`
}

func (c *Client) handleLine(seq uint64, line []byte) {
	var typ, id, success, message, data, command json.RawMessage
	if topFields(line, map[string]*json.RawMessage{"type": &typ, "id": &id, "success": &success, "error": &message, "data": &data, "command": &command}) != nil {
		return // not a JSON object: pig writes none
	}
	var head lineHead
	_ = json.Unmarshal(typ, &head.Type)
	idText := idString(id)
	switch head.Type {
	case "response":
		_ = json.Unmarshal(success, &head.Success)
		_ = json.Unmarshal(message, &head.Error)
		c.mu.Lock()
		p := c.pending[idText]
		if p != nil {
			delete(c.pending, idText)
		}
		c.mu.Unlock()
		c.mark(seq)
		if p == nil {
			// A response nobody waits for (a cancelled call, or a line pig could not parse).
			c.publish(seq, &UnknownEvent{EventHeader: EventHeader{Type: "response", Raw: append(json.RawMessage(nil), line...)}})
			return
		}
		p.answer <- &response{seq: seq, success: head.Success, message: head.Error, data: append(json.RawMessage(nil), data...)}
	case "extension_ui_request":
		c.handleUI(line)
	default:
		ev := decodeEvent(head.Type, line)
		if u, ok := ev.(*BashExecutionUpdateEvent); ok {
			u.ID = idText
			c.mu.Lock()
			p := c.pending[idText]
			c.mu.Unlock()
			if p != nil {
				p.mu.Lock()
				p.updates = append(p.updates, u.Delta)
				p.mu.Unlock()
				select {
				case p.notify <- struct{}{}:
				default:
				}
			}
		}
		c.publish(seq, ev)
	}
}

// idString is an id as the string it was sent as ("" for none; other JSON as its text).
func idString(id json.RawMessage) string {
	if len(id) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

func (c *Client) publish(seq uint64, ev Event) {
	it := item{seq: seq, ev: ev}
	c.mu.Lock()
	for s := range c.subs {
		if s.wants(ev) {
			s.q.push(it)
		}
	}
	for w := range c.waiters {
		w.push(it)
	}
	c.mu.Unlock()
	c.callbacks.push(it)
}

// mark tells the waiters where a response was in the stream.
func (c *Client) mark(seq uint64) {
	c.mu.Lock()
	for w := range c.waiters {
		w.push(item{seq: seq})
	}
	c.mu.Unlock()
}

// finish ends the client: every waiting call and waiter returns err.
func (c *Client) finish(err error) {
	c.mu.Lock()
	if c.finished {
		c.mu.Unlock()
		return
	}
	c.finished = true
	c.err = err
	for s := range c.subs {
		s.q.close()
	}
	for w := range c.waiters {
		w.close()
	}
	c.mu.Unlock()
	c.callbacks.close()
	c.uiOrdered.close()
	c.stop()
	c.closeInput()
	close(c.done)
}

// newWaiter is a queue of every line from now on (events and response marks).
func (c *Client) newWaiter() *queue {
	q := newQueue()
	c.mu.Lock()
	if c.finished {
		q.close()
	} else {
		c.waiters[q] = struct{}{}
	}
	c.mu.Unlock()
	return q
}

func (c *Client) dropWaiter(q *queue) {
	c.mu.Lock()
	delete(c.waiters, q)
	c.mu.Unlock()
	q.close()
}

// writeLoop writes the lines, one whole line per write, in the order they were handed over.
func (c *Client) writeLoop() {
	var broken error
	for {
		select {
		case o := <-c.writes:
			switch {
			case o.ctx.Err() != nil:
				o.result <- o.ctx.Err()
			case broken != nil:
				o.result <- broken
			default:
				if _, err := c.in.Write(o.line); err != nil {
					broken = err
				}
				o.result <- broken
			}
		case <-c.done:
			return
		}
	}
}

// write hands a line to the writer. A cancelled ctx stops the wait, not a line being written,
// so a line is never cut in half.
func (c *Client) write(ctx context.Context, line []byte) error {
	o := &outgoing{line: line, ctx: ctx, result: make(chan error, 1)}
	select {
	case c.writes <- o:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.Err()
	}
	select {
	case err := <-o.result:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call sends a command and waits for its answer. fields are the command's own (besides type
// and id); onOutput gets the bash_execution_update deltas carrying the command's id, on the
// caller's goroutine, before call returns.
func (c *Client) call(ctx context.Context, command string, fields map[string]any, onOutput func(string)) (*response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	msg := map[string]any{}
	for k, v := range fields {
		msg[k] = v
	}
	p := &pendingCall{command: command, answer: make(chan *response, 1), notify: make(chan struct{}, 1)}
	c.mu.Lock()
	if c.finished {
		err := c.err
		c.mu.Unlock()
		return nil, &CommandError{Command: command, Err: err}
	}
	c.nextID++
	id := "go-" + strconv.FormatUint(c.nextID, 10)
	c.pending[id] = p
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	msg["type"], msg["id"] = command, id
	line, err := encodeLine(msg)
	if err != nil {
		return nil, &CommandError{Command: command, Message: "cannot encode the command", Err: err}
	}
	if err := c.write(ctx, line); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		select {
		case <-c.done:
			return nil, &CommandError{Command: command, Err: c.Err()}
		default:
			return nil, &CommandError{Command: command, Message: "cannot write to pig", Err: err}
		}
	}
	deliver := func() {
		p.mu.Lock()
		updates := p.updates
		p.updates = nil
		p.mu.Unlock()
		if onOutput != nil {
			for _, u := range updates {
				onOutput(u)
			}
		}
	}
	answered := func(r *response) (*response, error) {
		// Output lines come before the response: all of them are in by now.
		deliver()
		if !r.success {
			return nil, &CommandError{Command: command, Message: r.message}
		}
		return r, nil
	}
	for {
		select {
		case r := <-p.answer:
			return answered(r)
		case <-p.notify:
			deliver()
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.done:
			select {
			case r := <-p.answer:
				return answered(r)
			default:
				return nil, &CommandError{Command: command, Err: c.Err()}
			}
		}
	}
}

// decodeData decodes a response's data into v; a shape this package does not expect is an
// error naming the command.
func decodeData(command string, r *response, v any) error {
	if len(r.data) == 0 || string(r.data) == "null" {
		return nil
	}
	if err := json.Unmarshal(r.data, v); err != nil {
		return &CommandError{Command: command, Message: "unexpected answer: " + err.Error(), Err: err}
	}
	return nil
}
