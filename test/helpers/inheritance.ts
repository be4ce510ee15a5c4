// Classes that extend a class of their own module: read from the sources, as the layering is.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { withoutComments } from "./layering.ts";

export interface Subclass {
  /** Path under the source root, with `/` separators. */
  file: string;
  line: number;
  child: string;
  parent: string;
}

const CLASS = /\bclass\s+([A-Za-z_$][\w$]*)/g;
const EXTENDS = /\bclass\s+([A-Za-z_$][\w$]*)\s*(?:<[^{]*?>)?\s*extends\s+([A-Za-z_$][\w$]*)/g;

/**
 * Every `class X extends Y` in `files` where Y is also declared in `files`. Classes from
 * elsewhere (Error, a library's) are not counted: the rule is about a module's own hierarchy.
 */
export function ownSubclasses(files: readonly string[], root: string, read = (file: string) => readFileSync(file, "utf8")): Subclass[] {
  const texts = files.map((file) => ({ file: relative(root, file).split("\\").join("/"), text: withoutComments(read(file)) }));
  const declared = new Set(texts.flatMap(({ text }) => [...text.matchAll(CLASS)].map((m) => m[1]!)));
  return texts.flatMap(({ file, text }) =>
    [...text.matchAll(EXTENDS)]
      .filter((m) => declared.has(m[2]!))
      .map((m) => ({ file, line: text.slice(0, m.index).split("\n").length, child: m[1]!, parent: m[2]! })),
  );
}
