/**
 * The SDK package's `.d.ts` files: of everything `tsc --emitDeclarationOnly` wrote for pig's
 * sources, the files an entry point's declarations reach, with their imports rewritten from the
 * sources' `.ts` names to the published `.js` ones, and checked to need nothing a consumer lacks
 * (no Bun types, no text imports, no package besides the declared dependencies). Pure: the caller
 * reads and writes the files.
 */
import { dirname, join, normalize } from "node:path/posix";

/** The module specifiers a declaration file imports (static, `export … from`, and `import("…")` types). */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) found.push(match[1]!);
  return found;
}

/** `./x.ts` → `./x.js` in relative specifiers: the names the published files have. */
export function rewriteRelativeSpecifiers(text: string): string {
  return text.replace(/(["'])(\.\.?\/[^"']*?)\.ts\1/g, "$1$2.js$1");
}

/** The package a bare specifier names: `valibot`, `@scope/name`, `node:fs` → `node:fs`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

export interface DeclarationClosure {
  /** The reached files, as paths relative to the declarations' root (`sdk/index.d.ts`). */
  files: string[];
  /** Everything wrong with them for a consumer, one line each (empty: fit to publish). */
  problems: string[];
  /** The packages they import (besides `node:` modules). */
  packages: string[];
}

/**
 * The files `entries` reach through their imports. `read` gives a file's text (undefined: not
 * there); `allowedPackages` are those the published package depends on.
 */
export function declarationClosure(entries: readonly string[], read: (path: string) => string | undefined, allowedPackages: ReadonlySet<string>): DeclarationClosure {
  const seen = new Set<string>();
  const problems: string[] = [];
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = read(file);
    if (text === undefined) {
      problems.push(`${file}: not written by tsc`);
      continue;
    }
    if (/\bBun\.|\bbun:/.test(text)) problems.push(`${file}: names Bun's types, which a Node consumer does not have`);
    for (const specifier of importSpecifiers(text)) {
      if (/\.(md|jsonl|json|txt)$/.test(specifier)) {
        problems.push(`${file}: imports the file ${specifier}`);
      } else if (specifier.startsWith(".")) {
        queue.push(normalize(join(dirname(file), specifier.replace(/\.(ts|js)$/, ".d.ts"))));
      } else if (!specifier.startsWith("node:")) {
        const name = packageOf(specifier);
        packages.add(name);
        if (!allowedPackages.has(name)) problems.push(`${file}: imports ${specifier}, which is not a dependency of the package`);
      }
    }
  }
  return { files: [...seen].sort(), problems, packages: [...packages].sort() };
}
