/** Anthropic Messages streams, read with fetch (the Anthropic SDK is not a project dependency). */
import { afterEach, describe, expect, test } from "bun:test";
import { type FakeLlm, type Script, startFakeLlm } from "../helpers/fake-llm/server.ts";
import { anthropicPayloads, anthropicRequest } from "./sse-client.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

const body = { model: "fake-reasoner", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "run" }] };

async function stream(script: Script): Promise<Record<string, unknown>[][]> {
  llm = await startFakeLlm({ script });
  const out: Record<string, unknown>[][] = [];
  for (let i = 0; i < (Array.isArray(script) ? script.length : 1); i++) {
    const response = await anthropicRequest(llm.url, body);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    out.push(anthropicPayloads(await response.text()));
  }
  return out;
}

describe("anthropic messages stream", () => {
  test("thinking block with signature, text block, tool_use block, then message_delta and message_stop", async () => {
    const [events = []] = await stream([
      {
        thinking: "Need to list files.",
        text: "Let me look.",
        toolCalls: [{ id: "toolu_fx_1", name: "bash", arguments: { command: "echo anthropic-tool" } }],
      },
    ]);
    const start = events[0] as { message: { id: string; usage: Record<string, number> } };
    const id = start.message.id;
    expect(id).toMatch(/^msg_fake_[0-9a-z]+$/);
    expect(events[0]).toEqual({
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: "fake-reasoner",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: Math.ceil(JSON.stringify(body).length / 4),
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    });
    expect(events.slice(1)).toEqual([
      { type: "ping" },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Need to " } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "list fil" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "es." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: `fakesig_${id}` } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Let me l" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "ook." } },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_fx_1", name: "bash", input: {} },
      },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"comman' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: 'd":"echo' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: " anthrop" } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: 'ic-tool"' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "}" } },
      { type: "content_block_stop", index: 2 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        // 19 + 12 + 4 ("bash") + 32 characters → 17, as recorded in 11-anthropic-messages.
        usage: { ...start.message.usage, output_tokens: 17 },
      },
      { type: "message_stop" },
    ]);
  });

  test("stop reasons are mapped; generated tool ids are toolu_…", async () => {
    const runs = await stream([
      { text: "a" },
      { text: "b", finishReason: "length" },
      { toolCalls: [{ name: "read", arguments: {} }] },
      { text: "c", finishReason: "refusal" },
    ]);
    const stopReasons = runs.map((events) => {
      const delta = events.find((e) => e.type === "message_delta") as { delta: { stop_reason: string } };
      return delta.delta.stop_reason;
    });
    expect(stopReasons).toEqual(["end_turn", "max_tokens", "tool_use", "refusal"]);
    const toolStart = runs[2]?.find((e) => e.type === "content_block_start") as {
      content_block: { id: string; input: unknown };
    };
    expect(toolStart.content_block.id).toMatch(/^toolu_[0-9a-z]+$/);
  });

  test("usage: cache reads are reported apart from input_tokens", async () => {
    const [events = []] = await stream([
      { text: "x", usage: { prompt_tokens: 1000, completion_tokens: 7, cached_tokens: 600 } },
    ]);
    const usage = { input_tokens: 400, cache_creation_input_tokens: 0, cache_read_input_tokens: 600 };
    expect(events[0]).toMatchObject({ message: { usage: { ...usage, output_tokens: 1 } } });
    expect(events.find((e) => e.type === "message_delta")).toMatchObject({ usage: { ...usage, output_tokens: 7 } });
  });

  test("midStreamError: content blocks, then an error event of type api_error instead of the ending", async () => {
    const [events = []] = await stream([{ text: "partial then boom", midStreamError: "fake mid-stream failure" }]);
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "error",
    ]);
    expect(events.at(-1)).toEqual({ type: "error", error: { type: "api_error", message: "fake mid-stream failure" } });
  });

  test("the model list has Anthropic's shape when asked by an Anthropic client", async () => {
    llm = await startFakeLlm();
    const response = await fetch(`${llm.url}/v1/models`, { headers: { "anthropic-version": "2023-06-01" } });
    expect(await response.json()).toMatchObject({ data: [{ type: "model", id: "fake-model" }], has_more: false });
  });
});
