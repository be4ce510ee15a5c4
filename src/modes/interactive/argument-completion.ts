/**
 * Tab completion of command arguments: model names after `/model `, session names or first
 * messages after `/resume `, providers after `/login ` (key providers and subscription logins,
 * each said which) and (those with a stored login or key) `/logout `.
 */
import type { SubscriptionLogin } from "../../ai/oauth/types.ts";
import type { Model } from "../../ai/types.ts";
import type { SessionSummary } from "../../session/catalog.ts";
import type { CompletionItem, CompletionProvider } from "./input/index.ts";

export interface ArgumentSources {
  models: () => readonly Model[];
  sessions: () => readonly SessionSummary[];
  /** Every known provider (`/login`). */
  providers?: () => readonly string[];
  /** Providers with a key in auth.json (`/logout`). */
  storedProviders?: () => readonly string[];
  /** The subscription logins (`/login`). */
  subscriptions?: () => readonly SubscriptionLogin[];
}

/**
 * What `/login <provider>` can complete: every key provider and every subscription login, the
 * hint saying how each signs in (and the account's name, which matches too).
 */
export function loginItems(query: string, providers: readonly string[], subscriptions: readonly SubscriptionLogin[]): CompletionItem[] {
  const accounts = new Map(subscriptions.map((login) => [login.provider, login.name]));
  const keys = new Set(providers);
  return [...new Set([...providers, ...accounts.keys()])]
    .sort()
    .filter((name) => `${name} ${accounts.get(name) ?? ""}`.toLowerCase().includes(query))
    .map((name) => {
      const ways = [...(accounts.has(name) ? [`subscription (${accounts.get(name)})`] : []), ...(keys.has(name) ? ["API key"] : [])];
      return { value: name, label: name, hint: ways.join(" · ") };
    });
}

function nameItems(from: number, cursor: number, query: string, names: readonly string[]) {
  const items: CompletionItem[] = [...names]
    .sort()
    .filter((name) => name.toLowerCase().includes(query))
    .map((name) => ({ value: name, label: name }));
  return { replaceFrom: from, replaceTo: cursor, items };
}

function argumentOf(text: string, cursor: number, command: string): { from: number; query: string } | undefined {
  const prefix = `/${command} `;
  if (!text.startsWith(prefix) || cursor < prefix.length || text.includes("\n")) return undefined;
  return { from: prefix.length, query: text.slice(prefix.length, cursor).toLowerCase() };
}

export function argumentProvider(sources: ArgumentSources): CompletionProvider {
  return async (text, cursor) => {
    const model = argumentOf(text, cursor, "model");
    if (model) {
      const items: CompletionItem[] = sources
        .models()
        .map((m) => `${m.provider}/${m.id}`)
        .filter((name) => name.toLowerCase().includes(model.query))
        .map((name) => ({ value: name, label: name }));
      return { replaceFrom: model.from, replaceTo: cursor, items };
    }
    const resume = argumentOf(text, cursor, "resume");
    if (resume) {
      const items: CompletionItem[] = sources
        .sessions()
        .map((s) => s.name ?? s.firstMessage.split("\n")[0]!.slice(0, 60))
        .filter((title) => title.toLowerCase().includes(resume.query))
        .map((title) => ({ value: title, label: title }));
      return { replaceFrom: resume.from, replaceTo: cursor, items };
    }
    const login = argumentOf(text, cursor, "login");
    if (login && (sources.providers || sources.subscriptions)) {
      return { replaceFrom: login.from, replaceTo: cursor, items: loginItems(login.query, sources.providers?.() ?? [], sources.subscriptions?.() ?? []) };
    }
    const logout = argumentOf(text, cursor, "logout");
    if (logout && sources.storedProviders) return nameItems(logout.from, cursor, logout.query, sources.storedProviders());
    return undefined;
  };
}

/** A command that completes its own arguments (extension commands). */
export interface CompletingCommand {
  name: string;
  getArgumentCompletions?(prefix: string): Promise<readonly { value: string; label?: string; description?: string }[] | null> | readonly { value: string; label?: string; description?: string }[] | null;
}

/** After `/name `, what the command itself offers for the argument typed so far (as typed, not lowered). */
export function commandArgumentProvider(commands: () => readonly CompletingCommand[]): CompletionProvider {
  return async (text, cursor) => {
    if (!text.startsWith("/") || text.includes("\n")) return undefined;
    const space = text.indexOf(" ");
    if (space === -1 || cursor <= space) return undefined;
    const name = text.slice(1, space);
    const command = commands().find((c) => c.name === name && c.getArgumentCompletions);
    if (!command?.getArgumentCompletions) return undefined;
    let offered: readonly { value: string; label?: string; description?: string }[] | null;
    try {
      offered = await command.getArgumentCompletions(text.slice(space + 1, cursor));
    } catch {
      // A completer that fails offers nothing; typing goes on.
      return undefined;
    }
    if (!offered || offered.length === 0) return undefined;
    const items: CompletionItem[] = offered.map((o) => ({ value: o.value, label: o.label ?? o.value, ...(o.description ? { hint: o.description } : {}) }));
    return { replaceFrom: space + 1, replaceTo: cursor, items };
  };
}
