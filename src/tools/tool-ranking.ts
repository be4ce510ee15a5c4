/**
 * Ranking tools against a search query, for `tool_search`: Okapi BM25 over each tool's
 * description and the names and descriptions in its argument schema, with the tool's name and its
 * namespace as separate, weighted fields. The ordering follows upstream Pi 1.x's: a query that is
 * exactly a tool's name (or the part after its last `__`) comes first; then tools that match
 * more of the query's words; then the score.
 */
import { isPlainObject } from "../util/plain-object.ts";
import type { ToolNamespace } from "./types.ts";

export interface RankedDocument {
  name: string;
  /** The description and the schema's property names and descriptions. */
  text: string;
  /** The namespace's name, description and instructions (shared by every tool of it). */
  namespaceText: string;
}

const STOP_WORDS = new Set("a an and are as at be by for from in is it of on or that the this to with".split(" "));

/** `issues` → `issue`, `searches` → `search`: enough for tool vocabularies. */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ch|sh|ss|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

// Made on first use, like util/width.ts's: constructing one costs several ms at load.
let segmenter: Intl.Segmenter | undefined;

/** Words of `text`: identifiers split at case changes, any script, stop words left out. */
export function searchWords(text: string): string[] {
  const spaced = text
    .normalize("NFC")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, " ");
  // Plain ASCII splits at spaces; other scripts (Chinese, Thai …) need the word segmenter.
  const words = /^[a-z0-9 ]*$/.test(spaced) ? spaced.split(" ") : [...(segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" })).segment(spaced)].filter((s) => s.isWordLike).map((s) => s.segment);
  return words.filter((w) => w !== "" && !STOP_WORDS.has(w)).map((w) => (/^[a-z0-9]+$/.test(w) ? singular(w) : w));
}

/** A local `$ref` (`#/$defs/X`) resolved in `root`. */
function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    if (!isPlainObject(node)) return undefined;
    node = node[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

/** Descriptions and property names of a JSON Schema, following local references once each. */
function schemaWords(schema: unknown, root: unknown, out: string[], visited: Set<unknown>): void {
  if (!isPlainObject(schema)) return;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, root);
    if (isPlainObject(target) && !visited.has(target)) {
      visited.add(target);
      schemaWords(target, root, out, visited);
    }
  }
  if (typeof schema.description === "string") out.push(schema.description);
  if (isPlainObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      out.push(name);
      schemaWords(property, root, out, visited);
    }
  }
  schemaWords(schema.items, root, out, visited);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const variants = schema[key];
    if (Array.isArray(variants)) for (const variant of variants) schemaWords(variant, root, out, visited);
  }
}

export function rankedDocument(tool: { name: string; description: string; parameters: unknown }, namespace?: ToolNamespace): RankedDocument {
  const parts = [tool.description];
  schemaWords(tool.parameters, tool.parameters, parts, new Set([tool.parameters]));
  const namespaceText = namespace ? [namespace.name, namespace.description ?? "", namespace.instructions ?? ""].join(" ") : "";
  return { name: tool.name, text: parts.filter((p) => p.trim() !== "").join(" "), namespaceText };
}

const K1 = 1.2;
const B = 0.75;
/** A query word in the name outweighs any number of mentions in the text (at most K1 + 1 each). */
const NAME_WEIGHT = 3;
/** The namespace helps find a server's tools, not one tool among them. */
const NAMESPACE_WEIGHT = 0.5;

function identifierOf(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_$]/g, "_");
}

/** The best `limit` matches of `query`, best first; documents that match nothing are left out. */
export function rankTools(query: string, documents: readonly RankedDocument[], limit: number): string[] {
  const terms = new Set(searchWords(query));
  if (terms.size === 0 || documents.length === 0 || limit <= 0) return [];
  const indexed = documents.map((doc) => {
    const counts = new Map<string, number>();
    for (const word of searchWords(doc.text)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const segments = doc.name.split("__");
    return {
      name: doc.name,
      nameWords: new Set(searchWords(doc.name)),
      localWords: [...new Set(searchWords(segments.at(-1) ?? doc.name))],
      namespaceWords: new Set(searchWords(doc.namespaceText)),
      counts,
      length: [...counts.values()].reduce((a, b) => a + b, 0),
    };
  });
  const averageLength = indexed.reduce((sum, d) => sum + d.length, 0) / indexed.length || 1;
  const idf = new Map(
    [...terms].map((term) => {
      const having = indexed.filter((d) => d.nameWords.has(term) || d.counts.has(term) || d.namespaceWords.has(term)).length;
      return [term, Math.log(1 + (indexed.length - having + 0.5) / (having + 0.5))] as const;
    }),
  );
  const wholeNameBonus = [...idf.values()].reduce((a, b) => a + b, 0);
  const exact = identifierOf(query);
  const scored = indexed.flatMap((doc, order) => {
    const norm = K1 * (1 - B + (B * doc.length) / averageLength);
    let score = 0;
    let covered = 0;
    for (const term of terms) {
      const count = doc.counts.get(term) ?? 0;
      const weight = (doc.nameWords.has(term) ? NAME_WEIGHT : 0) + (doc.namespaceWords.has(term) ? NAMESPACE_WEIGHT : 0) + (count * (K1 + 1)) / (count + norm);
      if (weight > 0) covered++;
      score += (idf.get(term) ?? 0) * weight;
    }
    if (score === 0) return [];
    if (doc.localWords.length > 0 && doc.localWords.every((w) => terms.has(w))) score += wholeNameBonus;
    const id = identifierOf(doc.name);
    return [{ name: doc.name, score, covered, exact: id === exact || id.endsWith(`__${exact}`), order }];
  });
  scored.sort((a, b) => Number(b.exact) - Number(a.exact) || b.covered - a.covered || b.score - a.score || a.order - b.order);
  return scored.slice(0, limit).map((m) => m.name);
}
