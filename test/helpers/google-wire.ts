/**
 * The recorded Pi 0.87.1 requests of test/fixtures/pi-0.87.1-wire/<api>/ paired with the context
 * each was built from: the session file's assistant answers in order, each rebuilt up to its
 * parent with pig's `convertToLlm`, and the system prompt and tools taken from the recorded body.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LlmContext, ThinkingLevel, ToolSpec } from "../../src/ai/types.ts";
import { convertToLlm } from "../../src/session/convert.ts";
import { SessionStore } from "../../src/session/store.ts";

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

type Declaration = { name: string; description: string; parametersJsonSchema: Record<string, unknown> };

function promptAndTools(body: Record<string, unknown>): { systemPrompt: string; tools?: ToolSpec[] } {
  const system = body.systemInstruction as { parts: { text: string }[] } | undefined;
  const systemPrompt = system?.parts.map((part) => part.text).join("") ?? "";
  const declarations = (body.tools as { functionDeclarations: Declaration[] }[] | undefined)?.[0]?.functionDeclarations;
  if (!declarations) return { systemPrompt };
  return {
    systemPrompt,
    tools: declarations.map((d) => ({ name: d.name, description: d.description, parameters: d.parametersJsonSchema })),
  };
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
        context: { ...promptAndTools(request.body), messages: convertToLlm(built.messages) },
        thinkingLevel: built.thinkingLevel as ThinkingLevel,
        sessionId: store.sessionId,
      };
    });
  } finally {
    store.close();
  }
}
