/**
 * The modules extensions import from the host, served in-process with `Bun.plugin`'s
 * `build.module` (the one hook that applies to runtime `import()`): one registration per
 * specifier and subpath, each with a `default` for default imports. Pi's packages answer under
 * both scopes; names upstream exports that pig does not implement are present as stubs that
 * fail only when used. Each module is loaded when an extension first needs it (`HostModules`):
 * TypeBox and the stand-ins are most of what the runner would otherwise load at start-up.
 */
import { extname } from "node:path";
import { UPSTREAM_MODULES } from "../compat/upstream-modules.ts";

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

/**
 * Our exports, plus a stub for every other name upstream's module has. The list of upstream's
 * names loads with the first Pi module an extension imports, not with the runner.
 */
function withUpstreamNames(upstream: string, names: readonly string[], own: Exports): Exports {
  const out: Exports = {};
  for (const name of names) out[name] = missing(upstream, name);
  for (const [name, value] of Object.entries(own)) if (name !== "default") out[name] = value;
  out.default = out;
  return out;
}

function plain(own: Exports): Exports {
  const out: Exports = { ...own };
  if (!("default" in out)) out.default = own;
  return out;
}

type Loader = () => Promise<Exports>;

/** pig's stand-in for the root of each upstream package that has one; subpaths share it (below). */
const STAND_INS: Record<string, () => Promise<Exports>> = {
  "pi-coding-agent": () => import("../compat/coding-agent.ts"),
  "pi-ai": () => import("../compat/ai.ts"),
  "pi-agent-core": () => import("../compat/agent-core.ts"),
  "pi-tui": () => import("../compat/tui.ts"),
};

/**
 * What pig implements of an upstream module. `pi-ai/compat` is pi-ai's surface (upstream
 * re-exports it whole); any other subpath gets, from its package's stand-in, the names upstream's
 * package root exports too: upstream's root re-exports them from that subpath, so they are the
 * same value.
 */
async function ownExports(upstream: string, upstreamNames: Readonly<Record<string, readonly string[]>>): Promise<Exports> {
  if (upstream === "pi-ai/compat") return STAND_INS["pi-ai"]!();
  const slash = upstream.indexOf("/");
  const root = slash < 0 ? upstream : upstream.slice(0, slash);
  const load = STAND_INS[root];
  if (!load) return {};
  const standIn = await load();
  if (slash < 0) return standIn;
  const atRoot = new Set(upstreamNames[root] ?? []);
  const shared: Exports = {};
  for (const name of upstreamNames[upstream] ?? []) if (atRoot.has(name) && name in standIn) shared[name] = standIn[name];
  return shared;
}

/**
 * Every specifier served, with how to load its exports: each module (TypeBox, the Pi package
 * stand-ins) is a chunk of its own, loaded the first time it is needed. Every module upstream's
 * packages have answers under both scopes, the two sharing one exports object; `typebox` and
 * `@sinclair/typebox` each get their own.
 */
function hostModuleLoaders(): Map<string, Loader> {
  const modules = new Map<string, Loader>();
  for (const upstream of UPSTREAM_MODULES) {
    const load = once(async () => {
      const { UPSTREAM_EXPORTS } = await import("../compat/upstream-names.ts");
      return withUpstreamNames(upstream, UPSTREAM_EXPORTS[upstream] ?? [], await ownExports(upstream, UPSTREAM_EXPORTS));
    });
    for (const scope of ["@earendil-works", "@mariozechner"]) modules.set(`${scope}/${upstream}`, load);
  }
  // TypeBox under a name of pig's own (package.json "imports"): run from the sources, an
  // `import("typebox")` made once the plugin is registered would be answered by the plugin.
  const tb: [string, () => Promise<Exports>][] = [
    ["", () => import("#typebox")],
    ["/compile", () => import("#typebox/compile")],
    ["/error", () => import("#typebox/error")],
    ["/format", () => import("#typebox/format")],
    ["/guard", () => import("#typebox/guard")],
    ["/schema", () => import("#typebox/schema")],
    ["/system", () => import("#typebox/system")],
    ["/type", () => import("#typebox/type")],
    ["/value", () => import("#typebox/value")],
  ];
  // Legacy `@sinclair/typebox` is served by TypeBox 1.x, as upstream aliases it.
  for (const root of ["typebox", "@sinclair/typebox"]) for (const [sub, load] of tb) modules.set(root + sub, once(async () => plain(await load())));
  // The extension API under pig's name and under the npm package's, whose `/extension` export gives its types.
  const api = once(async () => plain(await import("../api/index.ts")));
  for (const name of ["pig/extension", "pig-coding-agent/extension"]) modules.set(name, api);
  return modules;
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

const SOURCE_LOADERS: Record<string, "ts" | "tsx" | "js" | "jsx"> = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "jsx" };

/**
 * The host modules, served with `Bun.plugin`'s `build.module`. A module is served synchronously
 * once loaded — which `require()` needs — and an `import` waits for one that is not. So before
 * an extension is imported, `prepare` loads what it can reach synchronously: nothing when its
 * file imports only host modules (and Node's or Bun's), each then loaded as its import asks for
 * it; every host module when it imports a file or package of its own, or the text names
 * `require` or `import(`, which could reach one by a name no scan sees.
 *
 * Each specifier is handed to Bun when an extension's file names it (`prepare`), not all ~450
 * at start-up: registering them all took the runner ~10 ms before its first extension, and a
 * file that may reach any gets them all then.
 */
export class HostModules {
  private readonly loaders = hostModuleLoaders();
  private readonly loaded = new Map<string, Exports>();
  private all: Promise<void> | undefined;
  private readonly transpilers = new Map<string, InstanceType<typeof Bun.Transpiler>>();
  /** Whether imports are served (`register`), and the specifiers handed to Bun so far. */
  private registered = false;
  private readonly served = new Set<string>();

  get specifiers(): string[] {
    return [...this.loaders.keys()];
  }

  /** The exports of `specifier`, loading them now if need be. */
  async load(specifier: string): Promise<Exports> {
    const ready = this.loaded.get(specifier);
    if (ready) return ready;
    const exports = await this.loaders.get(specifier)!();
    this.loaded.set(specifier, exports);
    return exports;
  }

  loadAll(): Promise<void> {
    this.all ??= Promise.all(this.specifiers.map((s) => this.load(s))).then(() => {});
    return this.all;
  }

  /**
   * Serves what the extension at `path` imports of the host modules, and loads every host module
   * it may reach synchronously while it is imported and runs.
   */
  async prepare(path: string): Promise<void> {
    if (this.served.size === this.loaders.size && this.loaded.size === this.loaders.size) return;
    const named = await this.hostImportsOnly(path);
    if (named) return this.serve(named);
    this.serve(this.specifiers);
    return this.loadAll();
  }

  /** Serves the modules to imports from now on: each as an extension's file names it (`prepare`). */
  register(): void {
    this.registered = true;
  }

  /** Hands Bun the specifiers among `specifiers` it does not have yet, once `register` was called. */
  private serve(specifiers: readonly string[]): void {
    if (!this.registered) return;
    const fresh = [...new Set(specifiers)].filter((specifier) => this.loaders.has(specifier) && !this.served.has(specifier));
    if (fresh.length === 0) return;
    for (const specifier of fresh) this.served.add(specifier);
    const hostModules = this;
    Bun.plugin({
      name: "pig-extension-host-modules",
      setup(build) {
        for (const specifier of fresh) {
          build.module(specifier, () => {
            const exports = hostModules.loaded.get(specifier);
            // Not loaded yet (only an `import()` by a computed name gets here): wait for it.
            if (exports) return { exports, loader: "object" };
            return hostModules.load(specifier).then((e) => ({ exports: e, loader: "object" as const }));
          });
        }
      },
    });
  }

  /**
   * The host modules the file at `path` imports, when it imports nothing but those and Node's or
   * Bun's, and cannot reach any other way; undefined otherwise. Every quoted name after `from` or
   * `import` is taken for an import (a comment or a string may add some, served for nothing):
   * when those are all such modules, so are the imports, and the file need not be parsed.
   * Otherwise Bun's scan of the imports decides, which leaves out the type-only ones.
   */
  private async hostImportsOnly(path: string): Promise<string[] | undefined> {
    const loader = SOURCE_LOADERS[extname(path)];
    if (!loader) return undefined;
    let source: string;
    try {
      // Bun.file, not node:fs: a runner whose extensions do not use node:fs does not load it.
      source = await Bun.file(path).text();
    } catch {
      return undefined;
    }
    if (/\brequire\b|\bimport\s*\(/.test(source)) return undefined;
    const isHost = (specifier: string) => this.loaders.has(specifier);
    const served = (specifier: string) => isHost(specifier) || specifier.startsWith("node:") || specifier.startsWith("bun:");
    const named = [...source.matchAll(/\b(?:from|import)\s*(["'])([^"'\n]*)\1/g)].map((m) => m[2]!);
    if (named.every(served)) return named.filter(isHost);
    let transpiler = this.transpilers.get(loader);
    if (!transpiler) this.transpilers.set(loader, (transpiler = new Bun.Transpiler({ loader })));
    try {
      const scanned = transpiler.scanImports(source).map(({ path: specifier }) => specifier);
      return scanned.every(served) ? scanned.filter(isHost) : undefined;
    } catch {
      return undefined;
    }
  }
}

let registered: HostModules | undefined;

/** The runner's host modules, registered with Bun the first time. */
export function registerHostModules(): HostModules {
  if (!registered) {
    registered = new HostModules();
    registered.register();
  }
  return registered;
}
