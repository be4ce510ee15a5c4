import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compactCommand, summaryPreview } from "../../../src/modes/interactive/commands/compact.ts";
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
    expect(host.text).toContain("info: Compacted 120 tokens into a summary:");
    expect(host.text).toContain("## Goal");
    expect(host.text).toMatch(/more lines\)/);
    const store = host.session.store;
    expect(store.branchRecords().some((r) => r.type === "compaction")).toBe(true);
  });

  test("nothing to compact is a refusal, told as information, not an error", async () => {
    const host = makeHost();
    await guarded(compactCommand).run(host, "");
    expect(host.text).toBe("info: Nothing to compact yet: the session is still small.");
  });

  test("a long summary is cut to a few lines", () => {
    expect(summaryPreview("a\n\nb")).toBe("  a\n  b");
    expect(summaryPreview("1\n2\n3\n4\n5\n6")).toBe("  1\n  2\n  3\n  4\n  … (2 more lines)");
  });
});
