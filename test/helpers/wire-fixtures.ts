/**
 * The recordings of `scripts/compat/wire/<api>.ts` (test/fixtures/pi-0.87.1-wire/<api>/): each
 * request Pi sent paired with the context it was built from, rebuilt from Pi's session file the
 * way pig's agent loop builds it (the transcript's system messages replayed into the prompt and
 * tools, the rest through `convertToLlm`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlmContext, ThinkingLevel } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";
import { currentSystemMessage, declaredTools, systemPromptText } from "../../src/session/system-messages.ts";

export const WIRE_087 = join(import.meta.dir, "..", "fixtures", "pi-0.87.1-wire");
/** What the recordings carry in place of the fake key. */
export const CREDENTIAL_MARKER = "<credential>";

export interface WireRequest {
  method: string;
  path: string;
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
