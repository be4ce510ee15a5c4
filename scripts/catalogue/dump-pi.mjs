// Runs inside an installed upstream Pi (on the Node it needs) and prints the facts of its
// built-in provider catalogue as JSON: providers (name, key variables, login kinds, default
// model) and every model. argv[2] is the pi-coding-agent package directory.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const agentDir = process.argv[2];
const aiDir = join(agentDir, "..", "pi-ai");
const load = (dir, file) => import(pathToFileURL(join(dir, "dist", file)).href);
const { builtinProviders } = await load(aiDir, "providers/all.js");
const { findEnvKeys } = await load(aiDir, "env-api-keys.js");
const { defaultModelPerProvider } = await load(agentDir, "core/model-resolver.js");

// Every variable name a provider looks at, seen through an environment that has them all.
const everything = new Proxy({}, { get: (_target, name) => (typeof name === "string" ? "set" : undefined), has: () => true });

const providers = [];
const models = {};
for (const provider of builtinProviders()) {
  const list = provider.getModels();
  providers.push({
    id: provider.id,
    name: provider.name,
    envKeys: findEnvKeys(provider.id, everything) ?? [],
    apiKeyLogin: provider.auth.apiKey?.name ?? null,
    subscriptionLogin: provider.auth.oauth?.name ?? null,
    defaultModel: defaultModelPerProvider[provider.id] ?? null,
  });
  models[provider.id] = list;
}
process.stdout.write(JSON.stringify({ defaultOrder: Object.keys(defaultModelPerProvider), providers, models }));
