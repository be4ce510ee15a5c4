/**
 * `/login [provider]` signs in with an account (a subscription, through the provider's OAuth
 * flow) or stores an API key, both in `auth.json` (mode 0600); `/logout [provider]` removes a
 * stored entry of either kind. A credential takes effect for the next request; a key from the
 * environment, `--api-key` or models.json is untouched by either.
 */
import { loadAuthFile, removeAuthEntry, saveApiKey } from "../../../ai/auth.ts";
import type { SubscriptionLogin } from "../../../ai/oauth/types.ts";
import type { InteractiveHost, SlashCommand } from "../host.ts";
import { availableWords, modelAfterLogin } from "../login/after-login.ts";
import { signInWith } from "../login/sign-in.ts";
import { findSubscription } from "../login/subscriptions.ts";
import { supportsHyperlinks } from "../render/wrap.ts";
import { stillApplies } from "../login/still-applies.ts";
import { messageOf } from "./format.ts";
import { about } from "./about.ts";

type Method = "subscription" | "api_key";

const ACCOUNT = "Sign in with an account (subscription)";
const API_KEY = "Use an API key";

/** What `auth.json` holds for each provider: a subscription login or an API key. */
function storedKinds(host: InteractiveHost): Map<string, Method> {
  const { auth } = loadAuthFile(host.registry.authPath);
  return new Map(Object.entries(auth).map(([provider, entry]) => [provider, entry.type === "oauth" ? "subscription" : "api_key"]));
}

function storedHint(kind: Method | undefined): string | undefined {
  return kind === "subscription" ? "signed in" : kind === "api_key" ? "has a key" : undefined;
}

async function chooseMethod(host: InteractiveHost, login?: SubscriptionLogin): Promise<Method | undefined> {
  return host.pick(login ? `Sign in to ${login.provider} how?` : "Sign in how?", [
    { value: "subscription" as const, label: login ? `Sign in with an account (${login.name})` : ACCOUNT },
    { value: "api_key" as const, label: API_KEY },
  ]);
}

async function chooseSubscription(host: InteractiveHost): Promise<SubscriptionLogin | undefined> {
  const logins = host.subscriptions.list();
  const stored = storedKinds(host);
  return host.pick(
    "Sign in with which account?",
    logins.map((login) => {
      const hint = [login.provider, storedHint(stored.get(login.provider))].filter(Boolean).join(" · ");
      return { value: login, label: login.name, hint };
    }),
    { search: logins.length > 10 },
  );
}

async function chooseKeyProvider(host: InteractiveHost): Promise<string | undefined> {
  const providers = [...host.registry.providers].sort();
  return host.pick(
    "Store a key for which provider?",
    providers.map((p) => ({ value: p, label: p, ...(host.registry.hasKey(p) ? { hint: "has a key" } : {}) })),
    { search: providers.length > 10 },
  );
}

/** Whether the session's model could be used before a new credential came. */
function currentUsable(host: InteractiveHost): boolean {
  const current = host.session.model;
  return current !== undefined && host.registry.hasKey(current.provider);
}

/** After a new credential: the models it opens, and the model switched to when there was none. */
function reportNewCredential(host: InteractiveHost, provider: string, first: string, usableBefore: boolean): void {
  host.registry.reloadAuth();
  const available = host.registry.available();
  host.info(`${first} ${availableWords(provider, available)}.`);
  const next = modelAfterLogin(provider, available, usableBefore);
  if (!next) return;
  const chosen = host.session.setModel(next.provider, next.id);
  host.info(`Model: ${chosen.provider}/${chosen.id}`);
}

async function signIn(host: InteractiveHost, login: SubscriptionLogin): Promise<void> {
  const usableBefore = currentUsable(host);
  host.info(`Signing in to ${login.name} (${login.provider}). Escape cancels.`);
  const outcome = await host.cancellable((cancel) =>
    signInWith(login, {
      subscriptions: host.subscriptions,
      surface: { ask: (m, c) => host.ask(m, c), pick: (m, o, c) => host.pick(m, o, c), print: (text) => host.print(text) },
      authPath: host.registry.authPath,
      cancel,
      hyperlinks: supportsHyperlinks(),
    }),
  );
  if (outcome.kind === "cancelled") {
    host.info(`Sign-in to ${login.name} cancelled; nothing was stored.`);
    return;
  }
  if (outcome.kind === "failed") {
    host.error(`Could not sign in to ${login.name} (${login.provider}): ${outcome.message}`);
    return;
  }
  reportNewCredential(host, login.provider, `Signed in to ${login.name} (${login.provider}); saved in ${host.registry.authPath}.`, usableBefore);
}

async function storeKey(host: InteractiveHost, provider: string): Promise<void> {
  const usableBefore = currentUsable(host);
  const key = (await host.ask(`${provider} API key`, { mask: true }))?.trim();
  if (!key) return;
  try {
    saveApiKey(host.registry.authPath, provider, key);
  } catch (error) {
    host.error(`Could not save the key: ${messageOf(error)}`);
    return;
  }
  reportNewCredential(host, provider, `Saved the key for ${provider} in ${host.registry.authPath}:`, usableBefore);
}

/** `/login <name>`: a subscription, a key provider, or both (then the user chooses how). */
async function loginNamed(host: InteractiveHost, named: string): Promise<void> {
  const login = findSubscription(host.subscriptions.list(), named);
  const keyProvider = host.registry.providers.has(named) ? named : undefined;
  if (!login && !keyProvider) {
    const known = [...new Set([...host.subscriptions.list().map((l) => l.provider), ...host.registry.providers])].sort();
    host.error(`Unknown provider "${named}". Known: ${known.join(", ")}`);
    return;
  }
  if (login && keyProvider) {
    const method = await chooseMethod(host, login);
    if (method === "subscription") await signIn(host, login);
    else if (method === "api_key") await storeKey(host, keyProvider);
    return;
  }
  if (login) await signIn(host, login);
  else await storeKey(host, keyProvider!);
}

export const loginCommand: SlashCommand = {
  ...about("login"),
  async run(host, args) {
    const named = args.trim();
    if (named) return loginNamed(host, named);
    // Escape in a provider list goes back to the choice of how to sign in.
    for (;;) {
      const method = host.subscriptions.list().length > 0 ? await chooseMethod(host) : "api_key";
      if (!method) return;
      if (method === "subscription") {
        const login = await chooseSubscription(host);
        if (login) return signIn(host, login);
        continue;
      }
      const provider = await chooseKeyProvider(host);
      if (provider) return storeKey(host, provider);
      if (host.subscriptions.list().length === 0) return;
    }
  },
};

export const logoutCommand: SlashCommand = {
  ...about("logout"),
  async run(host, args) {
    const stored = storedKinds(host);
    if (stored.size === 0) {
      host.info(`Nothing is stored in ${host.registry.authPath}: no subscription login, no API key. Keys from the environment or models.json are not changed by /logout.`);
      return;
    }
    const providers = [...stored.keys()].sort();
    const named = args.trim();
    let provider: string | undefined;
    if (named) {
      provider = providers.find((p) => p === named);
      if (!provider) {
        host.error(`Nothing is stored for "${named}". Stored: ${providers.map((p) => `${p} (${stored.get(p) === "subscription" ? "subscription" : "API key"})`).join(", ")}`);
        return;
      }
    } else {
      const names = new Map(host.subscriptions.list().map((login) => [login.provider, login.name]));
      provider = await host.pick(
        "Remove which stored login?",
        // The kind is in the label: a hint shows only on the option under the cursor.
        providers.map((p) => {
          const kind = stored.get(p) === "subscription" ? `subscription${names.has(p) ? ` (${names.get(p)})` : ""}` : "API key";
          return { value: p, label: `${p} · ${kind}` };
        }),
        { search: providers.length > 10 },
      );
      if (!provider) return;
    }
    const kind = stored.get(provider);
    try {
      removeAuthEntry(host.registry.authPath, provider);
      host.registry.reloadAuth();
    } catch (error) {
      host.error(`Could not remove the ${kind === "subscription" ? "login" : "key"}: ${messageOf(error)}`);
      return;
    }
    const what = kind === "subscription" ? `Signed out of ${provider}: its subscription login was removed` : `Removed the key for ${provider}`;
    const still = stillApplies(provider, { env: process.env, registry: host.registry });
    host.info(`${what} from ${host.registry.authPath}. ${still}`);
  },
};
