import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compactCommand } from "../../../src/modes/interactive/commands/compact.ts";
import { summaryRows } from "../../../src/modes/interactive/render/transcript.ts";
import { stripAnsi } from "../../../src/util/width.ts";
import { loadTheme } from "../../../src/modes/interactive/theme.ts";
import { createCopyCommand } from "../../../src/modes/interactive/commands/copy.ts";
import { copyToClipboard, osc52Sequence, type ClipboardDeps } from "../../../src/util/clipboard.ts";
import { exportCommand } from "../../../src/modes/interactive/commands/export.ts";
import { guarded } from "../../../src/modes/interactive/commands/index.ts";
import { defaultExportName } from "../../../src/export/html.ts";
import { makeHost } from "./fake-host.ts";
import { tempDir } from "../../helpers/tmp.ts";

function clipboard(installed: Record<string, number>, runs: { argv: string[]; input: string }[] = []): ClipboardDeps {
  return {
    which: (command) => (command in installed ? `/bin/${command}` : null),
    async run(argv, input) {
      runs.push({ argv, input });
      return installed[argv[0]!.slice("/bin/".length)]!;
    },
  };
}

describe("/copy", () => {
  test("copies the last answer with the first tool found", async () => {
    const host = makeHost();
    host.runtime.replies.push("the answer");
    await host.session.prompt("q");
    const runs: { argv: string[]; input: string }[] = [];
    await createCopyCommand(clipboard({ xclip: 0, xsel: 0 }, runs)).run(host, "");
    expect(runs).toEqual([{ argv: ["/bin/xclip", "-selection", "clipboard"], input: "the answer" }]);
    expect(host.text).toContain("info: Copied");
  });

  test("a tool that fails passes to the next one", async () => {
    const runs: { argv: string[]; input: string }[] = [];
    const result = await copyToClipboard("x", clipboard({ "wl-copy": 1, xsel: 0 }, runs));
    expect(result).toEqual({ tool: "xsel", tried: ["wl-copy", "xsel"] });
    expect(runs.map((r) => r.argv)).toEqual([["/bin/wl-copy"], ["/bin/xsel", "--clipboard", "--input"]]);
  });

  test("no clipboard tool: a clear message", async () => {
    const host = makeHost();
    await host.session.prompt("q");
    await createCopyCommand(clipboard({})).run(host, "");
    expect(host.text).toContain("error: No clipboard tool found");
  });

  test("no clipboard tool but a terminal: the text goes through OSC 52, and the message says so", async () => {
    const host = makeHost();
    host.runtime.replies.push("héllo");
    await host.session.prompt("q");
    const written: string[] = [];
    const deps = { ...clipboard({}), terminal: { write: (s: string) => void written.push(s), env: {} } };
    await createCopyCommand(deps).run(host, "");
    expect(written).toEqual([`\x1b]52;c;${Buffer.from("héllo").toString("base64")}\x07`]);
    expect(host.text).toContain("info: Sent the last answer (5 characters) to the terminal's clipboard (OSC 52; terminals that do not support it ignore it).");
  });

  test("tools that fail fall back to OSC 52 too, naming them", async () => {
    const host = makeHost();
    await host.session.prompt("q");
    const written: string[] = [];
    const deps = { ...clipboard({ xclip: 1 }), terminal: { write: (s: string) => void written.push(s), env: {} } };
    await createCopyCommand(deps).run(host, "");
    expect(written).toHaveLength(1);
    expect(host.text).toContain("info: xclip failed; sent the last answer (2 characters) to the terminal's clipboard (OSC 52; terminals that do not support it ignore it).");
  });

  test("inside tmux the sequence is also sent wrapped for tmux's passthrough", () => {
    const plain = `\x1b]52;c;${Buffer.from("x").toString("base64")}\x07`;
    expect(osc52Sequence("x", {})).toBe(plain);
    expect(osc52Sequence("x", { TMUX: "/tmp/tmux-0/default,1,0" })).toBe(`${plain}\x1bPtmux;\x1b${plain}\x1b\\`);
  });

  test("nothing answered yet: nothing to copy", async () => {
    const host = makeHost();
    await createCopyCommand(clipboard({ pbcopy: 0 })).run(host, "");
    expect(host.text).toContain("warn: There is no answer to copy yet.");
  });
});

describe("/export", () => {
  test("writes the HTML page under the default name in the working directory", async () => {
    const host = makeHost();
    await host.session.prompt("export me");
    await exportCommand.run(host, "");
    const path = join(host.cwd, defaultExportName(host.session.store.path!));
    expect(host.text).toBe(`info: Exported to ${path}`);
    expect(readFileSync(path, "utf8")).toContain("export me");
  });

  test("a relative file name is taken from the working directory, an absolute one as is", async () => {
    const host = makeHost();
    await host.session.prompt("q");
    await exportCommand.run(host, "out.html");
    expect(readFileSync(join(host.cwd, "out.html"), "utf8")).toStartWith("<!DOCTYPE html>");
    const absolute = join(tempDir(), "abs.html");
    await exportCommand.run(host, absolute);
    expect(readFileSync(absolute, "utf8")).toStartWith("<!DOCTYPE html>");
  });

  test("refuses an in-memory session and one not written yet", async () => {
    const memory = makeHost({ inMemory: true });
    await memory.session.prompt("q");
    await exportCommand.run(memory, "");
    expect(memory.text).toContain("error: Cannot export: this session is kept in memory only");
    const fresh = makeHost();
    await exportCommand.run(fresh, "");
    expect(fresh.text).toContain("error: Nothing to export yet");
  });
});

describe("/compact", () => {
  test("summarises and shows the start of the summary", async () => {
    const host = makeHost();
    await host.session.prompt("one");
    await host.session.prompt("two");
    host.runtime.replies.push(["## Goal", "a", "b", "c", "d", "e"].join("\n"));
    await compactCommand.run(host, "focus on tests");
    const shown = stripAnsi(host.text);
    // The summary's own six lines, then the files read and changed that compaction appends.
    expect(shown).toMatch(/Compacted 120 tokens into a summary:\n  │ ## Goal\n  │ a\n  │ b\n  │ c\n  … \d+ more lines of the summary/);
    const store = host.session.store;
    expect(store.branchRecords().some((r) => r.type === "compaction")).toBe(true);
  });

  test("nothing to compact is a refusal, told as information, not an error", async () => {
    const host = makeHost();
    await guarded(compactCommand).run(host, "");
    expect(host.text).toBe("info: Nothing to compact yet: the session is still small.");
  });

  test("the summary is the model's Markdown rendered in a gutter: cut to its first rows, or whole", () => {
    // In colour, as a terminal shows it: the markers become styles.
    const style = { ...makeHost().transcriptStyle(), theme: loadTheme("dark", [], true).theme };
    const summary = "## Goal\n\nFix the **off-by-one** in `range()`.\n\n- [x] found it\n- tests\n\n1. run\n2. ship";
    const collapsed = summaryRows("Title:", summary, style, false).map(stripAnsi);
    expect(collapsed).toEqual(["Title:", "  │ ## Goal", "  │ Fix the off-by-one in range().", "  │ • [x] found it", "  │ • tests", "  … 2 more lines of the summary"]);
    const whole = summaryRows("Title:", summary, style, true).map(stripAnsi);
    expect(whole.slice(-2)).toEqual(["  │ 1. run", "  │ 2. ship"]);
  });

  test("a summary row too long for the width wraps inside the gutter", () => {
    const style = { ...makeHost().transcriptStyle(), width: 30 };
    const rows = summaryRows("Title:", "one two three four five six seven eight nine ten eleven", style, true).map(stripAnsi);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows.slice(1)) {
      expect(row.startsWith("  │ ")).toBe(true);
      expect(row.length).toBeLessThanOrEqual(30);
    }
  });
});
