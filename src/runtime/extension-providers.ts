/**
 * The extensions' providers in the run's model registry: registered as they arrive (a model of
 * theirs is then selectable like any other), removed when the extension unregisters them or
 * goes away, and a `streamSimple` provider streaming through its extension. A config upstream
 * would refuse is reported as that extension's error (`register_provider`).
 */
import type { ModelRegistry } from "../ai/registry.ts";
import { newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type StreamFunction } from "../ai/types.ts";
import type { ExtensionProvider } from "../extensions/host/host.ts";

export type ProviderErrorReport = (report: { extensionPath: string; event: string; error: string }) => void;

/** The stream of an extension's `streamSimple`: its events as they come, its final message last. */
export function extensionStream(provider: ExtensionProvider): StreamFunction {
  return async function* (model, context, options): AsyncIterable<AssistantMessageEvent> {
    const pending: AssistantMessageEvent[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let final: AssistantMessageEvent | undefined;
    const push = () => {
      wake?.();
      wake = undefined;
    };
    const fail = (text: string, aborted = false): AssistantMessageEvent => {
      const error = newAssistantMessage(model);
      error.stopReason = aborted ? "aborted" : "error";
      error.errorMessage = text;
      return { type: "error", reason: aborted ? "aborted" : "error", error };
    };
    // The replayed system message is pig's own view for its APIs; extensions get the context as before.
    const { system: _system, ...plainContext } = context;
    const call = provider.stream!({
      model: { ...model },
      context: plainContext,
      // JSON only: the key and headers are what the provider's requests need, as upstream passes them.
      options: {
        apiKey: options.apiKey,
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.reasoning ? { reasoning: options.reasoning } : {}),
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      },
      ...(options.signal ? { signal: options.signal } : {}),
      onEvent: (raw) => {
        const event = raw as { type?: unknown };
        // The final message comes as the result; a done/error event in between is not repeated.
        if (event && typeof event.type === "string" && event.type !== "done" && event.type !== "error") {
          pending.push(raw as AssistantMessageEvent);
          push();
        }
      },
    });
    call.then(
      (message) => {
        final = finalEvent(model, message) ?? fail(`Provider ${provider.name} ended without a message`);
      },
      (error: unknown) => {
        final = fail(error instanceof Error ? error.message : String(error), options.signal?.aborted === true);
      },
    ).finally(() => {
      finished = true;
      push();
    });
    while (true) {
      while (pending.length > 0) yield pending.shift()!;
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    yield final!;
  };
}

function finalEvent(model: Parameters<StreamFunction>[0], raw: unknown): AssistantMessageEvent | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const given = raw as Partial<AssistantMessage>;
  if (!Array.isArray(given.content)) return undefined;
  const message: AssistantMessage = { ...newAssistantMessage(model), ...given, role: "assistant" };
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    return { type: "error", reason: message.stopReason, error: message };
  }
  const reason = message.stopReason === "length" || message.stopReason === "toolUse" ? message.stopReason : "stop";
  return { type: "done", reason, message };
}

export interface ProviderSyncOutlets {
  report: ProviderErrorReport;
  /** Said to the user (once per run): a provider with the user's credentials pointed at another host. */
  notice(text: string): void;
  /** After the model list changed (the session takes the current model's new object). */
  changed?: () => void;
}

/**
 * Upstream hands the user's credentials to wherever an extension's registration leads — a host
 * it points a provider at, an API it serves itself, a key variable it names — and proxies rely on
 * that; pig does the same and says so.
 */
function credentialNotices(registry: ModelRegistry, provider: ExtensionProvider): string[] {
  const by = `Extension "${provider.extension}"`;
  const out: string[] = [];
  for (const host of registry.foreignHosts(provider.name)) {
    out.push(`${by} points provider "${provider.name}" at ${host}; pig sends your ${provider.name} credentials there`);
  }
  const api = typeof provider.config.api === "string" ? provider.config.api : undefined;
  const served = provider.stream !== undefined && api !== undefined;
  const borrowed = registry.borrowedKeyVariable(provider.name);
  if (borrowed) {
    const where = served ? "to the extension" : `to ${registry.hostsOf(provider.name).join(", ")}`;
    out.push(`${by} gives provider "${provider.name}" your key from ${borrowed}; pig sends it ${where}`);
  }
  if (served) {
    for (const user of registry.providersWithUserCredentials(api)) {
      out.push(`${by} serves the "${api}" API itself; pig hands it your ${user} credentials with each request`);
    }
  }
  return out;
}

/** Keeps `registry` in step with what one host's extensions registered; returns the undo. */
export function syncProviders(
  host: { providers(): ExtensionProvider[]; onChange(listener: () => void): () => void },
  registry: ModelRegistry,
  outlets: ProviderSyncOutlets,
): () => void {
  const { report, notice, changed = () => {} } = outlets;
  const applied = new Map<string, string>();
  // A refused config is reported once, not again at every later registration change.
  const refused = new Map<string, string>();
  const refresh = () => {
    sync();
    changed();
  };
  const sync = () => {
    const now = host.providers();
    const names = new Set(now.map((p) => p.name));
    for (const name of [...applied.keys()]) {
      if (names.has(name)) continue;
      applied.delete(name);
      registry.unregisterProvider(name);
    }
    for (const provider of now) {
      const key = JSON.stringify(provider.config);
      if (applied.get(provider.name) === key || refused.get(provider.name) === key) continue;
      try {
        registry.registerProvider(provider.name, provider.config, provider.stream ? extensionStream(provider) : undefined);
        applied.set(provider.name, key);
        refused.delete(provider.name);
        for (const text of credentialNotices(registry, provider)) notice(text);
      } catch (error) {
        refused.set(provider.name, key);
        report({ extensionPath: provider.extension, event: "register_provider", error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  refresh();
  const unsubscribe = host.onChange(refresh);
  return () => {
    unsubscribe();
    for (const name of applied.keys()) registry.unregisterProvider(name);
    applied.clear();
    changed();
  };
}
