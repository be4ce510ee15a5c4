/**
 * The Gemini wire format shared by the Gemini API (`google-generative-ai`) and Vertex AI
 * (`google-vertex`): the request body pig sends, and the valibot schema of one streamed
 * `GenerateContentResponse` chunk (each `data:` event of `streamGenerateContent?alt=sse`).
 */
import * as v from "valibot";

export interface GoogleInlineData {
  mimeType: string;
  data: string | undefined;
}

export interface GoogleFunctionResponse {
  name: string;
  response: { output: string } | { error: string };
  parts?: { inlineData: GoogleInlineData }[];
  id?: string;
}

/** One part of a turn; the keys are in the order the Gemini SDK serialises them for Pi. */
export interface GooglePart {
  thought?: true;
  text?: string;
  inlineData?: GoogleInlineData;
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: GoogleFunctionResponse;
  thoughtSignature?: string;
}

export interface GoogleContent {
  role: "user" | "model";
  parts: GooglePart[];
}

export interface GoogleFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
}

export interface GoogleThinkingConfig {
  includeThoughts?: true;
  thinkingBudget?: number;
  thinkingLevel?: GoogleThinkingLevel;
}

export type GoogleThinkingLevel = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

export interface GoogleGenerationConfig {
  temperature?: number;
  maxOutputTokens?: number;
  thinkingConfig?: GoogleThinkingConfig;
}

export interface GoogleRequestBody {
  contents: GoogleContent[];
  systemInstruction?: { parts: { text: string }[]; role: "user" };
  tools?: { functionDeclarations: GoogleFunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig: { mode: string } };
  generationConfig?: GoogleGenerationConfig;
}

const count = v.optional(v.nullable(v.number()));

const PartSchema = v.looseObject({
  text: v.optional(v.string()),
  thought: v.optional(v.boolean()),
  thoughtSignature: v.optional(v.string()),
  functionCall: v.optional(
    v.looseObject({
      name: v.optional(v.string()),
      args: v.optional(v.record(v.string(), v.unknown())),
      id: v.optional(v.string()),
    }),
  ),
});

const CandidateSchema = v.looseObject({
  content: v.optional(v.looseObject({ parts: v.optional(v.array(PartSchema)) })),
  finishReason: v.optional(v.string()),
  finishMessage: v.optional(v.string()),
});

export const GoogleChunkSchema = v.looseObject({
  candidates: v.optional(v.array(CandidateSchema)),
  usageMetadata: v.optional(
    v.looseObject({
      promptTokenCount: count,
      candidatesTokenCount: count,
      thoughtsTokenCount: count,
      cachedContentTokenCount: count,
      totalTokenCount: count,
    }),
  ),
  promptFeedback: v.optional(
    v.looseObject({ blockReason: v.optional(v.string()), blockReasonMessage: v.optional(v.string()) }),
  ),
  responseId: v.optional(v.string()),
  /** An error the server reports inside the stream (after a 200). */
  error: v.optional(
    v.looseObject({ code: v.optional(v.number()), message: v.optional(v.string()), status: v.optional(v.string()) }),
  ),
});
export type GoogleChunk = v.InferOutput<typeof GoogleChunkSchema>;
export type GoogleStreamPart = v.InferOutput<typeof PartSchema>;

/** Google's error body: `{"error": {"code": 400, "message": "…", "status": "INVALID_ARGUMENT"}}`. */
export const GoogleErrorBodySchema = v.looseObject({
  error: v.looseObject({
    code: v.optional(v.number()),
    message: v.optional(v.string()),
    status: v.optional(v.string()),
  }),
});
