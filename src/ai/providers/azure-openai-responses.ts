/**
 * Azure OpenAI's Responses API: OpenAI's Responses request and stream (openai-responses*.ts),
 * sent to `{endpoint}/responses?api-version=…` with the key in an `api-key` header, and the
 * model id replaced by its deployment name (azure-config.ts says where these come from).
 *
 * What else differs from OpenAI's, as upstream sends it: tools are declared with `strict: false`
 * unless the model's `compat` says the server takes no `strict`; no `session_id` /
 * `x-client-request-id` headers; no 24-hour prompt-cache retention.
 */
import { deploymentName, resolveAzureEndpoint } from "./azure-config.ts";
import { envLookup, type EnvLookup } from "./provider-env.ts";
import { openaiEvents, sendOpenAIRequest } from "./openai-fetch.ts";
import { mergeHeaders, type OpenAIRequest } from "./openai-shared.ts";
import { responsesStream, type ResponsesWire } from "./openai-responses.ts";
import { buildResponsesRequest } from "./openai-responses-request.ts";
import type { LlmContext, Model, StreamFunction, StreamOptions } from "../types.ts";

/** The credential's values (auth.json `env`) first, then the process environment, read now. */
function requestEnv(options: StreamOptions, env: NodeJS.ProcessEnv): EnvLookup {
  return envLookup(options.credentialEnv, env);
}

/** Body and extra headers of an Azure Responses request. Pure apart from reading `env`. */
export function buildAzureResponsesRequest(
  model: Model,
  context: LlmContext,
  options: StreamOptions,
  env: NodeJS.ProcessEnv = process.env,
): OpenAIRequest {
  const strict = { ...model.compat, supportsStrictMode: model.compat?.supportsStrictMode ?? true };
  const { body } = buildResponsesRequest({ ...model, compat: strict }, context, options);
  body.model = deploymentName(model.id, requestEnv(options, env));
  delete body.prompt_cache_retention;
  return { body, headers: mergeHeaders(model.headers, options.headers) };
}

function azureWire(env: NodeJS.ProcessEnv): ResponsesWire {
  return {
    build: (model, context, options) => {
      if (!options.apiKey) throw new Error(`No API key for provider ${model.provider}: set AZURE_OPENAI_API_KEY or store a key with /login`);
      // Resolved here too, so a missing endpoint fails before anything is sent.
      resolveAzureEndpoint(model, requestEnv(options, env));
      return buildAzureResponsesRequest(model, context, options, env);
    },
    send: async (model, options, headers, body, abort, watch) => {
      const endpoint = resolveAzureEndpoint(model, requestEnv(options, env));
      const client = { name: "AzureOpenAI", apiVersion: endpoint.apiVersion } as const;
      const response = await sendOpenAIRequest("/responses", { ...model, baseUrl: endpoint.baseUrl }, headers, JSON.stringify(body), options, abort, watch, client);
      return openaiEvents(response);
    },
  };
}

/** Streams one Azure OpenAI Responses answer. Never throws; always ends with `done` or `error`. */
export const streamAzureOpenAIResponses: StreamFunction = (model, context, options) => responsesStream(azureWire(process.env))(model, context, options);
