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
    tmux.type("what is @logo.bin");
    tmux.sendKeys("Enter");
    await tmux.waitFor("not attached: @logo.bin (not a text file (ELF executable, 1.0KB))");
  });
});
