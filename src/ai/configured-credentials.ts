/**
 * The variables a configuration names as a key or a header value: models.json's providers,
 * auth.json's API keys and the extensions' providers. With the catalogue's names and the
 * patterns (credential-vars.ts), they are what pig keeps from the processes it starts.
 */
import { join } from "node:path";
import { type AuthFile, loadAuthFile } from "./auth.ts";
import { CredentialVars, looksLikeVariableName } from "./credential-vars.ts";
import type { ExtensionProviderConfig } from "./extension-providers.ts";
import { loadModelsFile, type ModelsFile } from "./models-file.ts";

export interface CredentialSources {
  file: ModelsFile | undefined;
  auth: AuthFile;
  extensionProviders: Iterable<ExtensionProviderConfig>;
}

export function configuredCredentialVars(sources: CredentialSources): CredentialVars {
  const values: string[] = [];
  const fromHeaders = (headers: Readonly<Record<string, string>> | undefined) => values.push(...Object.values(headers ?? {}));
  /** A provider's key and headers, and its models' headers: models.json's and extensions' alike. */
  const fromProvider = (config: { apiKey?: string; headers?: Record<string, string>; models?: readonly { headers?: Record<string, string> }[] }) => {
    if (config.apiKey) values.push(config.apiKey);
    fromHeaders(config.headers);
    for (const model of config.models ?? []) fromHeaders(model.headers);
  };
  for (const config of Object.values(sources.file?.providers ?? {})) {
    fromProvider(config);
    for (const override of Object.values(config.modelOverrides ?? {})) fromHeaders(override.headers);
  }
  for (const entry of Object.values(sources.auth)) if (entry.type === "api_key") values.push(entry.key);
  for (const config of sources.extensionProviders) fromProvider(config);
  return new CredentialVars(values.filter(looksLikeVariableName));
}

/**
 * The names the agent dir's two files give, read before any model registry exists (the
 * extension runner is started that early). A models.json the registry then refuses stops the
 * run before any extension loads (runtime/create.ts).
 */
export function credentialVarsFromFiles(agentDir: string): CredentialVars {
  return configuredCredentialVars({
    file: loadModelsFile(join(agentDir, "models.json")).file,
    auth: loadAuthFile(join(agentDir, "auth.json")).auth,
    extensionProviders: [],
  });
}
