/**
 * Which of pig's top-level directories may import which (shared/design.md's layering, with the
 * places docs/decisions.md records), and a checker that names every import going against it.
 * Type-only and dynamic imports count: a layer that needs another's types depends on it as much.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { circles } from "./import-cycles.ts";

/** One import in a source file: where it is and the module it names (both relative to `src/`). */
export interface ImportEdge {
  file: string;
  line: number;
  target: string;
}

export interface LayerViolation {
  file: string;
  line: number;
  from: string;
  to: string;
  rule: string;
}

const BELOW_AGENT = ["compaction", "resources", "tools", "session", "ai", "util"];

/** Leaves any layer may import: the version string, what a Piglet Binary says it is, and ambient declarations. */
const OPEN_TO_ALL: ReadonlySet<string> = new Set(["version.ts", "binary-identity.ts", "types"]);

/** Each layer and the other layers it may import (its own files it always may). */
export const LAYER_RULES: Readonly<Record<string, readonly string[]>> = {
  cli: ["modes", "runtime", "extensions", "agent", "mcp", "export", ...BELOW_AGENT],
  modes: ["runtime", "extensions", "agent", "export", ...BELOW_AGENT],
  "sdk.ts": ["sdk", "runtime", "extensions", "agent", ...BELOW_AGENT],
  // The RPC client for Node and Bun: it runs pig as a process, so it takes only the wire's types
  // from modes and below (type-only, held by the SDK package's build) and pure helpers from util.
  sdk: ["modes", "agent", ...BELOW_AGENT],
  runtime: ["extensions", "agent", "mcp", ...BELOW_AGENT],
  extensions: ["agent", "mcp", ...BELOW_AGENT],
  agent: BELOW_AGENT,
  export: ["session", "ai", "util"],
  compaction: ["session", "ai", "util"],
  resources: ["tools", "session", "ai", "util"],
  // MCP clients and their tools; the runtime wires them into a run.
  mcp: ["tools", "ai", "util"],
  tools: ["ai", "util"],
  session: ["ai", "util"],
  ai: ["util"],
  util: [],
  "version.ts": [],
  "binary-identity.ts": [],
  types: [],
};

/** The layer of a path relative to `src/`: its top-level directory, or the file at the top. */
export function layerOf(path: string): string {
  return path.split("/")[0]!;
}

function ruleText(from: string, rules: Readonly<Record<string, readonly string[]>>): string {
  const allowed = rules[from];
  if (allowed === undefined) return `${from} is not a known layer: give it a place in the layering rules`;
  if (allowed.length === 0) return `${from} imports nothing of pig's outside itself`;
  return `${from} may import only ${allowed.join(", ")}`;
}

/** Every import against `rules`, then every import that is part of a cycle between layers. */
export function checkLayering(
  edges: readonly ImportEdge[],
  rules: Readonly<Record<string, readonly string[]>> = LAYER_RULES,
): LayerViolation[] {
  const out: LayerViolation[] = [];
  const crossing = edges
    .map((edge) => ({ ...edge, from: layerOf(edge.file), to: layerOf(edge.target) }))
    .filter((edge) => edge.from !== edge.to && !OPEN_TO_ALL.has(edge.to));
  for (const edge of crossing) {
    if (edge.to === "cli") {
      out.push({ ...edge, rule: "nothing imports cli but cli itself (it is the entry point)" });
    } else if (!rules[edge.from]?.includes(edge.to)) {
      out.push({ ...edge, rule: ruleText(edge.from, rules) });
    }
  }
  const cyclic = cyclicLayers(crossing);
  for (const edge of crossing) {
    const group = cyclic.get(edge.from);
    if (group && group === cyclic.get(edge.to)) {
      out.push({ ...edge, rule: `no cycles between layers: ${[...group].sort().join(", ")} import each other` });
    }
  }
  return out;
}

/** Each layer that is in a cycle, mapped to the set of layers of its cycle. */
function cyclicLayers(edges: readonly { from: string; to: string }[]): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const circle of circles(edges)) {
    const group = new Set(circle);
    for (const member of circle) result.set(member, group);
  }
  return result;
}

/** The imports of one source file that name another of pig's modules (relative specifiers inside `srcDir`). */
export function importsOf(file: string, srcDir: string, text = readFileSync(file, "utf8")): ImportEdge[] {
  const code = withoutComments(text);
  const out: ImportEdge[] = [];
  const patterns = [
    // import … from "x", import type … from "x", export … from "x" (over several lines too)
    /\b(?:import|export)\b[^;"'`]*?\bfrom\s*(["'])([^"'\n]+)\1/g,
    // import("x"), typeof import("x")
    /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g,
    // import "x" (for its effects)
    /\bimport\s*(["'])([^"'\n]+)\1/g,
  ];
  const rel = relative(srcDir, file).split(sep).join("/");
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const specifier = match[2]!;
      if (!specifier.startsWith(".")) continue;
      const target = relative(srcDir, resolve(dirname(file), specifier)).split(sep).join("/");
      // package.json, docs/*.md: files of the package, not modules of a layer.
      if (target.startsWith("..")) continue;
      const line = code.slice(0, match.index).split("\n").length;
      out.push({ file: rel, line, target });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** Prose that mentions an import is not one: comments become spaces (lines stay where they were). */
export function withoutComments(text: string): string {
  let out = "";
  let i = 0;
  // Template literals nest code in `${…}`: each open one keeps the brace depth its code started at.
  const templates: number[] = [];
  let depth = 0;
  let lastSignificant = "";
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  while (i < text.length) {
    const c = text[i]!;
    const two = text.slice(i, i + 2);
    if (two === "//") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (two === "/*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      lastSignificant = c;
    } else if (c === "`" || (c === "}" && templates.length > 0 && templates.at(-1) === depth)) {
      // A template's text, up to its end or to the next `${`.
      if (c === "}") templates.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== "`" && text.slice(j, j + 2) !== "${") j += text[j] === "\\" ? 2 : 1;
      if (text.slice(j, j + 2) === "${") {
        templates.push(depth);
        out += text.slice(i, j + 2);
        i = j + 2;
      } else {
        out += text.slice(i, j + 1);
        i = j + 1;
      }
      lastSignificant = "`";
    } else if (c === "/" && (lastSignificant === "" || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant) || /\b(?:return|typeof|case|in|of)$/.test(out.slice(-12).trimEnd()))) {
      // A regular expression literal: skipped whole, so its quotes and slashes start nothing.
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n" && (inClass || text[j] !== "/")) {
        if (text[j] === "\\") j++;
        else if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      lastSignificant = "/";
    } else {
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (!/\s/.test(c)) lastSignificant = c;
      out += c;
      i++;
    }
  }
  return out;
}

/** Every `.ts` file under `dir`, absolute. */
export function sourceFiles(dir: string): string[] {
  return [...new Bun.Glob("**/*.ts").scanSync(dir)].sort().map((path) => join(dir, path));
}
