package rpc

import "sync"

// item is one line as a listener sees it: an event, or (ev nil) the mark of a response, so a
// listener can tell what came before the answer to one of its commands. seq numbers the lines
// in the order pig wrote them.
type item struct {
	seq uint64
	ev  Event
}

// queue is an unbounded FIFO: the reading goroutine never waits for a slow listener, and no
// event is dropped. A listener that stops reading must be closed, or the queue grows.
type queue struct {
	mu     sync.Mutex
	items  []item
	wake   chan struct{}
	closed bool
}

func newQueue() *queue {
	return &queue{wake: make(chan struct{}, 1)}
}

func (q *queue) push(it item) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, it)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// close ends the queue; what is in it can still be taken.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pop takes the first item, waiting for one. ok is false once the queue is closed and empty,
// or when stop is closed first.
func (q *queue) pop(stop <-chan struct{}) (it item, ok bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			it = q.items[0]
			q.items[0] = item{}
			q.items = q.items[1:]
			q.mu.Unlock()
			return it, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return item{}, false
		}
		select {
		case <-q.wake:
		case <-stop:
			return item{}, false
		}
	}
}

// Subscription delivers events on a channel, in the order pig wrote them. Close it when done
// reading; the channel is closed after Close, or after the client ended and every event
// before the end was delivered.
type Subscription struct {
	c     *Client
	q     *queue
	out   chan Event
	stop  chan struct{}
	once  sync.Once
	types map[string]bool
}

// Events is the subscription's channel.
func (s *Subscription) Events() <-chan Event { return s.out }

// Close stops the delivery and closes the channel (events not yet received are dropped).
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.c.mu.Lock()
		delete(s.c.subs, s)
		s.c.mu.Unlock()
		close(s.stop)
	})
}

func (s *Subscription) pump() {
	defer close(s.out)
	for {
		it, ok := s.q.pop(s.stop)
		if !ok {
			return
		}
		select {
		case s.out <- it.ev:
		case <-s.stop:
			return
		}
	}
}

func (s *Subscription) wants(ev Event) bool {
	return len(s.types) == 0 || s.types[ev.EventType()]
}

// Subscribe delivers the events of the given types (every event when none are named) on a
// channel from now on. Responses and extension UI requests are not events.
func (c *Client) Subscribe(types ...string) *Subscription {
	s := &Subscription{c: c, q: newQueue(), out: make(chan Event), stop: make(chan struct{})}
	if len(types) > 0 {
		s.types = map[string]bool{}
		for _, t := range types {
			s.types[t] = true
		}
	}
	c.mu.Lock()
	if c.finished {
		s.q.close()
	} else {
		c.subs[s] = struct{}{}
	}
	c.mu.Unlock()
	go s.pump()
	return s
}

// handler is a callback registered with OnEvent or On.
type handler struct {
	fn func(Event)
}

// OnEvent calls fn with every event from now on. All callbacks run on one goroutine of
// their own, in the order pig wrote the events, so they may call the client's methods; a
// callback that blocks holds up the later callbacks (not the client). Call the returned
// function to remove it. Options.OnEvent sees the events from the very first.
func (c *Client) OnEvent(fn func(Event)) (remove func()) {
	h := &handler{fn: fn}
	c.mu.Lock()
	c.handlers = append(c.handlers, h)
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, x := range c.handlers {
			if x == h {
				c.handlers = append(c.handlers[:i:i], c.handlers[i+1:]...)
				return
			}
		}
	}
}

// On calls fn with every event of type E from now on, like OnEvent:
//
//	rpc.On(c, func(e *rpc.MessageUpdateEvent) { fmt.Print(e.AssistantMessageEvent.Delta) })
//
// On(c, func(e *rpc.UnknownEvent) {…}) sees the lines this package does not decode.
func On[E Event](c *Client, fn func(E)) (remove func()) {
	return c.OnEvent(func(ev Event) {
		if e, ok := ev.(E); ok {
			fn(e)
		}
	})
}

// dispatch runs the callbacks, one event at a time.
func (c *Client) dispatch() {
	defer close(c.dispatched)
	for {
		it, ok := c.callbacks.pop(nil)
		if !ok {
			return
		}
		c.mu.Lock()
		hs := c.handlers
		c.mu.Unlock()
		for _, h := range hs {
			h.fn(it.ev)
		}
	}
}
