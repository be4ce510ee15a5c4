/**
 * GitHub Copilot's and Cloudflare's requests against the ones Pi 0.87.1 sent for the same
 * conversation (test/fixtures/pi-0.87.1-wire/{github-copilot/*,cloudflare-*}: think, read a file,
 * answer; and a prompt with an image). pig's own stream sends each request to a fake server on
 * loopback, with the context rebuilt from Pi's session file and Pi's catalogue entry of the model;
 * the path, the body and every header that says something to the provider must be Pi's: Copilot's editor
 * identity, `X-Initiator`, `Openai-Intent`, `Copilot-Vision-Request` and bearer token; Cloudflare's
 * account and gateway in the path, and the gateway's `cf-aig-authorization` in place of a key.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { streamFor } from "../../src/ai/stream.ts";
import type { LlmContext, Model, StreamOptions } from "../../src/ai/types.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fake-llm/server.ts";
import { recordedExchanges, relevantHeaders, wireModel } from "../helpers/wire-fixtures.ts";

const SECRET = "pig-side-secret-3f9a1c";

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm({ mode: "text" });
});
afterAll(async () => {
  await llm.close();
});

interface Case {
  dir: string;
  /** The base URL the recording's models.json gave the provider, on this test's server. */
  baseUrl: (url: string) => string;
  /** What the credential carries besides the key (auth.json `env`). */
  env?: Record<string, string>;
}

const CASES: Case[] = [
  { dir: "github-copilot/openai-completions", baseUrl: (url) => url },
  { dir: "github-copilot/anthropic-messages", baseUrl: (url) => url },
  { dir: "github-copilot/openai-responses", baseUrl: (url) => url },
  {
    dir: "cloudflare-workers-ai",
    baseUrl: (url) => `${url}/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1`,
    env: { CLOUDFLARE_ACCOUNT_ID: "acct-0123" },
  },
  {
    dir: "cloudflare-ai-gateway/anthropic-messages",
    baseUrl: (url) => `${url}/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/anthropic`,
    env: { CLOUDFLARE_ACCOUNT_ID: "acct-0123", CLOUDFLARE_GATEWAY_ID: "gw-main" },
  },
];

/** Sends one request with pig's provider code and returns it as the server saw it. */
async function pigRequest(model: Model, options: StreamOptions, context: LlmContext) {
  const before = llm.requests.length;
  let last: string | undefined;
  for await (const event of streamFor(model)(model, context, options)) last = event.type === "error" ? `error: ${event.error.errorMessage}` : event.type;
  expect(last).toBe("done");
  expect(llm.requests.length).toBe(before + 1);
  return llm.requests[before]!;
}

/**
 * Body fields that differ from Pi's for reasons outside these providers, named so that the rest
 * of each body is still compared: pig caps an Anthropic request's default output at 32000
 * tokens where Pi 0.87.1 asks for the model's whole `maxTokens`; and pig's estimate of the room an
 * image takes in the context window (which bounds the output cap) is not Pi's.
 */
const NOT_COMPARED: Record<string, string[]> = {
  "cloudflare-ai-gateway/anthropic-messages": ["max_tokens"],
  "cloudflare-workers-ai image": ["max_completion_tokens"],
};

function without(body: unknown, keys: string[]): unknown {
  const out = { ...(body as Record<string, unknown>) };
  for (const key of keys) delete out[key];
  return out;
}

describe.each(CASES)("$dir, Pi 0.87.1's requests", ({ dir, baseUrl, env }) => {
  for (const run of ["tool-call", "image"]) {
    test(`${run}: path, provider headers and body equal Pi's`, async () => {
      const answered = recordedExchanges(dir, run);
      expect(answered.length).toBeGreaterThan(0);
      for (const { request, context, thinkingLevel, sessionId } of answered) {
        const model = wireModel(dir, baseUrl(llm.url));
        const options: StreamOptions = { apiKey: SECRET, sessionId, ...(thinkingLevel !== "off" ? { reasoning: thinkingLevel } : {}), ...(env ? { credentialEnv: env } : {}) };
        const sent = await pigRequest(model, options, context);
        expect(sent.path).toBe(request.path);
        expect(relevantHeaders(sent.headers, SECRET, "[credential]")).toEqual(relevantHeaders(request.headers, "[credential]", "[credential]"));
        const unlike = NOT_COMPARED[`${dir} ${run}`] ?? NOT_COMPARED[dir] ?? [];
        expect(JSON.stringify(without(sent.body, unlike))).toBe(JSON.stringify(without(request.body, unlike)));
      }
    });
  }
});
