/**
 * Model calls pig makes for an extension (`model.auth`, `model.stream`). The model is pig's own,
 * found by provider and id in its registry — so an extension cannot send pig's key to a server of
 * its choosing — and the credentials are pig's and stay in pig: the extension gets the answer's
 * stream events and the final message, never a key. A provider the user gave pig no credentials
 * for is refused. Every failure (unknown model, no credentials, the provider's own error, an
 * abort) is a final assistant message with `stopReason` `error` or `aborted`, as pig's streams
 * report failures.
 */
import { noCredentialsMessage } from "../../ai/auth.ts";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type LlmMessage, type Model, type ToolSpec } from "../../ai/types.ts";
import type { AgentMessage } from "../../session/format.ts";
import { currentSystemMessage, declaredTools, systemPromptText } from "../../session/system-messages.ts";
import type { ModelAuthParams, ModelAuthResult, ModelListResult, ModelCallContext, ModelCallMessage, ModelCallOptions, ModelStreamParams } from "../protocol.ts";

export type CredentialKind = "key" | "oauth";

/** What the host needs of pig's models and credentials; whoever wires the host implements it. */
export interface HostModelPort {
  /** The model pig knows by this provider and id (built in, models.json, an extension's provider). */
  find(provider: string, id: string): Model | undefined;
  /** Every model pig knows (built in, models.json, extensions' providers). */
  list?(): Model[];
  /** The kind of credentials pig holds for `provider`, undefined when it holds none. */
  credentials(provider: string): CredentialKind | undefined;
  /**
   * pig's stream for `model` with pig's key, headers and HTTP limits, and `options` (the
   * extension's, none of them secrets). Ends with one `done` or `error` event.
   */
  stream(model: Model, context: LlmContext, options: ModelCallOptions, signal: AbortSignal): AsyncIterable<AssistantMessageEvent>;
}

export const NO_MODEL_CALLS = "pig makes no model calls for extensions in this run";

/** Headers an extension may not set: the ones that carry credentials (pig's own go there). */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie)$/i;

function failure(provider: string, id: string, text: string, aborted = false, api = ""): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api,
    provider,
    model: id,
    usage: emptyUsage(),
    stopReason: aborted ? "aborted" : "error",
    errorMessage: text,
    timestamp: Date.now(),
  };
}

/** An extension's message as pig's providers take it: the fields it may leave out filled in. */
function llmMessage(message: Exclude<ModelCallMessage, { role: "system" }>): LlmMessage {
  if (message.role === "user") return { timestamp: Date.now(), ...message } as LlmMessage;
  if (message.role === "assistant") {
    return { api: "", provider: "", model: "", usage: emptyUsage(), stopReason: "stop", timestamp: 0, ...message } as LlmMessage;
  }
  return { toolName: "", isError: false, timestamp: 0, ...message } as LlmMessage;
}

/**
 * The context as pig's providers take it. System messages in `messages` (a Pi 0.87 transcript)
 * give the prompt and tools when the context does not name them itself.
 */
export function llmContext(context: ModelCallContext): LlmContext {
  const system = context.messages.filter((m) => m.role === "system").map((m) => ({ timestamp: 0, ...m }) as unknown as AgentMessage);
  const declared = system.length > 0 ? currentSystemMessage(system) : undefined;
  const tools: ToolSpec[] = context.tools
    ? context.tools.map((t) => ({ name: t.name, description: t.description ?? "", parameters: t.parameters ?? { type: "object", properties: {} } }))
    : declaredTools(declared);
  return {
    systemPrompt: context.systemPrompt ?? systemPromptText(declared),
    messages: context.messages.flatMap((m) => (m.role === "system" ? [] : [llmMessage(m)])),
    ...(tools.length > 0 ? { tools } : {}),
  };
}

/** The extension's options without the headers that would carry credentials. */
export function callOptions(options: ModelCallOptions | undefined): ModelCallOptions {
  if (!options?.headers) return { ...options };
  const headers = Object.fromEntries(Object.entries(options.headers).filter(([name]) => !CREDENTIAL_HEADER.test(name)));
  return { ...options, headers };
}

/** Every model pig knows, as an extension may see it: no `headers`, which may carry a key. */
export function modelList(port: HostModelPort | undefined): ModelListResult {
  return { models: (port?.list?.() ?? []).map(({ headers: _headers, ...model }) => model) };
}

export function modelAuth(port: HostModelPort | undefined, params: ModelAuthParams): ModelAuthResult {
  if (!port) return { ok: false, error: NO_MODEL_CALLS };
  if (params.id !== undefined && !port.find(params.provider, params.id)) {
    return { ok: false, error: `Model ${params.provider}/${params.id} is not one pig knows (pig --list-models lists them)` };
  }
  const kind = port.credentials(params.provider);
  if (!kind) return { ok: false, error: noCredentialsMessage(params.provider) };
  return { ok: true, oauth: kind === "oauth" };
}

/** Streams `params` with pig's credentials: every event but the last goes to `progress`, the last message is the answer. */
export async function modelStream(
  port: HostModelPort | undefined,
  params: ModelStreamParams,
  signal: AbortSignal,
  progress: (event: AssistantMessageEvent) => void,
): Promise<{ message: AssistantMessage }> {
  const { provider, id } = params.model;
  const refused = (text: string) => ({ message: failure(provider, id, `${provider}/${id}: ${text}`) });
  if (!port) return refused(NO_MODEL_CALLS);
  const model = port.find(provider, id);
  if (!model) return refused("not a model pig knows (pig --list-models lists them)");
  if (!port.credentials(model.provider)) return refused(noCredentialsMessage(model.provider));
  let final: AssistantMessage | undefined;
  try {
    for await (const event of port.stream(model, llmContext(params.context), callOptions(params.options), signal)) {
      if (event.type === "done") final = event.message;
      else if (event.type === "error") final = event.error;
      else progress(event);
    }
  } catch (error) {
    final = failure(provider, id, error instanceof Error ? error.message : String(error), signal.aborted, model.api);
  }
  return { message: final ?? failure(provider, id, `${provider}/${id}: the stream ended without an answer`, signal.aborted, model.api) };
}
