/**
 * Azure OpenAI Responses requests against the ones Pi 0.87.1 sent for the same conversation
 * (test/fixtures/pi-0.87.1-wire/azure-openai-responses: think, read a file, answer; and a prompt
 * with an image). The context is rebuilt from Pi's session file, the system prompt and tools are
 * taken from the recorded body; body, URL and the headers that matter must be Pi's.
 *
 * One difference remains, not Azure's: Pi 0.87.1 marks its built-in tools for JSON-schema
 * constrained sampling and declares them `strict: true` to a server that takes strict schemas;
 * pig declares every tool `strict: false` there (docs/decisions.md, "Azure OpenAI").
 */
import { describe, expect, test } from "bun:test";
import { buildAzureResponsesRequest } from "../../src/ai/providers/azure-openai-responses.ts";
import { resolveAzureEndpoint } from "../../src/ai/providers/azure-config.ts";
import { envLookup } from "../../src/ai/providers/provider-env.ts";
import { answeredWireRequests, wireContext, wireModel } from "../helpers/wire-fixtures.ts";

const DIR = "azure-openai-responses";
/** The recorded server's address, its port written as PORT in the fixtures. */
const BASE = "http://127.0.0.1:4242/openai/v1";
const ENV = { AZURE_OPENAI_API_VERSION: "v1" };

/** The one remaining difference: Pi's `strict: true` on its constrained-sampling tools. */
function withoutStrict(body: Record<string, unknown>): Record<string, unknown> {
  const tools = body.tools as Record<string, unknown>[] | undefined;
  if (!tools) return body;
  return { ...body, tools: tools.map(({ strict: _strict, ...tool }) => tool) };
}

describe.each(["tool-call", "image"])("azure-openai-responses, Pi 0.87.1 run %s", (run) => {
  const answered = answeredWireRequests(DIR, run);

  test("every request body equals Pi's (but for `strict` on its built-in tools)", () => {
    expect(answered.length).toBeGreaterThan(0);
    for (const { request, messages, thinkingLevel, sessionId } of answered) {
      const model = wireModel(DIR, BASE);
      const { body } = buildAzureResponsesRequest(model, wireContext(request.body, messages), { apiKey: "k", reasoning: thinkingLevel, sessionId }, ENV);
      expect(JSON.stringify(withoutStrict(body))).toBe(JSON.stringify(withoutStrict(request.body)));
      // The difference named above, so a change on either side is seen.
      expect((body.tools as { strict?: boolean }[]).map((tool) => tool.strict)).toEqual((request.body.tools as unknown[]).map(() => false));
      expect((request.body.tools as { strict?: boolean }[]).map((tool) => tool.strict)).toEqual((request.body.tools as unknown[]).map(() => true));
    }
  });

  test("URL, api-version and headers are Pi's: the key in api-key, no session headers", () => {
    for (const { request, messages, thinkingLevel, sessionId } of answered) {
      const model = wireModel(DIR, BASE);
      const endpoint = resolveAzureEndpoint(model, envLookup(ENV));
      expect(`${endpoint.baseUrl}/responses`).toBe(`http://127.0.0.1:4242${request.path}`);
      expect(`?api-version=${endpoint.apiVersion}`).toBe(request.query!);
      expect(request.headers["api-key"]).toBe("[credential]");
      expect(request.headers.authorization).toBeUndefined();
      const { headers } = buildAzureResponsesRequest(model, wireContext(request.body, messages), { apiKey: "k", reasoning: thinkingLevel, sessionId }, ENV);
      expect(headers).toEqual({});
      for (const name of ["session_id", "x-client-request-id"]) expect(request.headers[name]).toBeUndefined();
    }
  });
});
