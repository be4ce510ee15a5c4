/**
 * Azure OpenAI Responses requests against the ones Pi 0.87.1 sent for the same conversation
 * (test/fixtures/pi-0.87.1-wire/azure-openai-responses: think, read a file, answer; and a prompt
 * with an image). The context, system prompt and tools included, is rebuilt from Pi's session
 * file; body, URL and the headers that matter must be Pi's.
 */
import { describe, expect, test } from "bun:test";
import { buildAzureResponsesRequest } from "../../src/ai/providers/azure-openai-responses.ts";
import { resolveAzureEndpoint } from "../../src/ai/providers/azure-config.ts";
import { envLookup } from "../../src/ai/providers/provider-env.ts";
import { recordedExchanges, wireModel } from "../helpers/wire-fixtures.ts";

const DIR = "azure-openai-responses";
/** The recorded server's address, its port written as PORT in the fixtures. */
const BASE = "http://127.0.0.1:4242/openai/v1";
const ENV = { AZURE_OPENAI_API_VERSION: "v1" };

describe.each(["tool-call", "image"])("azure-openai-responses, Pi 0.87.1 run %s", (run) => {
  const answered = recordedExchanges(DIR, run);

  test("every request body equals Pi's, the built-in tools declared strict", () => {
    expect(answered.length).toBeGreaterThan(0);
    for (const { request, context, thinkingLevel, sessionId } of answered) {
      const model = wireModel(DIR, BASE);
      const { body } = buildAzureResponsesRequest(model, context, { apiKey: "k", reasoning: thinkingLevel, sessionId }, ENV);
      expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));
      expect((body.tools as { strict?: boolean }[]).map((tool) => tool.strict)).toEqual([true, true, true, true]);
    }
  });

  test("URL, api-version and headers are Pi's: the key in api-key, no session headers", () => {
    for (const { request, context, thinkingLevel, sessionId } of answered) {
      const model = wireModel(DIR, BASE);
      const endpoint = resolveAzureEndpoint(model, envLookup(ENV));
      expect(`${endpoint.baseUrl}/responses`).toBe(`http://127.0.0.1:4242${request.path}`);
      expect(`?api-version=${endpoint.apiVersion}`).toBe(request.query!);
      expect(request.headers["api-key"]).toBe("[credential]");
      expect(request.headers.authorization).toBeUndefined();
      const { headers } = buildAzureResponsesRequest(model, context, { apiKey: "k", reasoning: thinkingLevel, sessionId }, ENV);
      expect(headers).toEqual({});
      for (const name of ["session_id", "x-client-request-id"]) expect(request.headers[name]).toBeUndefined();
    }
  });
});
