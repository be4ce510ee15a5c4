/**
 * Request bodies against Pi 0.73.1's recorded requests: every chat request of fixtures 01–10 and
 * 13, the responses requests of 12, and each fixture's continuation request (`next-request`).
 * The context is rebuilt from the fixture's session file (up to the answered request), the system
 * prompt and tools are taken from the recorded body; the serialised bodies must be identical.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertToLlm, type LlmMessage } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { Api, LlmContext, Model, ThinkingLevel, ToolSpec } from "../../src/ai/types.ts";
import { buildCompletionsRequest } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses.ts";
import { FIXTURES } from "../helpers/tmp.ts";

export const WIRE = join(FIXTURES, "wire");

export interface RecordedRequest {
  seq: number;
  api: "chat" | "responses" | "anthropic";
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  served: { source: string; kind: string; label?: string };
}

export function readRequests(name: string): RecordedRequest[] {
  return readFileSync(join(WIRE, `${name}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RecordedRequest);
}

export function readNextRequest(name: string): { api: string; path: string; body: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(WIRE, `${name}.next-request.json`), "utf8"));
}

/** The fixtures' provider `fake`: `fake-model` and the reasoning `fake-reasoner`. */
export function fakeModel(id: string, api: Api = "openai-completions", images = false): Model {
  return {
    id,
    name: id,
    api,
    provider: "fake",
    baseUrl: "http://127.0.0.1:36243/v1",
    reasoning: id === "fake-reasoner",
    input: images ? ["text", "image"] : ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16384,
  };
}

/** System prompt and tools exactly as a recorded request carried them. */
export function promptAndTools(body: Record<string, unknown>): { systemPrompt: string; tools?: ToolSpec[] } {
  let systemPrompt = "";
  const list = (body.messages ?? body.input) as { role?: string; content?: unknown }[];
  const first = list[0];
  if (first && (first.role === "system" || first.role === "developer") && typeof first.content === "string") {
    systemPrompt = first.content;
  }
  const raw = body.tools as Record<string, unknown>[] | undefined;
  if (!raw) return { systemPrompt };
  const tools = raw.map((tool) => {
    const fn = (tool.function ?? tool) as { name: string; description: string; parameters: Record<string, unknown> };
    return { name: fn.name, description: fn.description, parameters: fn.parameters };
  });
  return { systemPrompt, tools };
}

export function isSummaryRequest(request: RecordedRequest): boolean {
  const first = (request.body.messages as { content?: unknown }[] | undefined)?.[0];
  return typeof first?.content === "string" && first.content.startsWith("You are a context summarization assistant");
}

export interface AnsweredRequest {
  request: RecordedRequest;
  /** The session file holding the answer. */
  file: string;
  /** Context before the answer (the answer's parent as leaf). */
  messages: LlmMessage[];
  thinkingLevel: ThinkingLevel;
  modelId: string;
  sessionId: string;
}

/**
 * Pairs every main request (not a summarisation side request) with the assistant entry that
 * answered it. Assistant entries are taken in file order across the fixture's session files
 * (09 has three; copied entries are counted once), and rebuilt up to their parent.
 */
export function answeredRequests(name: string, sessionFiles: string[]): AnsweredRequest[] {
  const main = readRequests(name).filter((r) => !isSummaryRequest(r));
  const seen = new Set<string>();
  const answers: { file: string; id: string; parentId: string; model: string }[] = [];
  for (const file of sessionFiles) {
    const store = SessionStore.open(join(FIXTURES, file));
    for (const record of store.tree.records) {
      if (record.type !== "message" || record.role !== "assistant" || seen.has(record.id)) continue;
      seen.add(record.id);
      const entry = store.getEntry(record.id) as { message: { model: string } };
      answers.push({ file, id: record.id, parentId: record.parentId as string, model: entry.message.model });
    }
    store.close();
  }
  if (answers.length !== main.length) throw new Error(`${name}: ${main.length} requests but ${answers.length} answers`);
  return main.map((request, i) => {
    const answer = answers[i]!;
    const store = SessionStore.open(join(FIXTURES, answer.file));
    const context = store.buildContext(answer.parentId);
    const result: AnsweredRequest = {
      request,
      file: answer.file,
      messages: convertToLlm(context.messages),
      thinkingLevel: context.thinkingLevel as ThinkingLevel,
      modelId: answer.model,
      sessionId: store.sessionId,
    };
    store.close();
    return result;
  });
}

/** The context `pi --session FILE -p "NEXT: continue from this session"` sent first. */
export function nextContext(file: string): { messages: LlmMessage[]; thinkingLevel: ThinkingLevel; modelId: string; sessionId: string } {
  const store = SessionStore.open(join(FIXTURES, file));
  const context = store.buildContext();
  const messages = convertToLlm(context.messages);
  messages.push({ role: "user", content: [{ type: "text", text: "NEXT: continue from this session" }], timestamp: Date.now() });
  const out = {
    messages,
    thinkingLevel: context.thinkingLevel as ThinkingLevel,
    modelId: context.model?.modelId ?? "fake-model",
    sessionId: store.sessionId,
  };
  store.close();
  return out;
}

export function llmContext(body: Record<string, unknown>, messages: LlmMessage[]): LlmContext {
  const { systemPrompt, tools } = promptAndTools(body);
  return tools ? { systemPrompt, messages, tools } : { systemPrompt, messages };
}

// ── the tests ───────────────────────────────────────────────────────────────

/** Each fixture: its session files and how many summarisation requests Pi sent while making it. */
const CHAT_FIXTURES: [string, string[], number][] = [
  ["01-basic-text", ["01-basic-text.jsonl"], 0],
  ["02-builtin-tools", ["02-builtin-tools.jsonl"], 0],
  ["03-model-thinking-name", ["03-model-thinking-name.jsonl"], 0],
  ["04-errors-retry-abort", ["04-errors-retry-abort.jsonl"], 0],
  ["05-bash-execution", ["05-bash-execution.jsonl"], 0],
  ["06-compaction-manual", ["06-compaction-manual.jsonl"], 3],
  ["07-compaction-auto", ["07-compaction-auto.jsonl"], 2],
  ["08-branching-tree", ["08-branching-tree.jsonl"], 1],
  ["09-fork-clone", ["09-fork-clone.jsonl", "09-fork-clone.fork.jsonl", "09-fork-clone.clone.jsonl"], 0],
  ["10-extension-entries", ["10-extension-entries.jsonl"], 0],
  ["13-images", ["13-images.jsonl"], 0],
];

function options(thinkingLevel: ThinkingLevel, sessionId: string, maxTokens?: number) {
  return { apiKey: "fake-key", reasoning: thinkingLevel, sessionId, ...(maxTokens ? { maxTokens } : {}) };
}

describe.each(CHAT_FIXTURES)("openai-completions body, fixture %s", (name, files, summaryCount) => {
  const images = name === "13-images";

  test("every main request equals Pi's", () => {
    const answered = answeredRequests(name, files);
    expect(answered.length).toBeGreaterThan(0);
    for (const { request, messages, thinkingLevel, modelId, sessionId } of answered) {
      const model = fakeModel(modelId, "openai-completions", images);
      const { body, headers } = buildCompletionsRequest(model, llmContext(request.body, messages), options(thinkingLevel, sessionId));
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
      expect(headers).toEqual({});
    }
  });

  test("summarisation side requests keep Pi's shape (no tools, their own max_completion_tokens)", () => {
    const summaries = readRequests(name).filter(isSummaryRequest);
    expect(summaries).toHaveLength(summaryCount);
    for (const request of summaries) {
      const recorded = request.body.messages as { role: string; content: { type: string; text: string }[] }[];
      const messages: LlmMessage[] = recorded.slice(1).map((m) => ({ role: "user", content: m.content as never, timestamp: 0 }));
      const model = fakeModel(request.body.model as string, "openai-completions", images);
      const context = { systemPrompt: recorded[0]!.content as unknown as string, messages };
      const { body } = buildCompletionsRequest(model, context, options("off", "s", request.body.max_completion_tokens as number));
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
    }
  });

  test.each(files)("continuation request of %s equals Pi's", (file) => {
    const expected = readNextRequest(file.replace(/\.jsonl$/, ""));
    expect(expected.api).toBe("chat");
    const next = nextContext(file);
    const model = fakeModel(next.modelId, "openai-completions", images);
    const { body } = buildCompletionsRequest(model, llmContext(expected.body, next.messages), options(next.thinkingLevel, next.sessionId));
    expect(JSON.stringify(body)).toBe(JSON.stringify(expected.body));
  });
});

describe("openai-responses body, fixture 12-openai-responses", () => {
  const name = "12-openai-responses";

  test("every request equals Pi's, with Pi's session headers", () => {
    const answered = answeredRequests(name, [`${name}.jsonl`]);
    expect(answered.length).toBe(2);
    for (const { request, messages, thinkingLevel, modelId, sessionId } of answered) {
      const model = fakeModel(modelId, "openai-responses");
      const { body, headers } = buildResponsesRequest(model, llmContext(request.body, messages), options(thinkingLevel, sessionId));
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
      expect(headers).toEqual({ session_id: request.headers.session_id!, "x-client-request-id": request.headers["x-client-request-id"]! });
      expect(Object.keys(headers)).toEqual(["session_id", "x-client-request-id"]);
    }
  });

  test("continuation request equals Pi's", () => {
    const expected = readNextRequest(name);
    expect(expected.api).toBe("responses");
    const next = nextContext(`${name}.jsonl`);
    const model = fakeModel(next.modelId, "openai-responses");
    const { body } = buildResponsesRequest(model, llmContext(expected.body, next.messages), options(next.thinkingLevel, next.sessionId));
    expect(JSON.stringify(body)).toBe(JSON.stringify(expected.body));
  });
});
