/**
 * Reading configuration files that people edit by hand: JSON with `//` and block comments and
 * trailing commas. Errors say where (line and column), so the message can name the spot.
 */
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";

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
};

/** Parses JSON with comments and trailing commas; throws `JsoncError` at the first mistake. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = position(text, first.offset);
    const code = printParseErrorCode(first.error);
    throw new JsoncError(`${WORDS[code] ?? code} at line ${line}, column ${column}`, line, column);
  }
  if (value === undefined) throw new JsoncError("the file holds no JSON value", 1, 1);
  return value;
}
