/**
 * The recordings of `scripts/compat/wire/<api>.ts` (test/fixtures/pi-0.87.1-wire/<api>/): each
 * request Pi sent paired with the context it was built from, rebuilt from Pi's session file the
 * way pig's agent loop builds it (the transcript's system messages replayed into the prompt and
 * tools, the rest through `convertToLlm`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlmContext, Model, ThinkingLevel } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";
import { currentSystemMessage, declaredTools, systemPromptText } from "../../src/session/system-messages.ts";
import { declaredToolSpecs } from "./declared-tools.ts";

export const WIRE_087 = join(import.meta.dir, "..", "fixtures", "pi-0.87.1-wire");
/** What the recordings carry in place of the fake key. */
export const CREDENTIAL_MARKER = "<credential>";

export interface WireRequest {
  method: string;
  path: string;
  /** The query, where the recording kept it (`?api-version=v1`). */
  query?: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface RecordedExchange {
  request: WireRequest;
  context: LlmContext;
  thinkingLevel: ThinkingLevel;
  sessionId: string;
  modelId: string;
}

export function readWireRequests(api: string, run: string): WireRequest[] {
  return readFileSync(join(WIRE_087, api, `${run}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as WireRequest);
}

/** Every request of a run with the context rebuilt from the session up to the answer it got. */
export function recordedExchanges(api: string, run: string): RecordedExchange[] {
  const requests = readWireRequests(api, run);
  const store = SessionStore.open(join(WIRE_087, api, `${run}.session.jsonl`));
  try {
    const answers = store.tree.records.filter((record) => record.type === "message" && record.role === "assistant");
    if (answers.length !== requests.length) throw new Error(`${api}/${run}: ${requests.length} requests but ${answers.length} answers`);
    return requests.map((request, i) => {
      const answer = answers[i]!;
      const built = store.buildContext(answer.parentId as string);
      const loadout = currentSystemMessage(built.messages);
      const tools = declaredTools(loadout).map((tool) => ({ ...tool }));
      const context: LlmContext = {
        systemPrompt: systemPromptText(loadout),
        messages: convertToLlm(built.messages),
        ...(tools.length > 0 ? { tools } : {}),
        ...(loadout ? { system: loadout } : {}),
      };
      const entry = store.getEntry(answer.id) as { message: { model: string } };
      return { request, context, thinkingLevel: built.thinkingLevel as ThinkingLevel, sessionId: store.sessionId, modelId: entry.message.model };
    });
  } finally {
    store.close();
  }
}

/** A recorded request, numbered in the order it was sent. */
export interface SequencedRequest extends WireRequest {
  seq: number;
}

export interface BodyPromptCall<R extends SequencedRequest> {
  request: R;
  context: LlmContext;
  thinkingLevel: ThinkingLevel;
  sessionId: string;
}

/**
 * The recordings of `run` (session file `<run>.jsonl` unless `sessionFile` names another): each request paired with the context of the
 * answer it got, rebuilt up to that answer's parent with `convertToLlm`, the tools from the
 * session's system message (as Pi's agent declared them) and the system prompt as the recorded
 * body carried it (`systemPromptOf`; the agent's own words, pig's prompt differs).
 */
export function bodyPromptCalls<R extends SequencedRequest>(
  api: string,
  run: string,
  systemPromptOf: (body: R["body"]) => string,
  sessionFile = `${run}.jsonl`,
): BodyPromptCall<R>[] {
  const requests = readWireRequests(api, run) as R[];
  const store = SessionStore.open(join(WIRE_087, api, sessionFile));
  try {
    const answers = store.tree.records.filter((record) => record.type === "message" && record.role === "assistant");
    if (answers.length !== requests.length) throw new Error(`${api}/${run}: ${requests.length} requests but ${answers.length} answers`);
    return requests.map((request, i) => {
      const built = store.buildContext(answers[i]!.parentId as string);
      return {
        request,
        context: { systemPrompt: systemPromptOf(request.body), tools: declaredToolSpecs(built.messages), messages: convertToLlm(built.messages) },
        thinkingLevel: built.thinkingLevel as ThinkingLevel,
        sessionId: store.sessionId,
      };
    });
  } finally {
    store.close();
  }
}

/** The model as Pi 0.87.1's catalogue defines it (the recording's model.json), sent to `baseUrl`. */
export function wireModel(api: string, baseUrl: string): Model {
  const model = JSON.parse(readFileSync(join(WIRE_087, api, "model.json"), "utf8")) as Model & { inputLimits?: unknown };
  const { inputLimits: _limits, ...rest } = model;
  return { ...rest, baseUrl };
}

/** Headers every HTTP client adds its own way (transport, SDK telemetry): not compared. */
const CLIENT_HEADERS = /^(x-stainless-.*|accept-encoding|accept-language|connection|content-length|sec-fetch-mode|host)$/;

/**
 * The headers of a request that say something to the provider, names lower-cased, with `secret`
 * written as `marker`. `user-agent` is kept only when a provider's own value is sent (Copilot's
 * editor identity), not each client's own.
 */
export function relevantHeaders(headers: Record<string, string>, secret: string, marker: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (CLIENT_HEADERS.test(lower)) continue;
    if (lower === "user-agent" && !value.startsWith("GitHubCopilotChat/")) continue;
    out[lower] = value.split(secret).join(marker);
  }
  return out;
}
