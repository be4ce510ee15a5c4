/**
 * pig's Vertex AI requests against the ones Pi 0.87.1 sent for the same conversation
 * (test/fixtures/pi-0.87.1-wire/google-vertex/, an API key and a base URL of its own): the context
 * rebuilt from Pi's session file, the system prompt and tools from the recorded body; body, path
 * and credential header must be Pi's. Pi's agent declares its tools with JSON-schema sampling, so
 * for this Gemini 3 model their schemas go in strict form with the `VALIDATED` calling mode.
 */
import { describe, expect, test } from "bun:test";
import type { Model } from "../../src/ai/types.ts";
import { buildGoogleBody } from "../../src/ai/providers/google-request.ts";
import { vertexKeyUrl } from "../../src/ai/providers/google-vertex.ts";
import { recordedCalls } from "../helpers/google-wire.ts";

/** Pi 0.87.1's catalogue entry for google-vertex/gemini-3-flash-preview, at the fake server's address. */
const GEMINI_3_FLASH: Model = {
  id: "gemini-3-flash-preview",
  name: "Gemini 3 Flash Preview",
  api: "google-vertex",
  provider: "google-vertex",
  baseUrl: "http://127.0.0.1:9",
  reasoning: true,
  thinkingLevelMap: { off: null, minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: null, max: null },
  input: ["text", "image"],
  cost: { input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0 },
  contextWindow: 1048576,
  maxTokens: 65536,
};

describe.each(["tools", "image"])("google-vertex, Pi 0.87.1 run %s", (run) => {
  const calls = recordedCalls("google-vertex", run);

  test("every request body equals Pi's, strict tools and the validated mode included", () => {
    expect(calls.length).toBe(run === "tools" ? 2 : 1);
    for (const { request, context, thinkingLevel, sessionId } of calls) {
      expect(request.body.toolConfig).toEqual({ functionCallingConfig: { mode: "VALIDATED" } });
      const body = buildGoogleBody(GEMINI_3_FLASH, context, { apiKey: "k", reasoning: thinkingLevel, sessionId }, "vertex");
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
    }
  });

  test("path, method and credential header are Pi's", () => {
    for (const { request } of calls) {
      expect(request.method).toBe("POST");
      expect(new URL(vertexKeyUrl(GEMINI_3_FLASH)).pathname).toBe(request.path);
      expect(request.headers["x-goog-api-key"]).toBe("<credential>");
      expect(request.headers["content-type"]).toBe("application/json");
    }
  });
});
