/**
 * pig's requests over Pi's message protocol against the ones Pi 0.87.1 sent to the Radius
 * gateway for the same conversation (test/fixtures/pi-0.87.1-wire/pi-messages, made by
 * scripts/compat/wire/pi-messages.ts): the `balanced` model thinking, calling `read` and
 * answering, and the same model given an image. The context comes from Pi's session file; body
 * and headers must be equal.
 */
import { describe, expect, test } from "bun:test";
import { buildPiMessagesRequest } from "../../src/ai/providers/pi-messages-request.ts";
import type { Model } from "../../src/ai/types.ts";
import { CREDENTIAL_MARKER, recordedExchanges } from "../helpers/wire-fixtures.ts";

/** `balanced` as Pi 0.87.1's catalogue has it. */
const BALANCED: Model = {
  id: "balanced",
  name: "Balanced",
  api: "pi-messages",
  provider: "radius",
  baseUrl: "http://127.0.0.1:4010/pi-messages/v1",
  reasoning: true,
  thinkingLevelMap: { off: null, minimal: null, low: "low", medium: null, high: "high", xhigh: null, max: "max" },
  input: ["text", "image"],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 },
  contextWindow: 1048576,
  maxTokens: 131072,
};

for (const run of ["thinking-tool", "image"]) {
  describe(`pi-messages requests, run ${run}`, () => {
    const exchanges = recordedExchanges("pi-messages", run);

    test("every request Pi sent is the one pig builds", () => {
      expect(exchanges.length).toBe(run === "thinking-tool" ? 2 : 1);
      for (const { request, context, thinkingLevel, sessionId, modelId } of exchanges) {
        expect(modelId).toBe("balanced");
        const ours = buildPiMessagesRequest(BALANCED, context, { apiKey: CREDENTIAL_MARKER, reasoning: thinkingLevel, sessionId }, {});
        expect(request.method).toBe("POST");
        expect(new URL(ours.url).pathname).toBe(request.path);
        expect(JSON.stringify(ours.body)).toBe(JSON.stringify(request.body));
        for (const name of ["accept", "authorization", "content-type"]) expect(ours.headers[name]).toBe(request.headers[name]!);
      }
    });
  });
}
