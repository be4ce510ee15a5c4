/**
 * The recorded Pi 0.87.1 requests of test/fixtures/pi-0.87.1-wire/<google api>/ paired with the
 * context each was built from (wire-fixtures.ts `bodyPromptCalls`), the system prompt taken from
 * the recorded body's `systemInstruction`.
 */
import { bodyPromptCalls, type BodyPromptCall, type SequencedRequest } from "./wire-fixtures.ts";

export type GoogleRecordedRequest = SequencedRequest;
export type GoogleRecordedCall = BodyPromptCall<GoogleRecordedRequest>;

/** The system prompt as Pi's body carried it. */
function systemPrompt(body: Record<string, unknown>): string {
  const system = body.systemInstruction as { parts: { text: string }[] } | undefined;
  return system?.parts.map((part) => part.text).join("") ?? "";
}

export function recordedCalls(api: string, run: string): GoogleRecordedCall[] {
  return bodyPromptCalls<GoogleRecordedRequest>(api, run, systemPrompt);
}
