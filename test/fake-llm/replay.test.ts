/**
 * Replay sanity against the Pi 0.73.1 fixtures: serve every recorded request body, in order,
 * from the fixture's own script and check that (1) the same script entry answers it (`served`),
 * and (2) what the server streams explains what Pi stored: usage numbers, partial texts of
 * aborted/failed messages, response-id shapes and (11, 12) signatures.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Api, type RecordedRequest, type Served, startFakeLlm } from "../helpers/fake-llm/server.ts";
import { loadScriptFile, type LoadedScript } from "../helpers/fake-llm/script.ts";
import { FIXTURES } from "../helpers/tmp.ts";
import { parseSse } from "./sse-client.ts";

type Json = Record<string, unknown>;

interface Streamed {
  responseId: string | undefined;
  text: string;
  /** In Pi's terms: input excludes cached tokens. */
  usage: { input: number; output: number } | undefined;
  payloads: Json[];
}

/**
 * A fixture file copied into the repo: next to the session files, or in `wire/` where the
 * request-shape fixtures (requests.jsonl, next-request.json) are kept.
 */
function fixtureFile(file: string): string {
  const direct = join(FIXTURES, file);
  return existsSync(direct) ? direct : join(FIXTURES, "wire", file);
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

/**
 * Reads a body to its end; a stream the script stalls after `stallAfter` frames is read up to
 * that frame and then cancelled (it would send nothing more). Frames end with a blank line.
 */
async function readStream(response: Response, stallAfter: number | undefined): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    if (stallAfter !== undefined && text.split("\n\n").length - 1 >= stallAfter) {
      await reader.cancel();
      return text;
    }
    const result = await reader.read();
    if (result.done) return text;
    text += decoder.decode(result.value, { stream: true });
  }
}

/** The `stallAfterChunks` of the script entry that answered the latest request, if it stalls. */
function stallOf(script: LoadedScript, served: Served): number | undefined {
  const index = /^script\[(\d+)\]$/.exec(served.source)?.[1];
  const response = index === undefined ? script.fallback : script.responses[Number(index)];
  return response?.stallAfterChunks;
}

interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { cached_tokens: number };
}

function interpret(api: Api, sse: string): Streamed {
  const payloads = parseSse(sse)
    .filter((e) => e.data !== "[DONE]")
    .map((e) => JSON.parse(e.data) as Json);
  const out: Streamed = { responseId: undefined, text: "", usage: undefined, payloads };
  for (const p of payloads) {
    if (api === "chat") {
      out.responseId ??= p.id as string;
      const choices = (p.choices ?? []) as { delta: { content?: string } }[]; // none in an error payload
      out.text += choices[0]?.delta.content ?? "";
      const usage = p.usage as ChatUsage | null | undefined;
      if (usage) {
        out.usage = { input: usage.prompt_tokens - usage.prompt_tokens_details.cached_tokens, output: usage.completion_tokens };
      }
    } else if (api === "anthropic") {
      if (p.type === "message_start") out.responseId = (p.message as { id: string }).id;
      const delta = p.delta as { type?: string; text?: string } | undefined;
      if (p.type === "content_block_delta" && delta?.type === "text_delta") out.text += delta.text;
      if (p.type === "message_delta") {
        const usage = p.usage as { input_tokens: number; output_tokens: number };
        out.usage = { input: usage.input_tokens, output: usage.output_tokens };
      }
    } else {
      if (p.type === "response.created") out.responseId = (p.response as { id: string }).id;
      if (p.type === "response.output_text.delta") out.text += p.delta as string;
      if (p.type === "response.completed") {
        const usage = (p.response as Json).usage as ResponsesUsage;
        out.usage = { input: usage.input_tokens - usage.input_tokens_details.cached_tokens, output: usage.output_tokens };
      }
    }
  }
  return out;
}

interface AssistantMessage {
  role: "assistant";
  stopReason: string;
  responseId?: string;
  usage: { input: number; output: number };
  content: { type: string; text?: string; thinkingSignature?: string; textSignature?: string; id?: string }[];
}

function assistantMessages(name: string): AssistantMessage[] {
  return readdirSync(FIXTURES)
    // NAME.jsonl and, for 09, NAME.fork.jsonl / NAME.clone.jsonl: the session files.
    .filter((file) => file.startsWith(`${name}.`) && /^[^.]+(\.(fork|clone))?\.jsonl$/.test(file))
    .flatMap((file) => readJsonl<{ type: string; message?: AssistantMessage }>(join(FIXTURES, file)))
    .filter((entry) => entry.type === "message" && entry.message?.role === "assistant")
    .map((entry) => entry.message as AssistantMessage);
}

const ID_SHAPE: Record<Api, RegExp> = {
  chat: /^chatcmpl-fake-[0-9a-z]+$/,
  anthropic: /^msg_fake_[0-9a-z]+$/,
  responses: /^resp_fake_[0-9a-z]+$/,
  google: /^gresp_[0-9a-z]+$/,
  codex: /^resp_fake_[0-9a-z]+$/,
  // Bedrock's stream carries no response id (no fixture replayed here is Bedrock's).
  bedrock: /^$/,
  mistral: /^cmpl-fake-[0-9a-z]+$/,
  "pi-messages": /^resp_fake_[0-9a-z]+$/,
  azure: /^resp_fake_[0-9a-z]+$/,
};

const names = readdirSync(FIXTURES)
  .filter((file) => file.endsWith(".script.json"))
  .map((file) => file.slice(0, -".script.json".length))
  .sort();

describe("replaying the Pi 0.73.1 fixtures", () => {
  test("all 13 scripts are there", () => {
    expect(names.length).toBe(13);
  });

  for (const name of names) {
    test(name, async () => {
      const recorded = readJsonl<RecordedRequest>(fixtureFile(`${name}.requests.jsonl`));
      const scriptPath = fixtureFile(`${name}.script.json`);
      const script = loadScriptFile(scriptPath);
      const llm = await startFakeLlm({ script: scriptPath });
      const streamed: Streamed[] = [];
      try {
        for (const request of recorded) {
          // Pad the re-serialised body to the recorded size: the fixture paths were shortened after
          // recording, and default prompt tokens are ceil(body length / 4).
          let raw = JSON.stringify(request.body);
          const length = Number(request.headers["content-length"] ?? raw.length);
          raw += " ".repeat(Math.max(0, length - raw.length));
          const response = await fetch(`${llm.url}${request.path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: raw,
          });
          const body = await readStream(response, stallOf(script, llm.requests.at(-1)!.served));
          if (response.ok) streamed.push(interpret(request.api, body));
        }
        // Same entry, same kind, no label — for every request, in order.
        expect(llm.requests.map((r) => r.served)).toEqual(recorded.map((r) => r.served));
        expect(llm.requests.map((r) => r.api)).toEqual(recorded.map((r) => r.api));
      } finally {
        await llm.close();
      }

      const usages = streamed.flatMap((s) => (s.usage ? [JSON.stringify(s.usage)] : []));
      const texts = streamed.map((s) => s.text);
      for (const message of assistantMessages(name)) {
        const text = message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
        if (message.stopReason === "stop" || message.stopReason === "toolUse") {
          // Every answer Pi stored has usage this server reports for one of the replayed requests.
          expect(usages).toContain(JSON.stringify({ input: message.usage.input, output: message.usage.output }));
        } else if (text !== "") {
          // Aborted (stall) and mid-stream-error messages keep exactly the text sent before the break.
          expect(texts).toContain(text);
        }
        if (message.responseId !== undefined) {
          const api = recorded[0]!.api;
          expect(message.responseId).toMatch(ID_SHAPE[api]);
        }
      }
      for (const s of streamed) expect(s.responseId).toMatch(ID_SHAPE[recorded[0]!.api]);

      if (name === "11-anthropic-messages") checkAnthropicSignatures(streamed);
      if (name === "12-openai-responses") checkResponsesSignatures(streamed);
    });
  }
});

/** Pi stored `fakesig_<message id>`; the server sends exactly that for its own message id. */
function checkAnthropicSignatures(streamed: Streamed[]): void {
  for (const message of assistantMessages("11-anthropic-messages")) {
    const thinking = message.content.find((c) => c.type === "thinking");
    expect(thinking?.thinkingSignature).toBe(`fakesig_${message.responseId}`);
  }
  for (const s of streamed) {
    const signature = s.payloads.find((p) => (p.delta as { type?: string } | undefined)?.type === "signature_delta");
    expect((signature?.delta as { signature: string }).signature).toBe(`fakesig_${s.responseId}`);
  }
}

/** Pi stored the reasoning item as JSON, `{"v":1,"id":"msg_…"}` and `call_id|fc_…`: same shapes as served. */
function checkResponsesSignatures(streamed: Streamed[]): void {
  const neutral = (json: string) => json.replace(/"(rs|msg|fc)_[0-9a-z]+"/g, '"$1_X"');
  const served = streamed.flatMap((s) =>
    s.payloads.filter((p) => p.type === "response.output_item.done").map((p) => p.item as Json),
  );
  const reasoningItems = served
    .filter((item) => item.type === "reasoning")
    .map((item) => neutral(JSON.stringify(item)));
  for (const message of assistantMessages("12-openai-responses")) {
    for (const block of message.content) {
      if (block.type === "thinking") expect(reasoningItems).toContain(neutral(block.thinkingSignature!));
      if (block.type === "text") expect(block.textSignature).toMatch(/^\{"v":1,"id":"msg_[0-9a-z]+"\}$/);
      if (block.type === "toolCall") expect(block.id).toMatch(/^call_fx_resp_1\|fc_[0-9a-z]+$/);
    }
  }
}
