/**
 * Virtual models as the model registry gets them (upstream 1.x's `registerVirtualModel`): what
 * the extension said of each, and its router, asked with `virtualModel.route` for every request.
 */
import * as v from "valibot";
import { describeIssues } from "../issue-text.ts";
import { VirtualModelRouteResultSchema, type VirtualModelSpec } from "../protocol.ts";
import type { ProviderRequest } from "./providers.ts";
import type { Registration } from "./registry.ts";

export type VirtualModelRoute = v.InferOutput<typeof VirtualModelRouteResultSchema>;

export interface ExtensionVirtualModel {
  /** The extension's id (its path). */
  extension: string;
  spec: VirtualModelSpec;
  /** Asks the extension's router for one request (`request` is upstream's, without its signal). */
  route(request: Record<string, unknown>, signal?: AbortSignal): Promise<VirtualModelRoute>;
}

type Entries = ReadonlyArray<readonly [string, Registration]>;

export function listVirtualModels(entries: Entries, request: ProviderRequest): ExtensionVirtualModel[] {
  const out: ExtensionVirtualModel[] = [];
  for (const [extension, r] of entries) {
    for (const spec of r.virtualModels.values()) {
      const route = async (routeRequest: Record<string, unknown>, signal?: AbortSignal): Promise<VirtualModelRoute> => {
        const raw = await request(extension, "virtualModel.route", { extension, provider: spec.provider, id: spec.id, request: routeRequest }, signal ? { signal } : {});
        const parsed = v.safeParse(VirtualModelRouteResultSchema, raw);
        if (!parsed.success) throw new Error(`Extension "${extension}" returned an invalid virtualModel.route result: ${describeIssues(parsed.issues)}`);
        return parsed.output;
      };
      out.push({ extension, spec, route });
    }
  }
  return out;
}
