import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { historyPath, parseHistory, PromptHistory } from "../../../src/modes/interactive/input/history.ts";
import { tempDir } from "../../helpers/tmp.ts";

describe("prompt history file", () => {
  test("entries persist across instances, one JSON string per line, multi-line text included", () => {
    const dir = tempDir();
    const first = PromptHistory.forAgentDir(dir);
    first.add("fix the bug");
    first.add("line one\nline two");
    expect(readFileSync(historyPath(dir), "utf8")).toBe('"fix the bug"\n"line one\\nline two"\n');
    expect(PromptHistory.forAgentDir(dir).entries()).toEqual(["fix the bug", "line one\nline two"]);
  });

  test("the agent directory is created on the first entry", () => {
    const dir = join(tempDir(), "not", "yet");
    PromptHistory.forAgentDir(dir).add("hello");
    expect(PromptHistory.forAgentDir(dir).entries()).toEqual(["hello"]);
  });

  test("blank entries and repeats of the last entry are not recorded", () => {
    const dir = tempDir();
    const history = PromptHistory.forAgentDir(dir);
    history.add("same");
    history.add("same");
    history.add("   ");
    history.add("other");
    history.add("same");
    expect(readFileSync(historyPath(dir), "utf8").trim().split("\n")).toEqual(['"same"', '"other"', '"same"']);
  });

  test("a torn last line is skipped and the next entry starts on a fresh line", () => {
    const dir = tempDir();
    writeFileSync(historyPath(dir), '"complete"\n"torn by a cra');
    const history = PromptHistory.forAgentDir(dir);
    expect(history.entries()).toEqual(["complete"]);
    history.add("after the crash");
    expect(PromptHistory.forAgentDir(dir).entries()).toEqual(["complete", "after the crash"]);
  });

  test("entries appended by another session are seen by the next start", () => {
    const dir = tempDir();
    PromptHistory.forAgentDir(dir).add("mine");
    appendFileSync(historyPath(dir), '"theirs"\n');
    expect(PromptHistory.forAgentDir(dir).entries()).toEqual(["mine", "theirs"]);
  });

  test("a missing or unreadable file is an empty history", () => {
    expect(new PromptHistory(join(tempDir(), "absent.jsonl")).entries()).toEqual([]);
    expect(new PromptHistory(tempDir()).entries()).toEqual([]);
  });
});

describe("parsing history", () => {
  test("only the newest entries up to the cap are kept", () => {
    const text = Array.from({ length: 1500 }, (_, i) => JSON.stringify(`entry ${i}`)).join("\n");
    const entries = parseHistory(text, 1000);
    expect(entries.length).toBe(1000);
    expect(entries[0]).toBe("entry 500");
    expect(entries[999]).toBe("entry 1499");
  });

  test("non-strings, blank lines and consecutive duplicates are dropped", () => {
    expect(parseHistory('"a"\n\n42\n{"x":1}\n"a"\n"b"\nnot json\n"b"\n"a"\n')).toEqual(["a", "b", "a"]);
  });
});
