/**
 * pig's Mistral requests against the ones Pi 0.87.1 sent for the same conversation
 * (test/fixtures/pi-0.87.1-wire/mistral-conversations, made by
 * scripts/compat/wire/mistral-conversations.ts): Magistral thinking, calling `read` and
 * answering, and Mistral Small given an image. The context comes from Pi's session file, the
 * prompt and tool declarations are Pi's own words. Body and headers must be equal, except the
 * user agent, which names pig (docs/decisions.md).
 */
import { describe, expect, test } from "bun:test";
import { estimateRequestTokens } from "../../src/ai/output-room.ts";
import { buildMistralRequest, mistralUserAgent } from "../../src/ai/providers/mistral-request.ts";
import type { Model } from "../../src/ai/types.ts";
import { CREDENTIAL_MARKER, recordedExchanges } from "../helpers/wire-fixtures.ts";

const API = "mistral-conversations";
const BASE_URL = "http://127.0.0.1:4010/mistral";
const USER_AGENT = mistralUserAgent({ platform: "linux", release: "6.1.0", arch: "x64" });

/** The two models as Pi 0.87.1's catalogue has them. */
const MODELS: Record<string, Model> = {
  "magistral-medium-latest": {
    id: "magistral-medium-latest",
    name: "Magistral Medium (latest)",
    api: API,
    provider: "mistral",
    baseUrl: BASE_URL,
    reasoning: true,
    input: ["text"],
    cost: { input: 2, output: 5, cacheRead: 0.2, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16384,
  },
  "mistral-small-latest": {
    id: "mistral-small-latest",
    name: "Mistral Small (latest)",
    api: API,
    provider: "mistral",
    baseUrl: BASE_URL,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.1, output: 0.3, cacheRead: 0.01, cacheWrite: 0 },
    contextWindow: 256000,
    maxTokens: 256000,
  },
};

for (const run of ["thinking-tool", "image"]) {
  describe(`mistral-conversations requests, run ${run}`, () => {
    const exchanges = recordedExchanges(API, run);

    test("every request Pi sent is the one pig builds", () => {
      expect(exchanges.length).toBe(run === "thinking-tool" ? 2 : 1);
      for (const { request, context, thinkingLevel, sessionId, modelId } of exchanges) {
        const model = MODELS[modelId]!;
        const ours = buildMistralRequest(model, context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId }, USER_AGENT);
        expect(request.method).toBe("POST");
        expect(new URL(ours.url).pathname).toBe(request.path);
        const body = { ...ours.body };
        const recordedMax = request.body.max_tokens as number;
        if (recordedMax < model.maxTokens) {
          // The cap is what the window leaves: Pi estimated it before the paths in the prompt were
          // made neutral, so the figure is checked as a rule and for nearness, then taken as equal.
          expect(body.max_tokens).toBe(model.contextWindow - estimateRequestTokens(context) - 4096);
          expect(Math.abs((body.max_tokens as number) - recordedMax)).toBeLessThan(100);
          body.max_tokens = recordedMax;
        }
        expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
        const lower = Object.fromEntries(Object.entries(ours.headers).map(([name, value]) => [name.toLowerCase(), value]));
        for (const name of ["accept", "authorization", "content-type", "x-affinity"]) expect(lower[name]).toBe(request.headers[name]!);
        // The one deliberate difference: the agent's name in the user agent.
        expect(request.headers["user-agent"]).toStartWith("pi (");
        expect(lower["user-agent"]).toBe(USER_AGENT);
      }
    });
  });
}
