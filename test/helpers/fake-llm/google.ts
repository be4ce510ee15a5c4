/**
 * Gemini streaming (`POST …/models/{model}:streamGenerateContent?alt=sse`, the Gemini API and
 * Vertex AI alike): `data:` frames of `GenerateContentResponse`, CRLF-terminated as Google sends
 * them — thought parts, text parts, one part per function call (whole), then a last chunk with the
 * finish reason and `usageMetadata`. Errors use Google's body, `{"error": {code, message, status}}`.
 */
import { chunks, type IdMaker, type Plan } from "./common.ts";
import type { ScriptError } from "./script.ts";

/** The script's chat-style finish reasons in Gemini's words; anything else (SAFETY, …) passes through. */
const FINISH_REASONS: Record<string, string> = { stop: "STOP", length: "MAX_TOKENS", tool_calls: "STOP" };

/** A base64 thought signature, as Gemini attaches to the part that ends a thought. */
function signature(id: string): string {
  return Buffer.from(`fakesig_${id}`).toString("base64");
}

function frame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\r\n\r\n`;
}

/** The model named in a `…/models/{model}:streamGenerateContent` path. */
export function googleModelOf(path: string): string {
  return /\/models\/([^/:]+):/.exec(path)?.[1] ?? "fake-model";
}

export function googleFrames(plan: Plan, ids: IdMaker, path: string): string[] {
  const responseId = ids.next("gresp_");
  const modelVersion = googleModelOf(path);
  const frames: string[] = [];
  const send = (parts: unknown[], extra: Record<string, unknown> = {}) =>
    frames.push(frame({ candidates: [{ content: { parts, role: "model" }, index: 0, ...extra }], modelVersion, responseId }));

  const thinking = chunks(plan.thinking, plan.chunkSize);
  thinking.forEach((piece, i) => {
    const last = i === thinking.length - 1;
    send([{ text: piece, thought: true, ...(last ? { thoughtSignature: signature(responseId) } : {}) }]);
  });
  for (const piece of chunks(plan.text, plan.chunkSize)) send([{ text: piece }]);
  plan.toolCalls.forEach((call, i) => {
    const args = JSON.parse(call.args) as unknown;
    const part = { functionCall: { name: call.name, args, ...(call.id ? { id: call.id } : {}) } };
    // Gemini signs the first call of a turn when it thought first.
    send([i === 0 && plan.thinking !== "" ? { ...part, thoughtSignature: signature(`${responseId}_call`) } : part]);
  });

  if (plan.midStreamError !== undefined) {
    frames.push(frame({ error: { code: 500, message: plan.midStreamError, status: "INTERNAL" } }));
    return frames;
  }
  const thoughts = plan.thinking === "" ? 0 : Math.ceil(plan.thinking.length / 4);
  const { prompt, completion, cached } = plan.usage;
  frames.push(
    frame({
      candidates: [{ finishReason: FINISH_REASONS[plan.finishReason] ?? plan.finishReason, index: 0 }],
      usageMetadata: {
        promptTokenCount: prompt,
        candidatesTokenCount: completion,
        totalTokenCount: prompt + completion + thoughts,
        ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
        ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
      },
      modelVersion,
      responseId,
    }),
  );
  return frames;
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** Google's error body for a scripted error. */
export function googleErrorBody(error: ScriptError): unknown {
  return { error: { code: error.status, message: error.message, status: error.type ?? STATUS_NAMES[error.status] ?? "UNKNOWN" } };
}
