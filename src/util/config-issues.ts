/**
 * What is wrong with a configuration file, in words that name the place: a value of the wrong
 * type (`"retry.enabled" (line 3, column 14) must be true or false, not "yes"`) and a key the
 * schema does not have (`unknown key "defaultModle" at line 2, column 3 (did you mean
 * "defaultModel"?)`). Both work from the valibot schema the file is checked with, so the
 * words cannot drift from what is accepted.
 */
import * as v from "valibot";
import { closestName } from "./closest.ts";
import { placeOf } from "./jsonc.ts";
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

/** One issue, naming the key and the line and column of its value in `text`. */
export function describeIssue(issue: v.BaseIssue<unknown>, text: string): string {
  const keys = keysOf(issue);
  const name = keys.length > 0 ? `"${dotted(keys)}"` : "the top level";
  if (issue.received === "undefined" && keys.length > 0) {
    const parent = placeOf(text, keys.slice(0, -1));
    // valibot reports a missing key with the key itself as `expected`; the type is not known here.
    return `${name} is missing${parent ? ` (in the object at ${parent})` : ""}`;
  }
  const place = keys.length > 0 ? placeOf(text, keys) : undefined;
  const at = place ? ` (${place})` : "";
  // A message of our own ("must not be empty") says more than valibot's generic one.
  if (issue.kind === "validation" && !issue.message.startsWith("Invalid ")) return `${name}${at} ${issue.message}`;
  const guess = typeof issue.input === "string" ? closestName(issue.input, choices(issue.expected)) : undefined;
  const hint = guess ? ` (did you mean "${guess}"?)` : "";
  return `${name}${at} must be ${expectedWords(issue.expected)}, not ${receivedWords(issue.received)}${hint}`;
}

/** The first few issues, joined with "; ". */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], text: string, max = 5): string {
  const shown = issues.slice(0, max).map((issue) => describeIssue(issue, text));
  const more = issues.length > max ? ` (and ${issues.length - max} more)` : "";
  return `${shown.join("; ")}${more}`;
}

// ---- Unknown keys -----------------------------------------------------------------------------

export interface UnknownKey {
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

/**
 * Keys of `value` that its schema does not name, at any depth. An `objectWithRest` schema marks
 * an object open to any key (credentials of other programs, free-form maps), so its extra keys
 * are not reported; a union is followed into the option the value matches.
 */
export function findUnknownKeys(schema: v.GenericSchema, value: unknown, path: Key[] = []): UnknownKey[] {
  const node = schema as unknown as SchemaNode;
  if (WRAPPERS.has(node.type)) return node.wrapped && value != null ? findUnknownKeys(node.wrapped, value, path) : [];
  if (OBJECTS.has(node.type)) {
    if (!isPlainObject(value)) return [];
    const entries = node.entries ?? {};
    const out: UnknownKey[] = [];
    for (const [key, child] of Object.entries(value)) {
      const entry = Object.hasOwn(entries, key) ? entries[key] : undefined;
      if (entry) out.push(...findUnknownKeys(entry, child, [...path, key]));
      else if (node.type !== "object_with_rest") out.push({ path: [...path, key], known: Object.keys(entries) });
    }
    return out;
  }
  if (node.type === "array" && node.item && Array.isArray(value)) {
    return value.flatMap((item: unknown, index) => findUnknownKeys(node.item!, item, [...path, index]));
  }
  if (node.type === "record" && node.value && isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, child]) => findUnknownKeys(node.value!, child, [...path, key]));
  }
  if ((node.type === "union" || node.type === "variant") && node.options) {
    const option = node.options.filter(isSchema).find((o) => v.is(o, value));
    return option ? findUnknownKeys(option, value, path) : [];
  }
  return [];
}

/** `unknown key "retry.enabeld" at line 3, column 5 (did you mean "retry.enabled"?)` */
export function describeUnknownKey(unknown: UnknownKey, text: string): string {
  const last = String(unknown.path.at(-1));
  const guess = closestName(last, unknown.known);
  const place = placeOf(text, unknown.path, "key");
  const suggestion = guess ? ` (did you mean "${dotted([...unknown.path.slice(0, -1), guess])}"?)` : "";
  return `unknown key "${dotted(unknown.path)}"${place ? ` at ${place}` : ""}${suggestion}`;
}
