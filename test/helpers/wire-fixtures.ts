/**
 * The requests Pi 0.87.1 sent to one provider, as scripts/compat/wire/*.ts recorded them under
 * test/fixtures/pi-0.87.1-wire/<dir>/: each request paired with the context pig rebuilds from
 * Pi's session file (the answer's parent as leaf), and the model as Pi's catalogue has it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlmMessage } from "../../src/ai/message-types.ts";
import type { LlmContext, Model, ThinkingLevel, ToolSpec } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";

export const WIRE_087 = join(import.meta.dir, "..", "fixtures", "pi-0.87.1-wire");

export interface WireRequest {
  seq: number;
  method: string;
  path: string;
  query?: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface AnsweredWireRequest {
  request: WireRequest;
  messages: LlmMessage[];
  thinkingLevel: ThinkingLevel;
  sessionId: string;
}

export function readWireRequests(dir: string, run: string): WireRequest[] {
  return readFileSync(join(WIRE_087, dir, `${run}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as WireRequest);
}

/** Every request of `run` with the context it was built from (assistant entries in file order answer them in order). */
export function answeredWireRequests(dir: string, run: string): AnsweredWireRequest[] {
  const requests = readWireRequests(dir, run);
  const store = SessionStore.open(join(WIRE_087, dir, `${run}.session.jsonl`));
  try {
    const answers = store.tree.records.filter((record) => record.type === "message" && record.role === "assistant");
    if (answers.length !== requests.length) throw new Error(`${dir}/${run}: ${requests.length} requests but ${answers.length} answers`);
    return requests.map((request, i) => {
      const context = store.buildContext(answers[i]!.parentId as string);
      return { request, messages: convertToLlm(context.messages), thinkingLevel: context.thinkingLevel as ThinkingLevel, sessionId: store.sessionId };
    });
  } finally {
    store.close();
  }
}

/** The model as Pi 0.87.1's catalogue defines it (model.json), sent to `baseUrl`. */
export function wireModel(dir: string, baseUrl: string): Model {
  const model = JSON.parse(readFileSync(join(WIRE_087, dir, "model.json"), "utf8")) as Model & { inputLimits?: unknown };
  const { inputLimits: _limits, ...rest } = model;
  return { ...rest, baseUrl };
}

/**
 * The system prompt and tool declarations a recorded body carried (the agents' own words), for
 * each API's body shape: Chat Completions `messages[0]`, Responses `input[0]`, Anthropic `system`.
 */
export function wirePromptAndTools(body: Record<string, unknown>): { systemPrompt: string; tools?: ToolSpec[] } {
  let systemPrompt = "";
  if (Array.isArray(body.system)) {
    systemPrompt = (body.system as { text?: string }[]).map((block) => block.text ?? "").join("");
  } else {
    const first = ((body.messages ?? body.input) as { role?: string; content?: unknown }[] | undefined)?.[0];
    if (first && (first.role === "system" || first.role === "developer") && typeof first.content === "string") systemPrompt = first.content;
  }
  const raw = body.tools as Record<string, unknown>[] | undefined;
  if (!raw) return { systemPrompt };
  const tools = raw.map((tool) => {
    const fn = (tool.function ?? tool) as { name: string; description: string; parameters?: Record<string, unknown>; input_schema?: Record<string, unknown> };
    return { name: fn.name, description: fn.description, parameters: (fn.parameters ?? fn.input_schema)! };
  });
  return { systemPrompt, tools };
}

export function wireContext(body: Record<string, unknown>, messages: LlmMessage[]): LlmContext {
  const { systemPrompt, tools } = wirePromptAndTools(body);
  return tools ? { systemPrompt, messages, tools } : { systemPrompt, messages };
}

/** Headers every HTTP client adds its own way (transport, SDK telemetry): not compared. */
const CLIENT_HEADERS = /^(x-stainless-.*|accept-encoding|accept-language|connection|content-length|sec-fetch-mode|host)$/;

/**
 * The headers of a request that say something to the provider, names lower-cased, with
 * `secret` written as the fixtures' marker. `user-agent` is kept only when a provider's own
 * value is sent (Copilot's editor identity), not each client's own.
 */
export function relevantHeaders(headers: Record<string, string>, secret: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (CLIENT_HEADERS.test(lower)) continue;
    if (lower === "user-agent" && !value.startsWith("GitHubCopilotChat/")) continue;
    out[lower] = value.split(secret).join("[credential]");
  }
  return out;
}
