/**
 * What is wrong with a configuration file, in words that name the place: a value of the wrong
 * type (`"retry.enabled" (line 3, column 14) must be true or false, not "yes"`) and a key the
 * schema does not have (`unknown key "defaultModle" at line 2, column 3 (did you mean
 * "defaultModel"?)`). Both work from the valibot schema the file is checked with, so the
 * words cannot drift from what is accepted. `checkConfig` does both at once, and also refuses a
 * list where the schema wants an object (valibot's object schemas accept arrays).
 */
import * as v from "valibot";
import { closestName } from "./closest.ts";
import { JsonPlaces } from "./jsonc.ts";
import { isPlainObject } from "./plain-object.ts";

type Key = string | number;

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  boolean: "true or false",
  number: "a number",
  Array: "a list",
  Object: "an object",
  undefined: "nothing",
  null: "null",
};

/** valibot's `expected` ("(string | Object)", ">=0", "boolean") in words. */
export function expectedWords(expected: string | null | undefined): string {
  if (!expected) return "a valid value";
  if (expected.startsWith(">=")) return `a number ≥ ${expected.slice(2)}`;
  if (expected.startsWith("<=")) return `a number ≤ ${expected.slice(2)}`;
  const options = expected.replace(/^\((.*)\)$/, "$1").split(" | ");
  return options.map((option) => TYPE_WORDS[option] ?? option).join(" or ");
}

/** A parsed value found where an object belongs, in words: "a list", else the value as written. */
export function notObjectWords(value: unknown): string {
  return Array.isArray(value) ? "a list" : JSON.stringify(value);
}

function receivedWords(received: string): string {
  return TYPE_WORDS[received] ?? received;
}

/** The quoted strings of a picklist's `expected` ('("low" | "high")'), when it is one. */
function choices(expected: string | null): string[] {
  if (!expected) return [];
  const options = expected.replace(/^\((.*)\)$/, "$1").split(" | ");
  return options.every((o) => /^".*"$/.test(o)) ? options.map((o) => o.slice(1, -1)) : [];
}

function keysOf(issue: v.BaseIssue<unknown>): Key[] {
  return issue.path?.map((item) => item.key as Key) ?? [];
}

function dotted(keys: readonly Key[]): string {
  return keys.join(".");
}

/** One issue, naming the key and the line and column of its value in the file. */
function describeIssue(issue: v.BaseIssue<unknown>, places: JsonPlaces): string {
  const keys = keysOf(issue);
  const name = keys.length > 0 ? `"${dotted(keys)}"` : "the top level";
  if (issue.received === "undefined" && keys.length > 0) {
    const parent = places.placeOf(keys.slice(0, -1));
    // valibot reports a missing key with the key itself as `expected`; the type is not known here.
    return `${name} is missing${parent ? ` (in the object at ${parent})` : ""}`;
  }
  const place = keys.length > 0 ? places.placeOf(keys) : undefined;
  const at = place ? ` (${place})` : "";
  // A message of our own ("must not be empty") says more than valibot's generic one.
  if (issue.kind === "validation" && !issue.message.startsWith("Invalid ")) return `${name}${at} ${issue.message}`;
  const guess = typeof issue.input === "string" ? closestName(issue.input, choices(issue.expected)) : undefined;
  const hint = guess ? ` (did you mean "${guess}"?)` : "";
  return `${name}${at} must be ${expectedWords(issue.expected)}, not ${receivedWords(issue.received)}${hint}`;
}

// ---- Unknown keys -----------------------------------------------------------------------------

interface UnknownKey {
  path: Key[];
  /** The keys the object at that place may have. */
  known: string[];
}

/** The parts of a valibot schema the walk looks at; each is present only on its schema kinds. */
interface SchemaNode {
  readonly type: string;
  readonly entries?: Readonly<Record<string, v.GenericSchema>>;
  readonly wrapped?: v.GenericSchema;
  readonly item?: v.GenericSchema;
  readonly value?: v.GenericSchema;
  readonly options?: readonly unknown[];
}

const WRAPPERS = new Set(["optional", "exact_optional", "nullable", "nullish", "undefinedable", "non_optional", "non_nullable", "non_nullish"]);
const OBJECTS = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

function isSchema(value: unknown): value is v.GenericSchema {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema";
}

interface Found {
  unknown: UnknownKey[];
  /** Places holding a list where the schema wants an object or a record. */
  lists: Key[][];
}

/**
 * Collects the keys of `value` that its schema does not name, at any depth, and the lists where
 * an object belongs. An `objectWithRest` schema marks an object open to any key (credentials of
 * other programs, free-form maps), so its extra keys are not reported; a union is followed into
 * the option the value matches.
 */
function walk(schema: v.GenericSchema, value: unknown, path: Key[], found: Found): void {
  const node = schema as unknown as SchemaNode;
  if (WRAPPERS.has(node.type)) {
    if (node.wrapped && value != null) walk(node.wrapped, value, path, found);
    return;
  }
  if ((OBJECTS.has(node.type) || node.type === "record") && Array.isArray(value)) {
    found.lists.push(path);
    return;
  }
  if (OBJECTS.has(node.type) && isPlainObject(value)) {
    const entries = node.entries ?? {};
    for (const [key, child] of Object.entries(value)) {
      const entry = Object.hasOwn(entries, key) ? entries[key] : undefined;
      if (entry) walk(entry, child, [...path, key], found);
      else if (node.type !== "object_with_rest") found.unknown.push({ path: [...path, key], known: Object.keys(entries) });
    }
  } else if (node.type === "array" && node.item && Array.isArray(value)) {
    value.forEach((item: unknown, index) => walk(node.item!, item, [...path, index], found));
  } else if (node.type === "record" && node.value && isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) walk(node.value, child, [...path, key], found);
  } else if ((node.type === "union" || node.type === "variant") && node.options) {
    const option = node.options.filter(isSchema).find((o) => v.is(o, value));
    if (option) walk(option, value, path, found);
  }
}

/** `unknown key "retry.enabeld" at line 3, column 5 (did you mean "retry.enabled"?)` */
function describeUnknownKey(unknown: UnknownKey, places: JsonPlaces): string {
  const last = String(unknown.path.at(-1));
  const guess = closestName(last, unknown.known);
  const place = places.placeOf(unknown.path, "key");
  const suggestion = guess ? ` (did you mean "${dotted([...unknown.path.slice(0, -1), guess])}"?)` : "";
  return `unknown key "${dotted(unknown.path)}"${place ? ` at ${place}` : ""}${suggestion}`;
}

// ---- Both at once -----------------------------------------------------------------------------

export interface ConfigIssue {
  /** Where the mistake is, as keys from the top. */
  path: Key[];
  /** The mistake in words, naming the key and its line and column. */
  words: string;
}

export type ConfigCheck<T> =
  | { success: true; output: T; issues: []; unknownKeys: string[] }
  | { success: false; issues: ConfigIssue[]; unknownKeys: string[] };

/**
 * Checks a parsed file against its schema: the mistakes (in the order they appear in the file)
 * and, separately, the unknown keys, both in words that place them in `text`.
 */
export function checkConfig<S extends v.GenericSchema>(schema: S, value: unknown, text: string): ConfigCheck<v.InferOutput<S>> {
  const found: Found = { unknown: [], lists: [] };
  walk(schema, value, [], found);
  const places = new JsonPlaces(text);
  const unknownKeys = found.unknown.map((key) => describeUnknownKey(key, places));
  const result = v.safeParse(schema, value);
  const issues: (ConfigIssue & { offset: number })[] = found.lists.map((path) => {
    const name = path.length > 0 ? `"${dotted(path)}"` : "the top level";
    const place = path.length > 0 ? places.placeOf(path) : undefined;
    return { path, words: `${name}${place ? ` (${place})` : ""} must be an object, not a list`, offset: places.locate(path)?.offset ?? 0 };
  });
  for (const issue of result.issues ?? []) {
    const path = keysOf(issue);
    // A list already reported where an object belongs explains whatever valibot found inside it.
    if (found.lists.some((list) => list.every((key, i) => path[i] === key))) continue;
    issues.push({ path, words: describeIssue(issue, places), offset: places.locate(path)?.offset ?? 0 });
  }
  if (result.success && issues.length === 0) return { success: true, output: result.output, issues: [], unknownKeys };
  issues.sort((a, b) => a.offset - b.offset);
  return { success: false, issues: issues.map(({ path, words }) => ({ path, words })), unknownKeys };
}

/** The first few issues, joined with "; ". */
export function joinIssues(issues: readonly ConfigIssue[], max = 5): string {
  const shown = issues.slice(0, max).map((issue) => issue.words);
  const more = issues.length > max ? ` (and ${issues.length - max} more)` : "";
  return `${shown.join("; ")}${more}`;
}
