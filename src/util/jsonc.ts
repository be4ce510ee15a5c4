/**
 * Reading configuration files that people edit by hand: JSON with `//` and block comments and
 * trailing commas (or strict JSON, for files pig rewrites whole). Errors say where (line and
 * column), so the message can name the spot.
 */
import type { FormattingOptions, JSONPath, Node, ParseError } from "jsonc-parser";

type JsoncParser = typeof import("jsonc-parser");
let parserModule: JsoncParser | undefined;

/**
 * jsonc-parser, loaded on first use: most files are plain JSON, which `JSON.parse` reads, and
 * evaluating the package (its formatter builds ~1,400 indentation strings at load) is a cost a
 * run should pay only when a file has comments, a mistake, or is edited in place.
 */
function jsoncParser(): JsoncParser {
  // The ES module build: `require("jsonc-parser")` would take the package's UMD `main`, whose
  // own requires the compiled binary cannot resolve.
  parserModule ??= require("jsonc-parser/lib/esm/main.js") as JsoncParser;
  return parserModule;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = "JsoncError";
  }
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const WORDS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "a property name (in double quotes) is expected",
  ValueExpected: "a value is expected",
  ColonExpected: "':' is expected",
  CommaExpected: "',' is expected",
  CloseBraceExpected: "'}' is expected",
  CloseBracketExpected: "']' is expected",
  EndOfFileExpected: "nothing may follow the value",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfComment: "a comment is not closed",
  UnexpectedEndOfNumber: "a number is cut short",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in a string",
  InvalidCommentToken: "comments are not allowed in this file",
};

export interface JsoncOptions {
  /** Plain JSON only: no comments, no trailing commas (a file pig rewrites whole would lose them). */
  strict?: boolean;
}

/** Parses JSON with comments and trailing commas; throws `JsoncError` at the first mistake. */
export function parseJsonc(text: string, options: JsoncOptions = {}): unknown {
  // Plain JSON (the usual case) reads the same either way; anything else takes the full parser,
  // which also says where the mistake is.
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Comments, trailing commas or a mistake.
  }
  const { parse, printParseErrorCode } = jsoncParser();
  const errors: ParseError[] = [];
  const strict = options.strict === true;
  const value: unknown = parse(text, errors, { allowTrailingComma: !strict, disallowComments: strict });
  const first = errors[0];
  if (first) {
    const { line, column } = position(text, first.offset);
    const code = printParseErrorCode(first.error);
    throw new JsoncError(`${WORDS[code] ?? code} at line ${line}, column ${column}`, line, column);
  }
  if (value === undefined) throw new JsoncError("the file holds no JSON value", 1, 1);
  return value;
}

export interface Place {
  line: number;
  column: number;
  offset: number;
}

/**
 * Where values and keys are written in one JSON text, for messages that name the spot. The text
 * is parsed into a tree once, when the first place is asked for.
 */
export class JsonPlaces {
  private tree: Node | undefined;
  private parsed = false;

  constructor(readonly text: string) {}

  /**
   * Where the value at `path` is written, or where its key is when `at` is "key"; undefined when
   * the text has no such place. A missing key is placed at its parent.
   */
  locate(path: readonly (string | number)[], at: "value" | "key" = "value"): Place | undefined {
    if (!this.parsed) {
      this.tree = jsoncParser().parseTree(this.text, [], { allowTrailingComma: true, disallowComments: false });
      this.parsed = true;
    }
    const tree = this.tree;
    if (!tree) return undefined;
    let keys = [...path];
    const { findNodeAtLocation } = jsoncParser();
    let node = findNodeAtLocation(tree, keys);
    while (!node && keys.length > 0) {
      keys = keys.slice(0, -1);
      node = findNodeAtLocation(tree, keys);
      at = "value";
    }
    if (!node) return undefined;
    const keyNode = at === "key" && node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
    const offset = (keyNode ?? node).offset;
    return { ...position(this.text, offset), offset };
  }

  /** `locate` as words: "line 3, column 14". */
  placeOf(path: readonly (string | number)[], at: "value" | "key" = "value"): string | undefined {
    const place = this.locate(path, at);
    return place ? `line ${place.line}, column ${place.column}` : undefined;
  }
}

/** One place in `text`, as words (see `JsonPlaces`, for several places in one text). */
export function placeOf(text: string, path: readonly (string | number)[], at: "value" | "key" = "value"): string | undefined {
  return new JsonPlaces(text).placeOf(path, at);
}

/** `text` with the value at `path` set to `value` (removed when undefined), its comments and layout kept. */
export function editJsonc(text: string, path: JSONPath, value: unknown, formattingOptions: FormattingOptions): string {
  const { applyEdits, modify } = jsoncParser();
  return applyEdits(text, modify(text, path, value, { formattingOptions }));
}
