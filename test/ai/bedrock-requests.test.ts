/**
 * Pig's Bedrock ConverseStream requests against the ones Pi 0.87.1 sent through the AWS SDK
 * (test/fixtures/pi-0.87.1-wire/bedrock-converse-stream, made by
 * scripts/compat/wire/bedrock-converse-stream.ts): for every recorded request the context is
 * rebuilt from Pi's session file up to the answer, the system prompt and tool declarations are
 * the system prompt is taken from the recorded body and the tool declarations from the session's
 * system message (the agents' own words; they ask for JSON-schema sampling, which this model's
 * compat `supportsStrictMode` grants: strict schemas and `strict: true`), and pig's body must
 * equal Pi's, key order included. The headers pig signs must be the ones Pi's SDK signed, less the
 * SDK's own bookkeeping headers.
 */
import { describe, expect, test } from "bun:test";
import { buildBedrockBody } from "../../src/ai/providers/bedrock-request.ts";
import { sha256Hex } from "../../src/ai/providers/aws-sigv4.ts";
import { bedrockEndpoint, signedBedrockHeaders } from "../../src/ai/providers/bedrock-endpoint.ts";
import type { Model } from "../../src/ai/types.ts";
import { bodyPromptCalls, type SequencedRequest } from "../helpers/wire-fixtures.ts";

const MODEL_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const REGION = "eu-west-1";

/** Pi 0.87.1's catalogue entry for the model the fixtures were recorded with. */
const MODEL: Model = {
  id: MODEL_ID,
  name: "Claude Sonnet 4.5 (US)",
  api: "bedrock-converse-stream",
  provider: "amazon-bedrock",
  baseUrl: "http://127.0.0.1:1",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 3.3, output: 16.5, cacheRead: 0.33, cacheWrite: 4.125 },
  contextWindow: 200000,
  maxTokens: 64000,
  compat: { supportsStrictMode: true },
};

type RecordedBody = { system?: { text?: string }[]; toolConfig?: { tools: { toolSpec: Record<string, unknown> }[] } } & Record<string, unknown>;
type Recorded = SequencedRequest & { body: RecordedBody };

/** The system prompt as Pi's body carried it (the agents' own words). */
function systemPrompt(body: RecordedBody): string {
  return body.system?.[0]?.text ?? "";
}

/** Headers the AWS SDK adds for its own retry and telemetry bookkeeping; pig has none of these. */
const SDK_ONLY = new Set(["amz-sdk-invocation-id", "amz-sdk-request", "x-amz-user-agent"]);

describe("Bedrock requests equal Pi 0.87.1's", () => {
  for (const run of ["tool", "image"]) {
    const calls = bodyPromptCalls<Recorded>("bedrock-converse-stream", run, systemPrompt);
    test(`${run}: one answer per recorded request`, () => {
      expect(calls.length).toBeGreaterThan(0);
    });
    calls.forEach(({ request, context, thinkingLevel }) => {
      test(`${run} request ${request.seq}: path, body and signed header set`, () => {
        expect(request.body.toolConfig?.tools.every(({ toolSpec }) => toolSpec.strict === true)).toBe(true);
        const body = buildBedrockBody(MODEL, context, { apiKey: "<authenticated>", reasoning: thinkingLevel, env: {} }, REGION);
        expect(JSON.stringify(body)).toBe(JSON.stringify(request.body));

        const endpoint = bedrockEndpoint(MODEL, { AWS_REGION: REGION });
        expect(request.method).toBe("POST");
        expect(endpoint.path).toBe(request.path);
        expect(endpoint.region).toBe(REGION);

        const raw = JSON.stringify(body);
        const headers = signedBedrockHeaders(endpoint, raw, { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "x", sessionToken: "t" }, new Date());
        const scope = /Credential=<credential>\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=<credential>$/.exec(
          request.headers.authorization ?? "",
        );
        expect(scope).not.toBeNull();
        const [, piRegion, piService, piSigned] = scope!;
        expect([endpoint.region, "bedrock"]).toEqual([piRegion!, piService!]);
        expect(headers.authorization).toContain(`/${piRegion}/${piService}/aws4_request, SignedHeaders=`);
        expect(Object.keys(headers.signed).sort()).toEqual(piSigned!.split(";").filter((name) => !SDK_ONLY.has(name)));
        expect(headers.signed["content-type"]).toBe(request.headers["content-type"]!);
        // The body is Pi's byte for byte, so length and hash are the ones Pi's SDK signed.
        expect([headers.signed["content-length"], headers.signed["x-amz-content-sha256"]]).toEqual([request.headers["content-length"]!, request.headers["x-amz-content-sha256"]!]);
        expect(headers.signed["x-amz-content-sha256"]).toBe(sha256Hex(raw));
      });
    });
  }
});
