package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
)

// ErrClosed is returned by calls made after the connection to pig closed.
var ErrClosed = errors.New("pig-ext: the connection to pig is closed")

// reply is the answer to one of our requests; onReply, when set, runs on the reading goroutine
// before any later message is handled (the session snapshot relies on it, docs §5).
type pending struct {
	done    chan *frame
	onReply func(*frame)
}

// incoming is a request of pig's we are working on.
type incoming struct {
	cancel context.CancelFunc
}

// peer is one side of a pig-ext/1 connection: it sends requests and notifications, matches
// answers, and hands pig's requests and notifications to the router.
type peer struct {
	w       *writer
	rd      *reader
	closer  io.Closer
	trace   func(method string)
	life    context.Context
	stop    context.CancelFunc
	nextID  int64
	mu      sync.Mutex
	maxSize int
	out     map[string]*pending
	in      map[string]*incoming
	closed  bool
}

func newPeer(conn io.ReadWriteCloser, trace func(string)) *peer {
	life, stop := context.WithCancel(context.Background())
	p := &peer{closer: conn, trace: trace, life: life, stop: stop, maxSize: DefaultMaxFrameBytes, out: map[string]*pending{}, in: map[string]*incoming{}}
	p.w = &writer{w: conn, maxFrame: DefaultMaxFrameBytes}
	p.rd = newReader(conn, p.maxFrame)
	return p
}

func (p *peer) maxFrame() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.maxSize
}

func (p *peer) setMaxFrame(n int) {
	p.mu.Lock()
	p.maxSize = n
	p.mu.Unlock()
	p.w.setMaxFrame(n)
}

// notify sends a notification; after the connection closed it is dropped.
func (p *peer) notify(method string, params any) error {
	raw, err := encode(params)
	if err != nil {
		return err
	}
	if err := p.w.send(&frame{Method: method, Params: raw}); err != nil {
		return ErrClosed
	}
	return nil
}

// call sends a request and waits for its answer, or until ctx ends (then pig is sent
// `$/cancel` and ctx's error returned). result may be nil.
func (p *peer) call(ctx context.Context, method string, params any, result any) error {
	return p.callWith(ctx, method, params, result, nil)
}

func (p *peer) callWith(ctx context.Context, method string, params any, result any, onReply func(*frame)) error {
	raw, err := encode(params)
	if err != nil {
		return err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	p.nextID++
	id := strconv.FormatInt(p.nextID, 10)
	wait := &pending{done: make(chan *frame, 1), onReply: onReply}
	p.out[id] = wait
	p.mu.Unlock()
	if err := p.w.send(&frame{ID: json.RawMessage(id), Method: method, Params: raw}); err != nil {
		p.forget(id)
		return ErrClosed
	}
	select {
	case f := <-wait.done:
		if f == nil {
			return ErrClosed
		}
		if f.Error != nil {
			return f.Error
		}
		if result != nil {
			return f.result(result)
		}
		return nil
	case <-ctx.Done():
		p.forget(id)
		_ = p.notify("$/cancel", map[string]any{"id": json.RawMessage(id)})
		return ctx.Err()
	}
}

func (p *peer) forget(id string) {
	p.mu.Lock()
	delete(p.out, id)
	p.mu.Unlock()
}

// respond answers one of pig's requests with a result or an error.
func (p *peer) respond(id json.RawMessage, result any, err error) {
	f := &frame{ID: id}
	if err != nil {
		var rpc *RPCError
		if !errors.As(err, &rpc) {
			rpc = &RPCError{Code: CodeHandlerFailed, Message: err.Error()}
		}
		f.Error = rpc
	} else {
		raw, encErr := encode(result)
		if encErr != nil {
			f.Error = &RPCError{Code: CodeHandlerFailed, Message: encErr.Error()}
		} else {
			f.Result = raw
		}
	}
	_ = p.w.send(f)
}

// router receives what pig sends. Requests are answered through respond; handle must not
// block the reading goroutine for long (start a goroutine for real work).
type router interface {
	request(id json.RawMessage, method string, params json.RawMessage)
	notification(method string, params json.RawMessage)
}

// serve reads until the connection closes. ping and $/cancel are handled here, at once.
func (p *peer) serve(r router) error {
	defer p.shutdown()
	for {
		f, over, err := p.rd.next()
		if err != nil {
			if errors.Is(err, io.EOF) || p.life.Err() != nil {
				return nil
			}
			return err
		}
		if over != nil {
			p.dropOversize(over)
			continue
		}
		if p.trace != nil && f.Method != "" {
			p.trace(f.Method)
		}
		switch {
		case f.Method == "" && !f.hasID():
			if f.Error != nil {
				fmt.Fprintf(os.Stderr, "pig-ext: %s\n", f.Error.Message)
				if f.Error.Code == CodeFrameTooLarge {
					p.respond(json.RawMessage("null"), nil, f.Error)
				}
			}
		case f.Method == "":
			p.answered(f)
		case f.Method == "ping" && f.hasID():
			p.respond(f.ID, struct{}{}, nil)
		case f.Method == "$/cancel":
			var c struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(f.Params, &c) == nil {
				p.cancelIncoming(c.ID)
			}
		case f.Method == "$/progress":
			// pig does not report progress on our requests.
		case f.hasID():
			r.request(f.ID, f.Method, f.Params)
		default:
			r.notification(f.Method, f.Params)
		}
	}
}

func (p *peer) dropOversize(o *oversize) {
	err := &RPCError{Code: CodeFrameTooLarge, Message: fmt.Sprintf("frame of %d bytes exceeds the limit of %d bytes", o.size, p.maxFrame())}
	switch {
	case o.isRequest && o.id != nil:
		p.respond(o.id, nil, err)
	case o.isRequest:
	case o.id != nil:
		p.fail(string(o.id), err)
		p.respond(json.RawMessage("null"), nil, err)
	default:
		p.failAll(err)
		p.respond(json.RawMessage("null"), nil, err)
	}
}

func (p *peer) answered(f *frame) {
	id := string(f.ID)
	p.mu.Lock()
	wait := p.out[id]
	delete(p.out, id)
	p.mu.Unlock()
	if wait == nil {
		return // late: the caller stopped waiting
	}
	if wait.onReply != nil && f.Error == nil {
		wait.onReply(f)
	}
	wait.done <- f
}

func (p *peer) fail(id string, err *RPCError) {
	p.answered(&frame{ID: json.RawMessage(id), Error: err})
}

func (p *peer) failAll(err *RPCError) {
	p.mu.Lock()
	ids := make([]string, 0, len(p.out))
	for id := range p.out {
		ids = append(ids, id)
	}
	p.mu.Unlock()
	for _, id := range ids {
		p.fail(id, err)
	}
}

// track registers one of pig's requests so `$/cancel` can reach it; untrack when answered.
func (p *peer) track(id json.RawMessage) (context.Context, func()) {
	ctx, cancel := context.WithCancel(p.life)
	key := string(id)
	p.mu.Lock()
	p.in[key] = &incoming{cancel: cancel}
	p.mu.Unlock()
	return ctx, func() {
		p.mu.Lock()
		delete(p.in, key)
		p.mu.Unlock()
		cancel()
	}
}

func (p *peer) cancelIncoming(id json.RawMessage) {
	p.mu.Lock()
	in := p.in[string(id)]
	p.mu.Unlock()
	if in != nil {
		in.cancel()
	}
}

// shutdown ends every wait and every handler's context.
func (p *peer) shutdown() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	waits := p.out
	p.out = map[string]*pending{}
	p.mu.Unlock()
	p.stop()
	for _, w := range waits {
		w.done <- nil
	}
	_ = p.closer.Close()
}
