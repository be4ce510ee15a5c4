/**
 * The recorded Pi 0.87.1 requests of test/fixtures/pi-0.87.1-wire/<api>/ paired with the context
 * each was built from: the session file's assistant answers in order, each rebuilt up to its
 * parent with pig's `convertToLlm`, the system prompt taken from the recorded body and the tools
 * from the session's system message (as Pi's agent declared them, asking for strict sampling).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlmContext, ThinkingLevel } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";
import { declaredToolSpecs } from "./declared-tools.ts";

export const WIRE_087 = join(import.meta.dir, "..", "fixtures", "pi-0.87.1-wire");

export interface GoogleRecordedRequest {
  seq: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface GoogleRecordedCall {
  request: GoogleRecordedRequest;
  context: LlmContext;
  thinkingLevel: ThinkingLevel;
  sessionId: string;
}

/** The system prompt as Pi's body carried it (the agent's own words, pig's prompt differs). */
function systemPrompt(body: Record<string, unknown>): string {
  const system = body.systemInstruction as { parts: { text: string }[] } | undefined;
  return system?.parts.map((part) => part.text).join("") ?? "";
}

export function recordedCalls(api: string, run: string): GoogleRecordedCall[] {
  const dir = join(WIRE_087, api);
  const requests = readFileSync(join(dir, `${run}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as GoogleRecordedRequest);
  const store = SessionStore.open(join(dir, `${run}.jsonl`));
  try {
    const answers = store.tree.records.filter((record) => record.type === "message" && record.role === "assistant");
    if (answers.length !== requests.length) throw new Error(`${api}/${run}: ${requests.length} requests but ${answers.length} answers`);
    return requests.map((request, i) => {
      const built = store.buildContext(answers[i]!.parentId as string);
      return {
        request,
        context: { systemPrompt: systemPrompt(request.body), tools: declaredToolSpecs(built.messages), messages: convertToLlm(built.messages) },
        thinkingLevel: built.thinkingLevel as ThinkingLevel,
        sessionId: store.sessionId,
      };
    });
  } finally {
    store.close();
  }
}
