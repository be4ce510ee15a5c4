/**
 * Request bodies against the requests Pi recorded: Pi 0.87.1's (fixtures 01–08, 10) and Pi
 * 0.73.1's (01–10 and 13 chat, 12 responses), each main request and each fixture's continuation
 * request (`next-request`). The context is rebuilt from the fixture's session file (up to the
 * answered request), the system prompt and tools are taken from the recorded body; the serialised
 * bodies must be identical. Pi 0.73.1 sent `strict: false` with every tool to servers it did not
 * know; pig (like Pi 0.87.1) does so only for a model whose `compat` says `supportsStrictMode`,
 * which the 0.73.1 comparisons set.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlmMessage } from "../../src/ai/message-types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { Api, LlmContext, Model, ThinkingLevel, ToolSpec } from "../../src/ai/types.ts";
import { buildCompletionsRequest } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import { estimateRequestTokens } from "../../src/ai/output-room.ts";
import { FIXTURES, FIXTURES_087 } from "../helpers/tmp.ts";

export const WIRE = join(FIXTURES, "wire");

export interface RecordedRequest {
  seq: number;
  api: "chat" | "responses" | "anthropic";
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  served: { source: string; kind: string; label?: string };
}

export function readRequests(name: string, dir = FIXTURES): RecordedRequest[] {
  return readFileSync(join(dir, "wire", `${name}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RecordedRequest);
}

export function readNextRequest(name: string, dir = FIXTURES): { api: string; path: string; body: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(dir, "wire", `${name}.next-request.json`), "utf8"));
}

/** The fixtures' provider `fake`: `fake-model` and the reasoning `fake-reasoner`. */
export function fakeModel(id: string, api: Api = "openai-completions", images = false, strictMode = false, contextWindow = 128000): Model {
  return {
    ...(strictMode ? { compat: { supportsStrictMode: true } } : {}),
    id,
    name: id,
    api,
    provider: "fake",
    baseUrl: "http://127.0.0.1:36243/v1",
    reasoning: id === "fake-reasoner",
    input: images ? ["text", "image"] : ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow,
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
export function answeredRequests(name: string, sessionFiles: string[], dir = FIXTURES): AnsweredRequest[] {
  const main = readRequests(name, dir).filter((r) => !isSummaryRequest(r));
  const seen = new Set<string>();
  const answers: { file: string; id: string; parentId: string; model: string }[] = [];
  for (const file of sessionFiles) {
    const store = SessionStore.open(join(dir, file));
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
    const store = SessionStore.open(join(dir, answer.file));
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
export function nextContext(file: string, dir = FIXTURES): { messages: LlmMessage[]; thinkingLevel: ThinkingLevel; modelId: string; sessionId: string } {
  const store = SessionStore.open(join(dir, file));
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

/** Each fixture: the Pi that made it, its session files and how many summarisation requests Pi sent while making it. */
const CHAT_FIXTURES: [string, string, string[], number][] = [
  ["0.87.1", "01-basic-text", ["01-basic-text.jsonl"], 0],
  ["0.87.1", "02-builtin-tools", ["02-builtin-tools.jsonl"], 0],
  ["0.87.1", "03-model-thinking-name", ["03-model-thinking-name.jsonl"], 0],
  ["0.87.1", "05-bash-execution", ["05-bash-execution.jsonl"], 0],
  ["0.87.1", "06-compaction-manual", ["06-compaction-manual.jsonl"], 3],
  ["0.87.1", "07-compaction-auto", ["07-compaction-auto.jsonl"], 3],
  ["0.87.1", "08-branching-tree", ["08-branching-tree.jsonl"], 1],
  ["0.87.1", "10-extension-entries", ["10-extension-entries.jsonl"], 0],
  ["0.73.1", "01-basic-text", ["01-basic-text.jsonl"], 0],
  ["0.73.1", "02-builtin-tools", ["02-builtin-tools.jsonl"], 0],
  ["0.73.1", "03-model-thinking-name", ["03-model-thinking-name.jsonl"], 0],
  ["0.73.1", "04-errors-retry-abort", ["04-errors-retry-abort.jsonl"], 0],
  ["0.73.1", "05-bash-execution", ["05-bash-execution.jsonl"], 0],
  ["0.73.1", "06-compaction-manual", ["06-compaction-manual.jsonl"], 3],
  ["0.73.1", "07-compaction-auto", ["07-compaction-auto.jsonl"], 2],
  ["0.73.1", "08-branching-tree", ["08-branching-tree.jsonl"], 1],
  ["0.73.1", "09-fork-clone", ["09-fork-clone.jsonl", "09-fork-clone.fork.jsonl", "09-fork-clone.clone.jsonl"], 0],
  ["0.73.1", "10-extension-entries", ["10-extension-entries.jsonl"], 0],
  ["0.73.1", "13-images", ["13-images.jsonl"], 0],
];

function options(thinkingLevel: ThinkingLevel, sessionId: string, maxTokens?: number) {
  return { apiKey: "fake-key", reasoning: thinkingLevel, sessionId, ...(maxTokens ? { maxTokens } : {}) };
}

describe.each(CHAT_FIXTURES)("openai-completions body, Pi %s fixture %s", (version, name, files, summaryCount) => {
  const images = name === "13-images";
  const dir = version === "0.87.1" ? FIXTURES_087 : FIXTURES;
  const strict = version === "0.73.1";
  // Pi 0.87.1 keeps the output cap inside the room the window leaves: 07 ran with a 20000-token window.
  const window = version === "0.87.1" && name === "07-compaction-auto" ? 20000 : 128000;

  test("every main request equals Pi's", () => {
    const answered = answeredRequests(name, files, dir);
    expect(answered.length).toBeGreaterThan(0);
    for (const { request, messages, thinkingLevel, modelId, sessionId } of answered) {
      const model = fakeModel(modelId, "openai-completions", images, strict, window);
      const context = llmContext(request.body, messages);
      const { body, headers } = buildCompletionsRequest(model, context, options(thinkingLevel, sessionId));
      expect(JSON.stringify(withRoomChecked(body, request.body, model, context))).toBe(JSON.stringify(request.body));
      expect(headers).toEqual({});
    }
  });

  test("summarisation side requests keep Pi's shape (no tools, their own max_completion_tokens)", () => {
    const summaries = readRequests(name, dir).filter(isSummaryRequest);
    expect(summaries).toHaveLength(summaryCount);
    for (const request of summaries) {
      const recorded = request.body.messages as { role: string; content: { type: string; text: string }[] }[];
      const messages: LlmMessage[] = recorded.slice(1).map((m) => ({ role: "user", content: m.content as never, timestamp: 0 }));
      const model = fakeModel(request.body.model as string, "openai-completions", images, strict, window);
      const context = { systemPrompt: recorded[0]!.content as unknown as string, messages };
      const { body } = buildCompletionsRequest(model, context, options("off", "s", request.body.max_completion_tokens as number));
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
    }
  });

  test.each(files)("continuation request of %s equals Pi's", (file) => {
    const expected = readNextRequest(file.replace(/\.jsonl$/, ""), dir);
    expect(expected.api).toBe("chat");
    const next = nextContext(file, dir);
    const model = fakeModel(next.modelId, "openai-completions", images, strict, window);
    const context = llmContext(expected.body, next.messages);
    const { body } = buildCompletionsRequest(model, context, options(next.thinkingLevel, next.sessionId));
    expect(JSON.stringify(withRoomChecked(body, expected.body, model, context))).toBe(JSON.stringify(expected.body));
  });
});

/**
 * Where Pi kept the output cap inside the room its window left, the exact figure rests on the
 * length of the prompt and tool list Pi estimated: its paths before the fixtures were made
 * neutral, and the `constrainedSampling` its tool declarations carry. Ours must be the same rule
 * applied to what we send (window − estimate − 4096), and near Pi's; the rest of the body equal.
 */
function withRoomChecked(ours: Record<string, unknown>, theirs: Record<string, unknown>, model: Model, context: LlmContext): Record<string, unknown> {
  const recorded = theirs.max_completion_tokens as number | undefined;
  if (recorded === undefined || recorded >= model.maxTokens) return ours;
  const mine = ours.max_completion_tokens as number;
  expect(mine).toBe(model.contextWindow - estimateRequestTokens(context) - 4096);
  expect(Math.abs(mine - recorded)).toBeLessThan(100);
  return { ...ours, max_completion_tokens: recorded };
}

describe("openai-responses body, fixture 12-openai-responses", () => {
  const name = "12-openai-responses";

  test("every request equals Pi's, with Pi's session headers", () => {
    const answered = answeredRequests(name, [`${name}.jsonl`]);
    expect(answered.length).toBe(2);
    for (const { request, messages, thinkingLevel, modelId, sessionId } of answered) {
      const model = fakeModel(modelId, "openai-responses", false, true);
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
    const model = fakeModel(next.modelId, "openai-responses", false, true);
    const { body } = buildResponsesRequest(model, llmContext(expected.body, next.messages), options(next.thinkingLevel, next.sessionId));
    expect(JSON.stringify(body)).toBe(JSON.stringify(expected.body));
  });
});
