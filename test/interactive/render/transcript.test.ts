import { describe, expect, test } from "bun:test";
import { EventView } from "../../../src/modes/interactive/event-view.ts";
import { formatToolResult } from "../../../src/modes/interactive/render/tools.ts";
import { bashCommandLineRows, bashCommandRows, userRows, type TranscriptStyle } from "../../../src/modes/interactive/render/transcript.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";

const theme = loadTheme("dark", [], false).theme;
const style: TranscriptStyle = { theme, width: 40, showThinking: true, codeBlockIndent: "  ", hyperlinks: false };

describe("what people and programs wrote, as written", () => {
  test("a user's indented lines keep their indent", () => {
    expect(userRows("def f():\n    if x:\n        return 1", style)).toEqual(["› def f():", "      if x:", "          return 1"]);
  });

  test("a ! command wraps at the width under itself, each of its lines on a row of its own", () => {
    expect(bashCommandLineRows("echo one two three four five six seven eight", false, theme, 20)).toEqual(["! echo one two three", "  four five six", "  seven eight"]);
    expect(bashCommandLineRows("for f in *; do\n  wc -l $f\ndone", true, theme, 40)).toEqual(["!! for f in *; do", "     wc -l $f", "   done"]);
    // The replay shows it the same way, above its output.
    const message = { role: "bashExecution", command: "echo one two three four five six", output: "one two three four five six\n", exitCode: 0, cancelled: false, truncated: false, timestamp: 1 } as never;
    expect(bashCommandRows(message, { ...style, width: 20 }, false).slice(0, 2)).toEqual(["! echo one two three", "  four five six"]);
  });

  test("attached files show by name, even one whose text holds </file>", () => {
    const sent = '<file name="notes.md">\nline one\n</file>\nline two\n</file>\n<file name="b.ts">\nx\n</file>\nsummarise them';
    expect(userRows(sent, style)).toEqual(["› [file notes.md]", "  [file b.ts]", "  summarise them"]);
  });

  test("an answer with CRLF line ends streams without breaking", () => {
    const printed: string[] = [];
    const view = new EventView({ print: (t) => printed.push(t), setStatus: () => {}, columns: () => 41 }, theme, { showThinking: true });
    const message = { role: "assistant", content: [], api: "x", provider: "p", model: "m", usage: {}, stopReason: "stop", timestamp: 1 } as never;
    view.handle({ type: "message_update", assistantMessageEvent: { type: "text_start", contentIndex: 0, partial: message } as never, message });
    view.handle({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Line one\r\nLine two\r\n", partial: message } as never, message });
    view.dispose();
    expect(printed.join("")).toBe("Line one\nLine two\n");
  });

  test("a failed command shows the end of its output, where the reason is", () => {
    const output = [...Array.from({ length: 20 }, (_, i) => `test ${i + 1} ok`), "FAIL test 21", "Command exited with code 1"].join("\n");
    const rows = formatToolResult({ name: "bash", args: {}, result: { content: [{ type: "text", text: output }] }, isError: true }, theme, { expanded: false, width: 60, number: 1 });
    expect(rows.slice(0, 2)).toEqual(["  ✗ bash failed", "  … 14 earlier lines · /expand 1"]);
    expect(rows.at(-1)).toBe("  │ Command exited with code 1");
  });

  test("a truncated command's notice stays under its last lines", () => {
    const output = `${Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join("\n")}\n\n[Showing lines 71-100 of 100. Full output: /tmp/out.log]`;
    const rows = formatToolResult({ name: "bash", args: {}, result: { content: [{ type: "text", text: output }] }, isError: false }, theme, { expanded: false, width: 80, number: 2 });
    expect(rows).toEqual(["  … 22 earlier lines · /expand 2", ...Array.from({ length: 8 }, (_, i) => `  │ row ${i + 23}`), "  │ [Showing lines 71-100 of 100. Full output: /tmp/out.log]"]);
  });
});
