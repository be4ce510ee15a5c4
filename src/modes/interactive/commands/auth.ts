/**
 * `/login [provider]` stores an API key in `auth.json` (mode 0600); `/logout [provider]` removes
 * one. Keys take effect for the next request; a key from the environment or `--api-key` is
 * untouched by either.
 */
import { removeAuthEntry, saveApiKey } from "../../../ai/auth.ts";
import type { InteractiveHost, SlashCommand } from "../host.ts";
import { messageOf } from "./format.ts";

async function chooseProvider(host: InteractiveHost, args: string, providers: string[], message: string): Promise<string | undefined> {
  const named = args.trim();
  if (named) {
    if (providers.includes(named)) return named;
    host.error(`Unknown provider "${named}". Known: ${providers.join(", ")}`);
    return undefined;
  }
  return host.pick(
    message,
    providers.map((p) => ({ value: p, label: p, ...(host.registry.hasKey(p) ? { hint: "has a key" } : {}) })),
    { search: providers.length > 10 },
  );
}

export const loginCommand: SlashCommand = {
  name: "login",
  description: "Store an API key for a provider",
  argumentHint: "[provider]",
  async run(host, args) {
    const providers = [...host.registry.providers].sort();
    const provider = await chooseProvider(host, args, providers, "Store a key for which provider?");
    if (!provider) return;
    const key = (await host.ask(`${provider} API key`, { mask: true }))?.trim();
    if (!key) return;
    try {
      saveApiKey(host.registry.authPath, provider, key);
      host.registry.reloadAuth();
    } catch (error) {
      host.error(`Could not save the key: ${messageOf(error)}`);
      return;
    }
    const models = host.registry.available().filter((m) => m.provider === provider).length;
    host.info(`Saved the key for ${provider} in ${host.registry.authPath} (${models} model${models === 1 ? "" : "s"} available).`);
  },
};

export const logoutCommand: SlashCommand = {
  name: "logout",
  description: "Remove a provider's stored API key or subscription login",
  argumentHint: "[provider]",
  async run(host, args) {
    const stored = host.registry.storedAuthProviders().sort();
    if (stored.length === 0) {
      host.info(`No keys are stored in ${host.registry.authPath}.`);
      return;
    }
    const provider = await chooseProvider(host, args, stored, "Remove the stored key of which provider?");
    if (!provider) return;
    // Read before removing: what was stored decides the words ("login" or "key").
    const what = host.registry.storedAuthKind(provider) === "oauth" ? "login" : "key";
    try {
      removeAuthEntry(host.registry.authPath, provider);
      host.registry.reloadAuth();
    } catch (error) {
      host.error(`Could not remove the ${what}: ${messageOf(error)}`);
      return;
    }
    const still = host.registry.hasKey(provider) ? " A key from the environment or models.json still applies." : "";
    host.info(`Removed the ${what} for ${provider} from ${host.registry.authPath}.${still}`);
  },
};
