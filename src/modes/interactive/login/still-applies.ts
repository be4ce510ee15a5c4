/**
 * After `/logout`: what still gives pig access to the provider, so the user is not surprised that
 * its models still work (a key in the environment, models.json, `--api-key`), or that they stop.
 */
import { envKeyNames } from "../../../ai/auth.ts";

export interface RemainingSources {
  env: Record<string, string | undefined>;
  /** After the entry was removed (auth.json read again). */
  registry: { hasKey(provider: string): boolean };
}

export function stillApplies(provider: string, sources: RemainingSources): string {
  const variable = envKeyNames(provider).find((name) => sources.env[name]);
  if (variable) return `${variable} from the environment still applies to ${provider}.`;
  if (sources.registry.hasKey(provider)) return `The key models.json (or --api-key) gives ${provider} still applies.`;
  return `Nothing else gives pig access to ${provider} now; its models cannot be used until you /login again or set ${envKeyNames(provider).at(-1)}.`;
}
