/**
 * The modules extensions import from the host, served in-process with `Bun.plugin`'s
 * `build.module` (the one hook that applies to runtime `import()`): one registration per
 * specifier and subpath, each with a `default` for default imports. Pi's packages answer under
 * both scopes; names upstream exports that pig does not implement are present as stubs that
 * fail only when used.
 */
import * as typebox from "typebox";
import * as typeboxCompile from "typebox/compile";
import * as typeboxError from "typebox/error";
import * as typeboxFormat from "typebox/format";
import * as typeboxGuard from "typebox/guard";
import * as typeboxSchema from "typebox/schema";
import * as typeboxSystem from "typebox/system";
import * as typeboxType from "typebox/type";
import * as typeboxValue from "typebox/value";
import * as pigExtension from "../api/index.ts";
import * as agentCore from "../compat/agent-core.ts";
import * as ai from "../compat/ai.ts";
import * as codingAgent from "../compat/coding-agent.ts";
import * as tui from "../compat/tui.ts";
import { UPSTREAM_EXPORTS } from "../compat/upstream-names.ts";

type Exports = Record<string, unknown>;

function missing(module: string, name: string): unknown {
  const message = `${name} from ${module} is not available in pig's extension runtime`;
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) return undefined;
  if (/^[A-Z]/.test(name)) {
    return class {
      constructor() {
        throw new Error(message);
      }
    };
  }
  return () => {
    throw new Error(message);
  };
}

/** Our exports, plus a stub for every other name upstream's module has. */
function withUpstreamNames(upstream: string, own: Exports): Exports {
  const out: Exports = {};
  for (const name of UPSTREAM_EXPORTS[upstream] ?? []) out[name] = missing(upstream, name);
  for (const [name, value] of Object.entries(own)) if (name !== "default") out[name] = value;
  out.default = out;
  return out;
}

function plain(own: Exports): Exports {
  const out: Exports = { ...own };
  if (!("default" in out)) out.default = own;
  return out;
}

/**
 * Every specifier served, each with how to build its exports. Built on first import (an
 * extension typically imports one or two of these; the stubs for every upstream name are
 * hundreds of objects), then kept: both scopes of a Pi package share one exports object.
 */
function hostModuleBuilders(): Map<string, () => Exports> {
  const modules = new Map<string, () => Exports>();
  const pi: [string, () => Exports][] = [
    ["pi-coding-agent", once(() => withUpstreamNames("pi-coding-agent", codingAgent))],
    ["pi-ai", once(() => withUpstreamNames("pi-ai", ai))],
    ["pi-ai/compat", once(() => withUpstreamNames("pi-ai/compat", ai))],
    ["pi-ai/oauth", once(() => withUpstreamNames("pi-ai/oauth", {}))],
    ["pi-agent-core", once(() => withUpstreamNames("pi-agent-core", agentCore))],
    ["pi-tui", once(() => withUpstreamNames("pi-tui", tui))],
  ];
  for (const scope of ["@earendil-works", "@mariozechner"]) for (const [name, exports] of pi) modules.set(`${scope}/${name}`, exports);
  const tb: [string, Exports][] = [
    ["", typebox],
    ["/compile", typeboxCompile],
    ["/error", typeboxError],
    ["/format", typeboxFormat],
    ["/guard", typeboxGuard],
    ["/schema", typeboxSchema],
    ["/system", typeboxSystem],
    ["/type", typeboxType],
    ["/value", typeboxValue],
  ];
  // Legacy `@sinclair/typebox` is served by TypeBox 1.x, as upstream aliases it.
  for (const root of ["typebox", "@sinclair/typebox"]) for (const [sub, exports] of tb) modules.set(root + sub, once(() => plain(exports)));
  modules.set("pig/extension", once(() => plain(pigExtension)));
  return modules;
}

function once(build: () => Exports): () => Exports {
  let built: Exports | undefined;
  return () => (built ??= build());
}

/** The exports of every host module, by specifier (all built now). */
export function hostModules(): Map<string, Exports> {
  return new Map([...hostModuleBuilders()].map(([specifier, build]) => [specifier, build()]));
}

let registered = false;

export function registerHostModules(): string[] {
  const modules = hostModuleBuilders();
  if (!registered) {
    registered = true;
    Bun.plugin({
      name: "pig-extension-host-modules",
      setup(build) {
        for (const [specifier, exports] of modules) build.module(specifier, () => ({ exports: exports(), loader: "object" }));
      },
    });
  }
  return [...modules.keys()];
}
