/**
 * What a new credential changes in the running session, after `/login` stored it: the models of
 * the provider that can now be used, and — only when the session had no usable model before, as
 * upstream does — a switch to one of them (the provider's default model when it has one).
 */
import { defaultModelOf } from "../../../ai/catalogue/index.ts";
import type { Model } from "../../../ai/types.ts";

/** The model to switch to, or undefined when the session keeps its own (or nothing can be used). */
export function modelAfterLogin(provider: string, available: readonly Model[], currentUsable: boolean): Model | undefined {
  if (currentUsable) return undefined;
  const own = available.filter((model) => model.provider === provider);
  const preferred = defaultModelOf(provider);
  return own.find((model) => model.id === preferred) ?? own[0];
}

const LISTED = 5;

/** "3 models available: a, b, c" — a few named, the rest counted. */
export function availableWords(provider: string, available: readonly Model[]): string {
  const ids = available.filter((model) => model.provider === provider).map((model) => `${model.provider}/${model.id}`);
  if (ids.length === 0) return `no ${provider} models are known to pig yet (models.json can add them)`;
  const named = ids.slice(0, LISTED).join(", ");
  const more = ids.length > LISTED ? ` and ${ids.length - LISTED} more (/model lists them)` : "";
  return `${ids.length} model${ids.length === 1 ? "" : "s"} available: ${named}${more}`;
}
