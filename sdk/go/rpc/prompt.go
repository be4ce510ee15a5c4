package rpc

import (
	"context"
	"errors"
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

// PromptAndWait sends a prompt and waits until its run is over: agent_settled, which comes
// after agent_end and after the run's retries, compactions and queued messages. A prompt
// that starts no run (an extension command, a prompt an input hook handled) returns once pig
// is idle after it.
//
// The error is a *CommandError when pig refused the prompt, when it failed after acceptance
// (a prompt_error event; Message says why), when the final answer ended in an error (its
// errorMessage), or when pig exited before the end (Err: an *ExitError); ctx.Err() when ctx
// ended first. Cancelling ctx only stops the wait: Abort stops the run. The result is
// returned with a *CommandError as far as it got.
func (c *Client) PromptAndWait(ctx context.Context, text string, opts *PromptOptions) (*PromptResult, error) {
	// Listening before sending: the first events can come right after the answer.
	w := c.newWaiter()
	defer c.dropWaiter(w)
	res := &PromptResult{}
	if _, err := c.call(ctx, "prompt", promptFields(text, opts), nil); err != nil {
		return nil, err
	}
	// A prompt is answered before its run's first event, so the events alone cannot tell a run
	// that has not begun from none at all: pig's state, asked now, can. Every line before the
	// state's answer is an earlier line.
	stateAnswer, err := c.call(ctx, "get_state", nil, nil)
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
wait:
	for {
		it, ok := w.pop(ctx.Done())
		if !ok {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.finish()
			return res, &CommandError{Command: "prompt", Err: c.Err()}
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
	if promptError != "" {
		return res, &CommandError{Command: "prompt", Message: promptError}
	}
	if res.Message != nil && res.Message.StopReason == "error" {
		msg := res.Message.ErrorMessage
		if msg == "" {
			msg = "the answer ended in an error"
		}
		return res, &CommandError{Command: "prompt", Message: msg}
	}
	return res, nil
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
