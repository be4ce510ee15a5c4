/** A StreamFunction double: records each call and answers from a handler, without HTTP. */
import { newAssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamFunction, type StreamOptions } from "../../src/ai/types.ts";

export interface StreamCall {
  model: Model;
  context: LlmContext;
  options: StreamOptions;
  userText: string;
}

export type Reply =
  | {
      text: string | string[];
      thinking?: string;
      /** Input and output tokens the answer reports (the totals follow). */
      usage?: { input: number; output: number };
      /** "length": the answer stopped at the output cap. */
      stopReason?: "length";
      /** A tool call after the text. */
      toolCall?: boolean;
    }
  | { error: string | undefined }
  | { hang: true };

export function fakeStream(reply: (call: StreamCall) => Reply | Promise<Reply>): { stream: StreamFunction; calls: StreamCall[] } {
  const calls: StreamCall[] = [];
  const stream: StreamFunction = (model, context, options) => {
    const content = context.messages[0]?.content;
    const userText = Array.isArray(content) ? content.map((block) => (block.type === "text" ? block.text : "")).join("") : String(content);
    const call = { model, context, options, userText };
    calls.push(call);
    return (async function* (): AsyncGenerator<AssistantMessageEvent> {
      const message = newAssistantMessage(model);
      yield { type: "start", partial: message };
      const answer = await reply(call);
      if ("hang" in answer) {
        await new Promise<void>((resolve) => {
          if (options.signal?.aborted) resolve();
          options.signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        yield { type: "error", reason: "aborted", error: { ...message, stopReason: "aborted", errorMessage: "Request was aborted" } };
        return;
      }
      if ("error" in answer) {
        yield { type: "error", reason: "error", error: { ...message, stopReason: "error", ...(answer.error ? { errorMessage: answer.error } : {}) } };
        return;
      }
      if (answer.thinking) message.content.push({ type: "thinking", thinking: answer.thinking });
      for (const text of Array.isArray(answer.text) ? answer.text : [answer.text]) message.content.push({ type: "text", text });
      if (answer.toolCall) message.content.push({ type: "toolCall", id: "call_1", name: "read", arguments: { path: "x" } });
      if (answer.usage) {
        const { input, output } = answer.usage;
        message.usage = { ...message.usage, input, output, totalTokens: input + output };
      }
      if (answer.stopReason) message.stopReason = answer.stopReason;
      yield { type: "done", reason: answer.stopReason ?? "stop", message };
    })();
  };
  return { stream, calls };
}
