import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { kindOf, loadScriptFile, parseScript, ScriptCursor } from "../helpers/fake-llm/script.ts";
import { startFakeLlm } from "../helpers/fake-llm/server.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("script validation", () => {
  test("accepts the bare array and the object form with defaults", () => {
    expect(parseScript([{ text: "a" }])).toEqual({ responses: [{ text: "a" }], fallback: { text: "ok" }, chunkSize: 8 });
    expect(parseScript({ responses: [], fallback: { text: "fb" }, chunkSize: 3 })).toEqual({
      responses: [],
      fallback: { text: "fb" },
      chunkSize: 3,
    });
  });

  test("errors name the offending field", () => {
    expect(() => parseScript({ responses: [{ text: "a" }, { toolCalls: [{ name: 5, arguments: {} }] }] })).toThrow(
      /responses\[1\]\.toolCalls\[0\]\.name: Invalid type/,
    );
    expect(() => parseScript([{ error: { status: "500", message: "x" } }])).toThrow(/\[0\]\.error\.status/);
    expect(() => parseScript({ responses: [], chunkSize: 0 })).toThrow(/chunkSize/);
    expect(() => parseScript([{ reasoningField: "thoughts" }])).toThrow(/\[0\]\.reasoningField/);
  });

  test("unknown (misspelt) fields are rejected, by name", () => {
    expect(() => parseScript([{ text: "a", finish_reason: "stop" }])).toThrow(/\[0\]\.finish_reason/);
    expect(() => parseScript({ responses: [], fallbak: {} })).toThrow(/fallbak/);
  });

  test("a bad script file fails when the server starts, naming file and field", async () => {
    const file = join(tempDir(), "bad.script.json");
    writeFileSync(file, JSON.stringify({ responses: [{ usage: { prompt_tokens: -1 } }] }));
    expect(() => loadScriptFile(file)).toThrow(/bad\.script\.json.*responses\[0\]\.usage\.prompt_tokens/);
    await expect(startFakeLlm({ script: file })).rejects.toThrow(/responses\[0\]\.usage\.prompt_tokens/);
    writeFileSync(file, "{ not json");
    expect(() => loadScriptFile(file)).toThrow(/Cannot read fake-LLM script/);
  });

  test("kind as the fixtures record it", () => {
    expect(kindOf({ text: "a" })).toBe("text");
    expect(kindOf({ thinking: "t" })).toBe("text");
    expect(kindOf({ text: "a", toolCalls: [{ name: "x", arguments: {} }] })).toBe("toolCalls");
    expect(kindOf({ error: { status: 429, message: "m" } })).toBe("error:429");
  });
});

describe("response selection", () => {
  const pick = (cursor: ScriptCursor, body: string) => {
    const { served } = cursor.next(body);
    return served.label ?? served.source;
  };

  test("in order, repeat n times, then the fallback", () => {
    const cursor = new ScriptCursor(
      parseScript({ responses: [{ label: "a", repeat: 2 }, { label: "b" }], fallback: { label: "fb" } }),
    );
    expect([pick(cursor, ""), pick(cursor, ""), pick(cursor, ""), pick(cursor, ""), pick(cursor, "")]).toEqual([
      "a",
      "a",
      "b",
      "fb",
      "fb",
    ]);
  });

  test("`when` entries win for matching requests, wherever they are, and are skipped otherwise", () => {
    const cursor = new ScriptCursor(
      parseScript([
        { label: "first" },
        { label: "summary-1", when: "summarize" },
        { label: "second" },
        { label: "summary-2", when: "summarize" },
        { label: "special", when: "SPECIAL", repeat: 2 },
      ]),
    );
    expect(pick(cursor, '{"x":"summarize this"}')).toBe("summary-1");
    expect(pick(cursor, "{}")).toBe("first");
    expect(pick(cursor, "{}")).toBe("second");
    // No plain response left: a non-matching request gets the fallback, not a `when` entry.
    expect(pick(cursor, "{}")).toBe("fallback");
    expect(pick(cursor, "SPECIAL summarize")).toBe("summary-2");
    expect(pick(cursor, "SPECIAL summarize")).toBe("special");
    expect(pick(cursor, "SPECIAL")).toBe("special");
    expect(pick(cursor, "SPECIAL summarize")).toBe("fallback");
  });

  test("a matching `when` entry is preferred even to an earlier plain entry", () => {
    const cursor = new ScriptCursor(parseScript([{ label: "plain" }, { label: "side", when: "side request" }]));
    expect(cursor.next("a side request").served).toEqual({ source: "script[1]", kind: "text", label: "side" });
    expect(cursor.next("a side request").served).toEqual({ source: "script[0]", kind: "text", label: "plain" });
  });

  test("a `when` list matches a request containing any of its texts (scripts written for two prompt wordings)", () => {
    const cursor = new ScriptCursor(parseScript([{ label: "plain" }, { label: "either", when: ["old wording", "new wording"], repeat: 2 }]));
    expect(cursor.next("the new wording").served.label).toBe("either");
    expect(cursor.next("the old wording").served.label).toBe("either");
    expect(cursor.next("old wording again").served.label).toBe("plain");
  });

  test("served carries label only when the response has one; chunk size per response or per script", () => {
    const cursor = new ScriptCursor(parseScript({ responses: [{ text: "a" }, { text: "b", chunkSize: 2 }], chunkSize: 5 }));
    const first = cursor.next("");
    expect(first.served).toEqual({ source: "script[0]", kind: "text" });
    expect("label" in first.served).toBe(false);
    expect(first.chunkSize).toBe(5);
    expect(cursor.next("").chunkSize).toBe(2);
    expect(cursor.next("").served).toEqual({ source: "fallback", kind: "text" });
  });
});
