package rpc

import (
	"context"
	"errors"
	"time"
)

// PromptResult is what a prompt's run produced.
type PromptResult struct {
	// Text is the final answer's text ("" when there is none).
	Text string
	// Message is the final answer: the last assistant message of the run (nil when no run
	// started: an extension command or an input hook took the prompt).
	Message *Message
	// Messages are the messages the run added, in order (each message_end's message).
	Messages []Message
	// Events are every event from the prompt to the end of its run.
	Events []Event
}

// abortGrace bounds the wait for an aborted run to end once the caller's context is over:
// pig stops a run at once, so only a pig that no longer answers takes this long. A variable
// so that the package's tests can shorten it.
var abortGrace = 10 * time.Second

// PromptAndWait sends a prompt and waits until its run is over: agent_settled, which comes
// after agent_end and after the run's retries, compactions and queued messages. A prompt
// that starts no run (an extension command, a prompt an input hook handled) returns once pig
// is idle after it.
//
// When ctx ends first, the run is aborted: PromptAndWait sends abort, waits for the run to
// end (at most abortGrace more) and returns an error that is both ErrAborted and ctx.Err()
// (context.Canceled or context.DeadlineExceeded) to errors.Is. A run aborted otherwise (Abort,
// another client, an extension) returns an error that is ErrAborted. The other errors are a
// *CommandError: pig refused the prompt, it failed after acceptance (a prompt_error event;
// Message says why), the final answer ended in an error (its errorMessage), or pig exited
// before the end (Err: an *ExitError). The result is returned with an error as far as it got.
func (c *Client) PromptAndWait(ctx context.Context, text string, opts *PromptOptions) (*PromptResult, error) {
	// Listening before sending: the first events can come right after the answer.
	w := c.newWaiter()
	defer c.dropWaiter(w)
	res := &PromptResult{}
	if err := ctx.Err(); err != nil {
		return nil, &CommandError{Command: "prompt", Err: err}
	}
	// The prompt's answer and the state's are waited for past ctx's end (by abortGrace): once
	// pig has the prompt, its run must be known to be stopped, and the state says which events
	// belong to it.
	answers, cancelAnswers := graceAfter(ctx)
	defer cancelAnswers()
	if _, err := c.call(answers, "prompt", promptFields(text, opts), nil); err != nil {
		return nil, err
	}
	// A prompt is answered before its run's first event, so the events alone cannot tell a run
	// that has not begun from none at all: pig's state, asked now, can. Every line before the
	// state's answer is an earlier line.
	stateAnswer, err := c.call(answers, "get_state", nil, nil)
	var state State
	if err == nil {
		err = decodeData("get_state", stateAnswer, &state)
	}
	if err != nil {
		// The question is this method's own business: the error is the prompt's.
		var ce *CommandError
		if errors.As(err, &ce) {
			return nil, &CommandError{Command: "prompt", Message: ce.Message, Err: ce.Err}
		}
		return nil, err
	}
	var promptError string
	// stop ends a wait: the caller's ctx, then, once the run was aborted, the grace period.
	stop := ctx.Done()
	var cancelled error
wait:
	for {
		it, ok := w.pop(stop)
		if !ok {
			select {
			case <-c.done:
				res.finish()
				return res, &CommandError{Command: "prompt", Err: c.Err()}
			default:
			}
			if cancelled != nil {
				// pig did not end the run within the grace period.
				break wait
			}
			cancelled = ctx.Err()
			abortCtx, cancelAbort := context.WithTimeout(context.Background(), abortGrace)
			stop = abortCtx.Done()
			defer cancelAbort()
			// The abort's answer comes once pig stopped the run; its last events are read below.
			_ = c.Abort(abortCtx)
			continue
		}
		if it.ev == nil {
			// A response's place: the state's answer ends the wait when nothing was running.
			if it.seq == stateAnswer.seq && !state.IsStreaming {
				break wait
			}
			continue
		}
		res.Events = append(res.Events, it.ev)
		switch e := it.ev.(type) {
		case *MessageEndEvent:
			res.Messages = append(res.Messages, e.Message)
		case *PromptErrorEvent:
			promptError = e.Error
		}
		// While a run went on at the state's answer, its agent_settled comes after it.
		if _, settled := it.ev.(*AgentSettledEvent); settled && (!state.IsStreaming || it.seq > stateAnswer.seq) {
			break wait
		}
	}
	res.finish()
	switch {
	case cancelled != nil:
		return res, &CommandError{Command: "prompt", Err: &abortError{cause: cancelled}}
	case promptError != "":
		return res, &CommandError{Command: "prompt", Message: promptError}
	case res.Message != nil && res.Message.StopReason == "aborted":
		return res, &CommandError{Command: "prompt", Err: &abortError{}}
	case res.Message != nil && res.Message.StopReason == "error":
		msg := res.Message.ErrorMessage
		if msg == "" {
			msg = "the answer ended in an error"
		}
		return res, &CommandError{Command: "prompt", Message: msg}
	}
	return res, nil
}

// graceAfter is a context that ends abortGrace after ctx does.
func graceAfter(ctx context.Context) (context.Context, context.CancelFunc) {
	grace, cancel := context.WithCancel(context.Background())
	wait := abortGrace
	go func() {
		select {
		case <-ctx.Done():
		case <-grace.Done():
			return
		}
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-timer.C:
			cancel()
		case <-grace.Done():
		}
	}()
	return grace, cancel
}

// finish picks the final answer out of the messages.
func (r *PromptResult) finish() {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "assistant" {
			r.Message = &r.Messages[i]
			r.Text = r.Message.Text()
			return
		}
	}
}
