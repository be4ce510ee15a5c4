/**
 * The requests pig builds for the ChatGPT Codex endpoint against the ones Pi 0.87.1 sent for the
 * same conversations (test/fixtures/pi-0.87.1-wire/openai-codex-responses, made by
 * scripts/compat/wire/openai-codex-responses.ts). Each request's context is rebuilt from Pi's
 * session file up to the answer it got; the system prompt is taken from the recorded body and
 * the tools from the session's system message (the agents' own words). Bodies must serialise
 * identically; the headers the backend reads must be equal.
 */
import { describe, expect, test } from "bun:test";
import { release } from "node:os";
import { buildCodexBody, buildCodexHeaders } from "../../src/ai/providers/openai-codex-request.ts";
import { codexAccountId } from "../../src/ai/providers/openai-codex-account.ts";
import type { Model } from "../../src/ai/types.ts";
import { fakeCodexToken, FAKE_CODEX_ACCOUNT_ID } from "../helpers/fake-jwt.ts";
import { bodyPromptCalls, type BodyPromptCall, type SequencedRequest } from "../helpers/wire-fixtures.ts";

/** Pi 0.87.1's built-in gpt-5.5 of `openai-codex`, pointed at the recording's server. */
const GPT_55: Model = {
  id: "gpt-5.5",
  name: "GPT-5.5",
  api: "openai-codex-responses",
  provider: "openai-codex",
  baseUrl: "http://127.0.0.1:1/backend-api",
  reasoning: true,
  thinkingLevelMap: { xhigh: "xhigh", minimal: "low" },
  input: ["text", "image"],
  cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 },
  contextWindow: 272000,
  maxTokens: 128000,
};

/** Each request with the context Pi had when it sent it: the session up to the answer's parent. */
function answered(name: string): BodyPromptCall<SequencedRequest>[] {
  return bodyPromptCalls<SequencedRequest>("openai-codex-responses", name, (body) => body.instructions as string, `${name}.session.jsonl`);
}

/** The headers the backend reads (transport headers such as host and content-length left out). */
const COMPARED_HEADERS = ["accept", "chatgpt-account-id", "content-type", "openai-beta", "originator", "session-id", "x-client-request-id", "authorization"];

function pick(headers: Record<string, string>): Record<string, string> {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.fromEntries(COMPARED_HEADERS.map((name) => [name, lower[name] ?? "(absent)"]));
}

describe.each(["tool", "image", "tool-image"])("openai-codex-responses, Pi 0.87.1 recording %s", (name) => {
  test("every request body equals Pi's", () => {
    const all = answered(name);
    expect(all.length).toBeGreaterThan(0);
    for (const { request, context, thinkingLevel, sessionId } of all) {
      const body = buildCodexBody(GPT_55, context, { apiKey: "token", reasoning: thinkingLevel, sessionId });
      expect(JSON.stringify(body, null, 1)).toBe(JSON.stringify(request.body, null, 1));
    }
  });

  test("the headers the backend reads equal Pi's, the account id taken from the token", () => {
    for (const { request, sessionId } of answered(name)) {
      const token = fakeCodexToken();
      const headers = buildCodexHeaders(GPT_55, { apiKey: token, sessionId }, codexAccountId(token));
      const ours = pick(headers);
      ours.authorization = ours.authorization!.replace(token, "[credential]");
      expect(ours).toEqual(pick(request.headers));
      expect(headers["User-Agent"]!.replace(release(), "<os-release>")).toBe(request.headers["user-agent"]!);
      expect(request.headers["chatgpt-account-id"]).toBe(FAKE_CODEX_ACCOUNT_ID);
      // The body goes compressed, as Pi's did (the stream sets this; the recording shows it).
      expect(request.headers["content-encoding"]).toBe("zstd");
      expect(request.method).toBe("POST");
      expect(request.path).toBe("/backend-api/codex/responses");
    }
  });
});
