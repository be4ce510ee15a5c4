/**
 * pig's models and credentials as the extension host sees them (`HostModelPort`): the session's
 * registry, and model calls made with the session's key, headers and HTTP limits for the model
 * and the options the extension chose. Bound to the session once it exists; before that there is
 * nothing to call with.
 */
import type { AgentSession } from "../agent/session.ts";
import { clampThinkingLevel } from "../ai/thinking.ts";
import { newAssistantMessage, type AssistantMessageEvent, type LlmContext, type Model, type StreamOptions, type ThinkingBudgets } from "../ai/types.ts";
import type { CredentialKind, HostModelPort } from "../extensions/host/model-calls.ts";
import type { ModelCallOptions } from "../extensions/protocol.ts";

export class ExtensionModelPort implements HostModelPort {
  constructor(private readonly session: () => AgentSession | undefined) {}

  find(provider: string, id: string): Model | undefined {
    return this.session()?.registry.find(provider, id);
  }

  list(): Model[] {
    return this.session()?.registry.models ?? [];
  }

  credentials(provider: string): CredentialKind | undefined {
    return this.session()?.registry.credentialKind(provider);
  }

  async *stream(model: Model, context: LlmContext, options: ModelCallOptions, signal: AbortSignal): AsyncIterable<AssistantMessageEvent> {
    const session = this.session();
    if (!session) {
      const error = newAssistantMessage(model);
      error.stopReason = "error";
      error.errorMessage = "pig is still starting: the session is not ready yet";
      yield { type: "error", reason: "error", error };
      return;
    }
    let call;
    try {
      call = await session.outsideCall(model, signal);
    } catch (failure) {
      // The credentials could not be had (a key command failed, a login was revoked): an answer that says so.
      const error = newAssistantMessage(model);
      error.stopReason = signal.aborted ? "aborted" : "error";
      error.errorMessage = (failure as Error).message;
      yield { type: "error", reason: error.stopReason, error };
      return;
    }
    const level = options.reasoning ? clampThinkingLevel(call.model, options.reasoning) : "off";
    const { sessionId: _session, ...base } = call.options;
    const request: StreamOptions = {
      ...base,
      // The model's and the user's configured headers win over the extension's.
      headers: { ...options.headers, ...base.headers },
      ...(level !== "off" ? { reasoning: level } : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.thinkingBudgets ? { thinkingBudgets: options.thinkingBudgets as ThinkingBudgets } : {}),
      signal,
    };
    for await (const event of call.stream(call.model, context, request)) {
      if (event.type === "error") call.redact(event.error);
      yield event;
    }
  }
}
