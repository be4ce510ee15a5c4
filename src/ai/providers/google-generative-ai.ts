/**
 * The Gemini API (`google-generative-ai`): `POST {baseUrl}/models/{model}:streamGenerateContent?alt=sse`
 * with the key in `x-goog-api-key`, the body upstream Pi 0.87.1 sends (google-request.ts) and its
 * answer read as Pi reads it (google-stream.ts).
 */
import type { StreamFunction } from "../types.ts";
import { streamGoogle, type GoogleApi } from "./google-send.ts";

export const DEFAULT_GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** The model's resource path: a bare id lives under `models/`; `tunedModels/…` and the like stay as given. */
function modelPath(id: string): string {
  return id.includes("/") ? id : `models/${id}`;
}

export function geminiUrl(baseUrl: string, modelId: string): string {
  const base = (baseUrl.trim() || DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, "");
  return `${base}/${modelPath(modelId)}:streamGenerateContent?alt=sse`;
}

const GEMINI: GoogleApi = {
  dialect: "gemini",
  label: "Google",
  async target(model, options) {
    if (!options.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    return { url: geminiUrl(model.baseUrl, model.id), headers: { "x-goog-api-key": options.apiKey } };
  },
};

export const streamGoogleGenerativeAI: StreamFunction = (model, context, options) => streamGoogle(GEMINI, model, context, options);
