/**
 * The model of `pig extension check`, served in pig's own process: asked after the check's
 * prompt, it calls each tool it is offered that the extensions registered (and `bash`, for a
 * gate to see), once, with arguments made from the tool's schema; asked anything else (the
 * answer after the tool results, a compaction summary), it answers in a few words.
 */
import { doneEvent, newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type StreamFunction } from "../../ai/types.ts";
import { argsFor } from "./schema-args.ts";

export const CHECK_PROVIDER = "pig-check";
export const CHECK_MODEL = "scripted";
export const CHECK_PROMPT = "pig extension check: call each tool once";
/**
 * The command the model runs with `bash`: it looks like what a permission gate guards (a forced
 * recursive delete) so a gate asks, and it is harmless (a path that does not exist, relative to
 * the check's scratch project directory).
 */
export const CHECK_BASH_COMMAND = "rm -rf ./pig-check-nothing-here";

/** The provider config, as `registerProvider` takes it. */
export const CHECK_PROVIDER_CONFIG = {
  baseUrl: "http://127.0.0.1:9",
  apiKey: "pig-check",
  api: "pig-check-scripted",
  models: [
    { id: CHECK_MODEL, name: "pig extension check", contextWindow: 200_000, maxTokens: 4096, input: ["text"] },
    // Switched to once, so the model_select event is raised.
    { id: `${CHECK_MODEL}-2`, name: "pig extension check, second model", reasoning: true, contextWindow: 200_000, maxTokens: 4096, input: ["text"] },
  ],
};

export function scriptedModel(extensionTools: () => ReadonlySet<string>): StreamFunction {
  let calls = 0;
  return async function* (model, context, options): AsyncIterable<AssistantMessageEvent> {
    // As a provider over HTTP would: the body, the headers and the response go past the hooks.
    await options.onPayload?.({ model: model.id, messages: context.messages.length });
    await options.onHeaders?.({ "content-type": "application/json" });
    await options.onResponse?.({ status: 200, headers: { "content-type": "text/event-stream" } });
    const message: AssistantMessage = newAssistantMessage(model);
    const last = context.messages.at(-1);
    const lastText = last?.role === "user" ? JSON.stringify(last.content) : "";
    const offered = context.tools ?? [];
    if (lastText.includes(CHECK_PROMPT)) {
      const mine = extensionTools();
      for (const tool of offered) {
        if (!mine.has(tool.name) && tool.name !== "bash") continue;
        const args = tool.name === "bash" && !mine.has("bash") ? { command: CHECK_BASH_COMMAND } : argsFor(tool.parameters);
        message.content.push({ type: "toolCall", id: `check_${++calls}`, name: tool.name, arguments: args });
      }
    }
    const toolUse = message.content.length > 0;
    message.stopReason = toolUse ? "toolUse" : "stop";
    // As a provider's stream is shown to the hooks, each event before pig reads it.
    const shown = async (event: AssistantMessageEvent): Promise<AssistantMessageEvent> => {
      await options.onStreamEvent?.({ type: event.type, ...(event.type === "text_delta" ? { delta: event.delta } : {}) });
      return event;
    };
    yield await shown({ type: "start", partial: { ...message, content: [] } });
    if (!toolUse) {
      // A text answer streams, so message_update is raised.
      const text = "pig extension check: done";
      const partial = { ...message, content: [{ type: "text" as const, text: "" }] };
      yield await shown({ type: "text_start", contentIndex: 0, partial });
      partial.content[0]!.text = text;
      yield await shown({ type: "text_delta", contentIndex: 0, delta: text, partial });
      yield await shown({ type: "text_end", contentIndex: 0, content: text, partial });
      message.content.push({ type: "text", text });
    }
    yield await shown(doneEvent(toolUse ? "toolUse" : "stop", message, []));
  };
}
