import { expect, test } from "bun:test";
import { formatReadLineRange } from "../../../src/extensions/compat/line-range.ts";
import { parseStreamingJson, parseToolCallArguments, ToolCallArgumentsStream } from "../../../src/extensions/compat/tool-call-arguments.ts";

test("ToolCallArgumentsStream: partial arguments as pieces arrive, a new object only when they change, one full parse at the end", () => {
  const args = new ToolCallArgumentsStream();
  expect(args.append('{"pa')).toEqual({});
  const first = args.append('th": "src/a');
  expect(first).toEqual({ path: "src/a" });
  expect(args.append("")).toBe(first);
  expect(args.append('.ts", "n": 1')).toEqual({ path: "src/a.ts" });
  expect(args.append("2}")).toEqual({ path: "src/a.ts", n: 12 });
  expect(args.text).toBe('{"path": "src/a.ts", "n": 12}');
  expect(args.finish()).toEqual({ arguments: { path: "src/a.ts", n: 12 } });
});

test("replace gives the missing piece when the provider's text continues what was read, and starts over when not", () => {
  const args = new ToolCallArgumentsStream();
  args.append('{"a": 1');
  expect(args.replace('{"a": 1, "b": "x"}')).toEqual({ delta: ', "b": "x"}', arguments: { a: 1, b: "x" } });
  expect(args.replace('{"c": true}')).toEqual({ delta: undefined, arguments: { c: true } });
});

test("arguments cut off or not an object are reported with the text received; no text is a call without arguments", () => {
  expect(parseToolCallArguments('{"a": "half')).toEqual({ arguments: {}, argumentsError: 'Tool arguments are not a complete JSON object\n\nReceived arguments:\n{"a": "half' });
  expect(parseToolCallArguments("[1]").argumentsError).toContain("not a complete JSON object");
  expect(parseToolCallArguments("")).toEqual({ arguments: {} });
  expect(parseStreamingJson(undefined)).toEqual({});
  expect(parseStreamingJson('{"list": [1, 2')).toEqual({ list: [1] });
});

test("formatReadLineRange: :start, :start-end, or nothing for an absent or malformed range", () => {
  expect(formatReadLineRange(undefined, undefined)).toBe("");
  expect(formatReadLineRange(null, null)).toBe("");
  expect(formatReadLineRange(10, undefined)).toBe(":10");
  expect(formatReadLineRange(10, 5)).toBe(":10-14");
  expect(formatReadLineRange(undefined, 20)).toBe(":1-20");
  expect(formatReadLineRange("3", "2")).toBe(":3-4");
  expect(formatReadLineRange("x", 2)).toBe("");
  expect(formatReadLineRange(5, "many")).toBe("");
});
