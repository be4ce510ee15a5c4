/**
 * The built-in provider catalogue (generated from upstream Pi by scripts/catalogue/generate.ts):
 * 41 providers and their models. The provider facts are always at hand; a provider's models are
 * parsed the first time something asks for them, so a run that talks to one provider never pays
 * for the other 1,500 models (the whole list as a JS object costs ~50 ms of start-up).
 */
import { readFileSync } from "node:fs";
import type { Model } from "../types.ts";
import type { ProviderFacts } from "./facts.ts";
// Embedded in the binary as a file, read the first time a provider's models are needed: as a
// text import the whole list would be part of the code parsed at every start.
import modelsFile from "./models.generated.jsonl" with { type: "file" };
import { DEFAULT_ORDER, PROVIDERS } from "./providers.generated.ts";

export type { ProviderFacts };
export { DEFAULT_ORDER, PROVIDERS };

const INDEX = new Map(PROVIDERS.map((facts, line) => [facts.id, line]));
let lines: string[] | undefined;
const parsed = new Map<string, readonly Model[]>();

export function isCatalogueProvider(provider: string): boolean {
  return INDEX.has(provider);
}

export function providerFacts(provider: string): ProviderFacts | undefined {
  const line = INDEX.get(provider);
  return line === undefined ? undefined : PROVIDERS[line];
}

/** The catalogue's models of `provider` (empty for a provider it does not know). Shared: copy before changing. */
export function catalogueModels(provider: string): readonly Model[] {
  const known = parsed.get(provider);
  if (known) return known;
  const line = INDEX.get(provider);
  if (line === undefined) return [];
  lines ??= readFileSync(modelsFile, "utf8").split("\n");
  const records = JSON.parse(lines[line]!) as Omit<Model, "provider">[];
  const models = records.map((record): Model => ({ ...record, provider }));
  parsed.set(provider, models);
  return models;
}

/** Per provider: the model picked when only the provider is known. */
export function defaultModelOf(provider: string): string | undefined {
  return providerFacts(provider)?.defaultModel;
}

/** The providers whose models have been parsed so far (what a run paid for). */
export function parsedProviders(): string[] {
  return [...parsed.keys()];
}
