/**
 * What pig's stream function for a model really sends: the request as the fake LLM server
 * received it over loopback (the SDK's and fetch's headers included), for comparison with a
 * recorded one. The server answers "ok"; the stream must end in `done`.
 */
import { streamFor } from "../../src/ai/stream.ts";
import type { LlmContext, Model, StreamOptions } from "../../src/ai/types.ts";
import { startFakeLlm, type RecordedRequest } from "./fake-llm/server.ts";

/** Sends one request for `context` to a fake server at the model's base URL path and returns it as received. */
export async function sentRequest(model: Model, context: LlmContext, options: StreamOptions): Promise<RecordedRequest> {
  const llm = await startFakeLlm({ script: [{ text: "ok" }] });
  try {
    const path = new URL(model.baseUrl).pathname.replace(/\/+$/, "");
    const events = streamFor(model)({ ...model, baseUrl: `${llm.url}${path}` }, context, options);
    let end: string | undefined;
    for await (const event of events) {
      if (event.type === "error") throw new Error(`the stream failed: ${event.error.errorMessage}`);
      if (event.type === "done") end = event.type;
    }
    if (end !== "done") throw new Error("the stream ended without a done event");
    if (llm.requests.length !== 1) throw new Error(`expected one request, the server got ${llm.requests.length}`);
    return llm.requests[0]!;
  } finally {
    await llm.close();
  }
}

/** The named headers of `headers` (any case), "(absent)" for a missing one. */
export function pickHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? "(absent)"]));
}
