/**
 * An extension provider's stream as the agent sees it: the extension's progress events as they
 * arrive, then one final done (or error) event built from its result, whatever it sent between.
 */
import { describe, expect, test } from "bun:test";
import type { AssistantMessageEvent } from "../../../src/ai/types.ts";
import type { ExtensionProvider } from "../../../src/extensions/host/host.ts";
import { extensionStream } from "../../../src/runtime/extension-providers.ts";
import { MODEL } from "../../helpers/scripted-session.ts";

function provider(stream: ExtensionProvider["stream"]): ExtensionProvider {
  return { extension: "/ext/p.ts", name: "p", config: {}, ...(stream ? { stream } : {}) };
}

async function collect(p: ExtensionProvider, signal?: AbortSignal): Promise<AssistantMessageEvent[]> {
  const out: AssistantMessageEvent[] = [];
  for await (const e of extensionStream(p)(MODEL, { systemPrompt: "s", messages: [] }, { apiKey: "k", ...(signal ? { signal } : {}) })) out.push(e);
  return out;
}

describe("extensionStream", () => {
  test("progress events pass through, the extension's own done is dropped, the result ends the stream", async () => {
    const events = await collect(
      provider(async (call) => {
        expect(call.options).toEqual({ apiKey: "k" });
        call.onEvent({ type: "text_delta", contentIndex: 0, delta: "hi", partial: {} });
        call.onEvent({ type: "done", reason: "stop", message: {} });
        return { content: [{ type: "text", text: "hi" }], stopReason: "stop" };
      }),
    );
    expect(events.map((e) => e.type)).toEqual(["text_delta", "done"]);
    const done = events[1] as Extract<AssistantMessageEvent, { type: "done" }>;
    expect(done.message).toMatchObject({ role: "assistant", provider: "test", model: "m", content: [{ type: "text", text: "hi" }] });
  });

  test("a failed request, a result that is no message, and an error message each end in one error event", async () => {
    const failed = await collect(provider(async () => Promise.reject(new Error("extension went away"))));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: "error", reason: "error", error: { errorMessage: "extension went away" } });
    const empty = await collect(provider(async () => undefined));
    expect(empty[0]).toMatchObject({ type: "error", error: { errorMessage: "Provider p ended without a message" } });
    const said = await collect(provider(async () => ({ content: [], stopReason: "error", errorMessage: "quota" })));
    expect(said[0]).toMatchObject({ type: "error", reason: "error", error: { errorMessage: "quota" } });
  });

  test("an abort while the extension works ends as aborted", async () => {
    const controller = new AbortController();
    const events = await collect(
      provider(
        (call) =>
          new Promise((_resolve, reject) => {
            call.signal!.addEventListener("abort", () => reject(new Error("cancelled")));
            controller.abort();
          }),
      ),
      controller.signal,
    );
    expect(events[0]).toMatchObject({ type: "error", reason: "aborted" });
  });
});
