/**
 * The extensions' virtual models (upstream 1.x's `registerVirtualModel`) kept in the model
 * registry as the host's registrations change: listed under their provider, each with a router
 * that asks its extension. A refused one (its id taken by a physical model) is an extension error.
 */
import type { ModelRegistry } from "../ai/registry.ts";
import { createVirtualModel } from "../ai/virtual-models.ts";
import type { ExtensionVirtualModel } from "../extensions/host/virtual-models.ts";
import type { ProviderErrorReport } from "./extension-providers.ts";

export function syncVirtualModels(
  host: { virtualModels(): ExtensionVirtualModel[]; onChange(listener: () => void): () => void },
  registry: ModelRegistry,
  outlets: { report: ProviderErrorReport; changed?: () => void },
): () => void {
  /** By `provider/id`: what was applied (the extension and its spec), so an unchanged one is left alone. */
  const applied = new Map<string, { provider: string; id: string; key: string }>();
  const refused = new Map<string, string>();
  const sync = () => {
    const now = host.virtualModels();
    const names = new Set(now.map((m) => `${m.spec.provider}/${m.spec.id}`));
    for (const [name, entry] of [...applied]) {
      if (names.has(name)) continue;
      applied.delete(name);
      registry.unregisterVirtualModel(entry.provider, entry.id);
    }
    for (const virtual of now) {
      const { provider, id } = virtual.spec;
      const name = `${provider}/${id}`;
      const key = JSON.stringify([virtual.extension, virtual.spec]);
      if (applied.get(name)?.key === key || refused.get(name) === key) continue;
      try {
        registry.registerVirtualModel(createVirtualModel(virtual.spec), (request, signal) => virtual.route(request as unknown as Record<string, unknown>, signal));
        applied.set(name, { provider, id, key });
        refused.delete(name);
      } catch (error) {
        refused.set(name, key);
        outlets.report({ extensionPath: virtual.extension, event: "register_virtual_model", error: error instanceof Error ? error.message : String(error) });
      }
    }
    outlets.changed?.();
  };
  sync();
  const unsubscribe = host.onChange(sync);
  return () => {
    unsubscribe();
    for (const entry of applied.values()) registry.unregisterVirtualModel(entry.provider, entry.id);
    applied.clear();
  };
}
