/**
 * What the terminal shows of files and of pig's own lines, at 100 and at 40 columns: a binary
 * file described instead of dumped, wrapped rows that keep their gutters and break at words, and
 * a message with an @-mention shown as it was typed.
 */
import { expect, test } from "bun:test";
import { interactivePig } from "../helpers/interactive-pig.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start, track } = interactivePig();

/** The rows of `screen` from the one containing `from` up to (not including) the one containing `to`. */
function rowsBetween(screen: string, from: string, to: string): string[] {
  const rows = screen.split("\n");
  const start = rows.findIndex((r) => r.includes(from));
  const end = rows.findIndex((r, i) => i > start && r.includes(to));
  return rows.slice(start, end);
}

/** The rows of a printed line: its first row (found by `label`) and the rows indented under it. */
function hangingRows(screen: string, label: string, indent: number): string[] {
  const rows = screen.split("\n");
  const start = rows.findIndex((r) => r.startsWith(label));
  if (start < 0) throw new Error(`no row starts with ${label}:\n${screen}`);
  const out = [rows[start]!];
  for (const row of rows.slice(start + 1)) {
    if (!row.startsWith(" ".repeat(indent)) || row.trim() === "") break;
    out.push(row);
  }
  return out;
}

/** A path's rows break after a "/" (or, inside a file name wider than a row, a "-" or "_") and put the path back together. */
function expectPathRows(rows: string[], indent: number): void {
  for (const row of rows.slice(0, -1)) expect(row).toMatch(/[/_-]$/);
  expect(rows.map((r) => r.slice(indent)).join("")).toMatch(/^(new )?\/[^ ]+\.jsonl$/);
}

const BUGGY = "export function last(items: string[]) {\n  return items[items.length - 1 - 1]; // BUG: skips the last item of every list it is given\n}\n";

/**
 * A small ELF program as the repository's "logo.bin" might be: its header, NULs, bytes that are
 * not UTF-8, line breaks and an escape sequence that a dump would send to the terminal.
 */
const ELF = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
  Buffer.from("\n\x1b[31mRED\x1b[0m\n\xff\xfe garbage line\n", "latin1"),
  Buffer.alloc(1000, 0x90),
]);

describeNeeding("tmux", tmuxAvailable(), "the terminal's text: files and pig's own lines", () => {
  for (const width of [100, 40]) {
    test(`a wrapped diff line continues past its sign and line number, not as another changed line (${width} columns)`, async () => {
      const oldText = "  return items[items.length - 1 - 1]; // BUG: skips the last item of every list it is given";
      const newText = "  return items[items.length - 1]; // fixed: the last item of every list it is given is returned again";
      const script = { responses: [{ toolCalls: [{ name: "edit", arguments: { path: "last.ts", edits: [{ oldText, newText }] } }] }, { text: "Fixed." }] };
      const { tmux } = await start(script as unknown as Script, { width, files: { "last.ts": BUGGY } });
      tmux.type("fix the bug");
      tmux.sendKeys("Enter");
      const screen = await tmux.waitFor(/Fixed\.\n/);
      const [summary, ...block] = rowsBetween(screen, "● edit", "Fixed.").slice(1);
      expect(summary).toBe("  │ +1 −1");
      // Each diff line's first row shows the sign and number; the rest of it hangs past them (and the code's indent).
      const heads = block.filter((r) => /^ {2}│ [-+ ]\d+ /.test(r));
      expect(heads.map((r) => r.slice(4, 7))).toEqual([" 1 ", "-2 ", "+2 ", " 3 "]);
      for (const row of block) expect(row).toMatch(/^ {2}│ ([-+ ]\d+ | {3,}\S)/);
      expect(block.filter((r) => /^ {2}│ {3,}\S/.test(r)).length).toBeGreaterThan(0);
      expect(block.some((r) => r.startsWith("  │ -2   return items"))).toBe(true);
      // Words are whole: the continuation rows put the line back together with spaces.
      const removed = block.slice(block.findIndex((r) => r.startsWith("  │ -2 ")), block.findIndex((r) => r.startsWith("  │ +2 ")));
      expect(removed.map((r) => r.slice(7)).join(" ").replace(/\s+/g, " ")).toBe(oldText.replace(/\s+/g, " "));
    });

    test(`pig's own lines wrap at words, a path at "/", and hang under their value column (${width} columns)`, async () => {
      const { tmux } = await start(undefined, { width, settings: { quietStartup: false } });
      // The header at start: its session path hangs under the value and breaks at a "/".
      const header = await tmux.waitFor(/session {2,}new [\s\S]*\.jsonl/);
      tmux.expectNoRowCutByTheTerminal();
      expectPathRows(hangingRows(header, "session ", 11), 11);
      tmux.type("hello");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/↑\d/);
      for (const command of ["/copy", "/export", "/session"]) {
        tmux.type(command);
        tmux.sendKeys("Enter");
      }
      const stats = await tmux.waitFor(/Model: +fake\/fake-model/);
      tmux.expectNoRowCutByTheTerminal();
      expect(stats).toMatch(/Exported to\s+\//);
      // The session file: its rows end at a "/", and hang under the value.
      const file = hangingRows(stats, "File:", 12);
      expect(file.length).toBeGreaterThan(width === 100 ? 0 : 1);
      expectPathRows(file, 12);
      // The status line after an answer breaks between its parts, not inside the model's name.
      expect(stats).toMatch(/\n↑[^\n]*\n?[^\n]*fake\/fake-model\n/);
      expect(stats).not.toContain("fake/fa\n");
      tmux.type("/hotkeys");
      tmux.sendKeys("Enter");
      const keys = await tmux.waitFor(/\/\/text[\s\S]*is sent\)\n/);
      tmux.expectNoRowCutByTheTerminal();
      // A key's description hangs under the descriptions, in whole words.
      const altUp = hangingRows(keys, "Alt+Up ", 22).map((r) => r.slice(22).trim());
      expect(altUp.join(" ")).toBe("pull queued messages back into the editor");
      expect(altUp.length).toBe(width === 100 ? 1 : 3);
      // Notices of the conversation and of the prompt too.
      tmux.type("/name the long name of this session about the off-by-one in last.ts and its tests");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/Session name: the long/);
      tmux.type("look at @missing/folder/with/a/long/path/to/a/file/that/is/not/there.ts please");
      tmux.sendKeys("Enter");
      const notices = await tmux.waitFor(/not attached: @missing[\s\S]*↑\d/);
      tmux.expectNoRowCutByTheTerminal();
      expect(notices.replace(/\n/g, " ")).toContain("Session name: the long name of this session about the off-by-one in last.ts and its tests");
    });

    test(`read of a binary file describes it, to the model and on the screen, instead of dumping it (${width} columns)`, async () => {
      const script = { responses: [{ toolCalls: [{ name: "read", arguments: { path: "logo.bin" } }] }, { text: "It is a program." }] } as unknown as Script;
      const { tmux, world } = await start(script, { width, files: { "logo.bin": ELF } });
      tmux.type("what is logo.bin?");
      tmux.sendKeys("Enter");
      const screen = await tmux.waitFor("It is a program.");
      const result = screen.slice(screen.indexOf("● read"), screen.indexOf("It is a program."));
      expect(result.replace(/\n\s+│ /g, " ")).toContain("[Binary file (ELF executable, 1.0KB): not shown");
      expect(result).not.toContain("garbage");
      expect(result).not.toContain("RED");
      // Every row of the block stays under its gutter.
      for (const row of result.split("\n").slice(1).filter((r) => r.trim())) expect(row).toMatch(/^ {2}│ /);
      const sent = JSON.stringify(world.llm.requests.at(-1)!.body);
      expect(sent).toContain("[Binary file (ELF executable, 1.0KB): not shown");
      expect(sent).not.toContain("garbage");
    });

    test(`/fork lists and brings back a message with an @-mention as it was typed (${width} columns)`, async () => {
      const { tmux } = await start(undefined, { width, files: { "notes.txt": "first note\nsecond note\n" } });
      tmux.type("look at @notes.txt please");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/attached: notes\.txt[\s\S]*↑\d/);
      tmux.type("/fork");
      tmux.sendKeys("Enter");
      const picker = await tmux.waitFor("Fork from which message?");
      expect(picker).toMatch(/●  ?look at @notes\.txt please/);
      expect(picker).not.toContain("<file");
      tmux.sendKeys("Enter");
      const forked = await tmux.waitFor("Forked into a new session.");
      expect(forked).toMatch(/› look at @notes\.txt please/);
      expect(forked).not.toContain("<file");
    });
  }

  test("pig -p @logo.bin refuses a file that is not text, as @logo.bin in the prompt does", async () => {
    const world = track(await createWorld({ files: { "logo.bin": ELF, "notes.txt": "a note\n" } }));
    const refused = await world.run(["-p", "@logo.bin", "what is it?"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("@logo.bin: not a text file (ELF executable, 1.0KB)");
    expect(world.llm.requests).toHaveLength(0);
    const { tmux } = await start(undefined, { files: { "logo.bin": ELF } });
    tmux.type("what is @logo.bin please");
    tmux.sendKeys("Enter");
    await tmux.waitFor("not attached: @logo.bin (not a text file (ELF executable, 1.0KB))");
  });
});
