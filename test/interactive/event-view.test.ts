import { describe, expect, test } from "bun:test";
import { EventView } from "../../src/modes/interactive/event-view.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";
import type { BashExecutionMessage } from "../../src/session/format.ts";

function view() {
  const printed: string[] = [];
  const status: string[][] = [];
  const v = new EventView({ print: (t) => printed.push(t), setStatus: (l) => status.push([...l]), columns: () => 40 }, loadTheme("dark", [], false).theme, { showThinking: true });
  return { v, text: () => printed.join(""), status };
}

const message = (output: string, exitCode = 0): BashExecutionMessage =>
  ({ role: "bashExecution", command: "x", output, exitCode, cancelled: false, truncated: false, timestamp: 1 }) as BashExecutionMessage;

describe("! output in the view", () => {
  test("lines show as they arrive, a partial line once complete or at the end", () => {
    const { v, text } = view();
    v.bashStarted();
    v.bashOutput("one\ntw");
    expect(text()).toBe("  │ one\n");
    v.bashOutput("o\nthree");
    v.bashFinished(message("one\ntwo\nthree"));
    expect(text()).toBe("  │ one\n  │ two\n  │ three\n");
    v.dispose();
  });

  test("a long output shows its first 200 lines live and its last 20 at the end", () => {
    const { v, text } = view();
    v.bashStarted();
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`);
    v.bashOutput(`${lines.join("\n")}\n`);
    v.bashFinished(message(`${lines.join("\n")}\n`, 2));
    const out = text();
    expect(out).toContain("│ line 200\n");
    expect(out).not.toContain("│ line 201\n");
    expect(out).toContain("… the last 20 lines:");
    expect(out).toContain("│ line 281\n");
    expect(out).toContain("│ line 300\n");
    expect(out).toContain("exit code 2");
    v.dispose();
  });

  test("a command that never started still stops the spinner", () => {
    const { v, status } = view();
    v.bashStarted();
    expect(status.at(-1)!.some((l) => l.includes("running"))).toBe(true);
    v.bashFinished(undefined);
    expect(status.at(-1)).toEqual([]);
    v.dispose();
  });
});
