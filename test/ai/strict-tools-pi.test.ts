/**
 * Strict tools against Pi 0.87.1 itself: test/fixtures/pi-0.87.1-strict/tools.json holds, for
 * catalogue models of every wire API with and without the flags that decide strict sampling, the
 * tool part of the request Pi's own stream functions built (or the error the request ended with),
 * made by scripts/compat/strict-tools.ts. pig's request builders get the same model and tools
 * (Pi's built-in tool declarations, a tool asking for nothing, one whose schema has no strict
 * form, ones that require strict sampling) and must send the same.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { buildAnthropicRequest } from "../../src/ai/providers/anthropic-request.ts";
import { buildBedrockBody } from "../../src/ai/providers/bedrock-request.ts";
import { buildGoogleBody } from "../../src/ai/providers/google-request.ts";
import { buildMistralRequest } from "../../src/ai/providers/mistral-request.ts";
import { buildCodexBody } from "../../src/ai/providers/openai-codex-request.ts";
import { buildCompletionsRequest } from "../../src/ai/providers/openai-completions.ts";
import { buildResponsesRequest } from "../../src/ai/providers/openai-responses-request.ts";
import type { LlmContext, Model, ToolSpec } from "../../src/ai/types.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "pi-0.87.1-strict", "tools.json");

const Case = v.object({
  name: v.string(),
  model: v.custom<Model>((value) => typeof value === "object" && value !== null && typeof (value as Model).api === "string"),
  tools: v.array(v.custom<ToolSpec>((value) => typeof value === "object" && value !== null)),
  pi: v.record(v.string(), v.unknown()),
});
const Fixture = v.object({ pi: v.literal("0.87.1"), cases: v.array(Case) });

const { cases } = v.parse(Fixture, JSON.parse(readFileSync(FIXTURE, "utf8")));

/** The tool part of pig's request for `model`, shaped as the fixture keeps Pi's. */
function pigToolPart(model: Model, tools: ToolSpec[]): Record<string, unknown> {
  const context: LlmContext = { systemPrompt: "You are a test.", messages: [{ role: "user", content: "hi", timestamp: 2 }], tools };
  const options = { apiKey: "fake-key" };
  switch (model.api) {
    case "openai-completions":
      return { tools: buildCompletionsRequest(model, context, options).body.tools };
    case "openai-responses":
      return { tools: buildResponsesRequest(model, context, options).body.tools };
    case "openai-codex-responses":
      return { tools: buildCodexBody(model, context, options).tools };
    case "anthropic-messages":
      return { tools: buildAnthropicRequest(model, context, options).body.tools };
    case "bedrock-converse-stream":
      return { toolConfig: buildBedrockBody(model, context, { ...options, env: {} }, "us-east-1").toolConfig };
    case "google-generative-ai":
    case "google-vertex": {
      const body = buildGoogleBody(model, context, options, model.api === "google-vertex" ? "vertex" : "gemini");
      return { tools: body.tools, toolConfig: body.toolConfig };
    }
    case "mistral-conversations":
      return { tools: buildMistralRequest(model, context, options, "pig (test)").body.tools };
    default:
      throw new Error(`no request builder for ${model.api}`);
  }
}

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the request to fail");
}

describe("strict tools as Pi 0.87.1 sends them", () => {
  test("the fixture covers every API with strict tools, both ways", () => {
    const apis = new Set(cases.map((c) => c.model.api));
    for (const api of ["openai-completions", "openai-responses", "openai-codex-responses", "anthropic-messages", "bedrock-converse-stream", "google-generative-ai", "google-vertex", "mistral-conversations"]) {
      expect(apis).toContain(api);
    }
    const strictSomewhere = cases.filter((c) => JSON.stringify(c.pi).includes('"additionalProperties":false'));
    const strictNowhere = cases.filter((c) => c.pi.error === undefined && !JSON.stringify(c.pi).includes('"additionalProperties":false'));
    expect(strictSomewhere.length).toBeGreaterThan(5);
    expect(strictNowhere.length).toBeGreaterThan(5);
  });

  for (const c of cases) {
    if (typeof c.pi.error === "string") {
      const piError = c.pi.error;
      test(`${c.name}: the request fails, naming the tool, as Pi's does`, () => {
        const message = thrown(() => pigToolPart(c.model, c.tools));
        if (piError.endsWith("strict tools are unsupported.")) {
          // pig says which model and which rule: Pi's sentence, then why.
          expect(message.startsWith(piError.slice(0, -1))).toBe(true);
          expect(message).toContain(`${c.model.provider}/${c.model.id}`);
        } else {
          expect(message).toBe(piError);
        }
      });
      continue;
    }
    test(`${c.name}: the tools Pi sends`, () => {
      const pig = pigToolPart(c.model, c.tools);
      if (c.model.api === "bedrock-converse-stream") {
        // The fixture holds Pi's input to the AWS SDK, whose key order is not the wire's
        // (test/ai/bedrock-requests.test.ts compares the wire order).
        expect(pig).toEqual(c.pi);
      } else {
        expect(JSON.stringify(pig)).toBe(JSON.stringify(c.pi));
      }
    });
  }
});
