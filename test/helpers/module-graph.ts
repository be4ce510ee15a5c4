/**
 * Which modules a set of entry modules loads before any `import()` runs: their static imports,
 * followed through pig's own sources (packages and built-ins are recorded by name, not entered).
 * A module named this way is evaluated by the bundle whenever an entry is, so this is what a
 * mode pays for at start-up; `import()`ed modules are loaded only when that code runs.
 */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";

const tsScanner = new Bun.Transpiler({ loader: "ts" });

export interface ModuleGraph {
  /** Absolute paths of pig's own modules. */
  files: Set<string>;
  /** Packages and built-ins (`openai`, `@clack/prompts`, `node:fs`, `bun:ffi`). */
  external: Set<string>;
}

/** Static imports (and `require` calls) reachable from `entries` (absolute paths). */
export function staticImports(entries: readonly string[]): ModuleGraph {
  const files = new Set<string>();
  const external = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const { path, kind } of tsScanner.scanImports(readFileSync(file, "utf8"))) {
      if (kind === "dynamic-import") continue;
      if (!path.startsWith(".") && !path.startsWith("/")) {
        external.add(packageName(path));
        continue;
      }
      const resolved = Bun.resolveSync(path, dirname(file));
      // Data and assets (JSON, Markdown, the catalogue's JSONL, WebAssembly) import nothing.
      if (!/\.[cm]?[jt]sx?$/.test(resolved)) continue;
      queue.push(resolved);
    }
  }
  return { files, external };
}

/** `@clack/prompts/dist/x` → `@clack/prompts`; `openai/resources` → `openai`; `node:fs` as it is. */
function packageName(specifier: string): string {
  if (specifier.includes(":")) return specifier;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}
