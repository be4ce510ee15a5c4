/** OpenAI Responses streams through the official `openai` SDK (raw events and the accumulating helper). */
import { afterEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { type FakeLlm, type Script, startFakeLlm } from "../helpers/fake-llm/server.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function start(script: Script): Promise<OpenAI> {
  llm = await startFakeLlm({ script });
  return new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "fake-key", maxRetries: 0 });
}

const params = { model: "fake-reasoner", input: "run a command", stream: true as const, max_output_tokens: 16384 };

async function events(client: OpenAI): Promise<ResponseStreamEvent[]> {
  const out: ResponseStreamEvent[] = [];
  for await (const event of await client.responses.create(params)) out.push(event);
  return out;
}

describe("responses stream", () => {
  test("reasoning, message and function_call items with their event sequence", async () => {
    const client = await start([
      {
        thinking: "Need to list files.",
        text: "Let me look.",
        toolCalls: [{ id: "call_fx_resp_1", name: "bash", arguments: { command: "echo responses-tool" } }],
      },
    ]);
    const all = await events(client);
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const created = all[0] as Extract<ResponseStreamEvent, { type: "response.created" }>;
    const responseId = created.response.id;
    // Id shapes as Pi stored them in 12-openai-responses (responseId, signatures, `call|fc_…`).
    expect(responseId).toMatch(/^resp_fake_[0-9a-z]+$/);
    const done = all.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    // Pi keeps this exact object (JSON) as the thinkingSignature.
    expect(JSON.stringify(done[0])).toMatch(
      /^\{"id":"rs_[0-9a-z]+","type":"reasoning","summary":\[\{"type":"summary_text","text":"Need to list files\."\}\]\}$/,
    );
    expect(done[1]).toMatchObject({ type: "message", status: "completed", role: "assistant" });
    expect((done[1] as { id: string }).id).toMatch(/^msg_[0-9a-z]+$/);
    expect(done[2]).toMatchObject({
      type: "function_call",
      status: "completed",
      call_id: "call_fx_resp_1",
      name: "bash",
      arguments: '{"command":"echo responses-tool"}',
    });
    expect((done[2] as { id: string }).id).toMatch(/^fc_[0-9a-z]+$/);
    const deltas = all.filter((e) => e.type === "response.function_call_arguments.delta").map((e) => e.delta);
    expect(deltas).toEqual(['{"comman', 'd":"echo', " respons", 'es-tool"', "}"]);
    const completed = all.at(-1) as Extract<ResponseStreamEvent, { type: "response.completed" }>;
    expect(completed.response.id).toBe(responseId);
    expect(completed.response.status).toBe("completed");
    expect(completed.response.output).toEqual(done);
    expect(completed.response.max_output_tokens).toBe(16384);
    expect(completed.response.usage).toEqual({
      input_tokens: Math.ceil(JSON.stringify(params).length / 4),
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 17,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: Math.ceil(JSON.stringify(params).length / 4) + 17,
    });
  });

  test("the SDK's accumulating helper builds the final response; generated call ids", async () => {
    const client = await start([
      {
        thinking: "The output is clear.",
        text: "The command printed responses-tool.",
        toolCalls: [{ name: "ls", arguments: "{}" }],
      },
    ]);
    const response = await client.responses.stream({ model: "m", input: "x" }).finalResponse();
    expect(response.output_text).toBe("The command printed responses-tool.");
    const call = response.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ name: "ls", arguments: "{}" });
    expect((call as { call_id: string }).call_id).toMatch(/^call_[0-9a-z]+$/);
  });

  test("length ends as status incomplete (still in response.completed); cached tokens in input_tokens_details", async () => {
    const client = await start([
      { text: "cut off", finishReason: "length", usage: { prompt_tokens: 500, completion_tokens: 9, cached_tokens: 100 } },
    ]);
    const last = (await events(client)).at(-1) as Extract<ResponseStreamEvent, { type: "response.completed" }>;
    expect(last.type).toBe("response.completed");
    expect(last.response.status).toBe("incomplete");
    expect(last.response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(last.response.usage).toMatchObject({ input_tokens: 500, input_tokens_details: { cached_tokens: 100 } });
  });

  test("midStreamError: items, then response.failed with the message", async () => {
    const client = await start([{ text: "partial then boom", midStreamError: "fake mid-stream failure" }]);
    const all = await events(client);
    const last = all.at(-1) as Extract<ResponseStreamEvent, { type: "response.failed" }>;
    expect(last.type).toBe("response.failed");
    expect(last.response.status).toBe("failed");
    expect(last.response.error).toEqual({ code: "server_error", message: "fake mid-stream failure" });
    const text = all.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta);
    expect(text.join("")).toBe("partial then boom");
  });
});
