/**
 * Providers as the model registry gets them: the config the extension sent, and — when the
 * extension serves `streamSimple` — a `provider.stream` request to it, with the assistant
 * stream events as progress and the final message as the result.
 */
import * as v from "valibot";
import { describeIssues } from "../issue-text.ts";
import { ProviderStreamResultSchema } from "../protocol.ts";
import type { Registration } from "./registry.ts";

export type ProviderRequest = (
  extension: string,
  method: string,
  params: unknown,
  options: { signal?: AbortSignal; onProgress?: (value: unknown) => void },
) => Promise<unknown>;

export interface ProviderStreamCall {
  model: Record<string, unknown>;
  context: unknown;
  options: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent(event: unknown): void;
}

export interface ExtensionProvider {
  /** The extension's id (its path). */
  extension: string;
  name: string;
  /** As sent: JSON only (`hasStreamSimple`, `hasOAuth` stand for the functions). */
  config: Record<string, unknown>;
  /** Present when the extension serves streamSimple: resolves with the final message. */
  stream?(call: ProviderStreamCall): Promise<unknown>;
}

type Entries = ReadonlyArray<readonly [string, Registration]>;

export function listProviders(entries: Entries, request: ProviderRequest): ExtensionProvider[] {
  const out: ExtensionProvider[] = [];
  for (const [extension, r] of entries) {
    for (const p of r.providers.values()) {
      const stream = async (call: ProviderStreamCall): Promise<unknown> => {
        const raw = await request(
          extension,
          "provider.stream",
          { extension, provider: p.name, model: call.model, context: call.context, options: call.options },
          { ...(call.signal ? { signal: call.signal } : {}), onProgress: call.onEvent },
        );
        const parsed = v.safeParse(ProviderStreamResultSchema, raw);
        if (!parsed.success) throw new Error(`Extension "${extension}" returned an invalid provider.stream result: ${describeIssues(parsed.issues)}`);
        return parsed.output.message;
      };
      out.push({ extension, name: p.name, config: p.config, ...(p.config.hasStreamSimple === true ? { stream } : {}) });
    }
  }
  return out;
}
