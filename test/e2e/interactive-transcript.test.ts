/**
 * What the conversation looks like in a real terminal (tmux): a session opened again shows its
 * conversation, tool output streams while it runs and collapses to what matters, text wraps
 * at words, edits show their hunks.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { assistant, HEADER, iso, msg, user } from "../helpers/sessions.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { start, open, track } = interactivePig();

/** Sends `text` and waits until `wait` shows. */
async function send(tmux: TmuxSession, text: string, wait: string | RegExp) {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(wait);
}

describeNeeding("tmux", tmuxAvailable(), "the conversation on screen", () => {
  test("pig -c, /resume and /clone print the conversation as it looked, then a separator", async () => {
    const world = track(
      await createWorld({
        llm: {
          script: {
            responses: [
              { text: "Checking the files.", toolCalls: [{ name: "bash", arguments: { command: "printf 'alpha\\nbeta\\n'" } }] },
              { text: "Both files are **fine**.\n\n- first point\n- second point" },
            ],
          } as unknown as Script,
        },
      }),
    );
    expect((await world.run(["-p", "look at the files"])).code).toBe(0);
    const tmux = open(world, { args: ["-c"] });
    const screen = await tmux.waitFor("end of the saved conversation");
    // The user's words, the answer, the tool call with its output, the answer's bullets.
    expect(screen).toMatch(/› look at the files\n/);
    expect(screen).toContain("Checking the files.");
    expect(screen).toMatch(/● bash {2}printf 'alpha\\nbeta\\n'\n\s+│ alpha\n\s+│ beta\n/);
    expect(screen).toMatch(/Both files are fine\.\n\n?• first point\n• second point\n/);
    // The separator comes after the conversation and before the prompt.
    expect(screen.indexOf("second point")).toBeLessThan(screen.indexOf("end of the saved conversation"));
    await send(tmux, "/new", "New session started.");
    await send(tmux, "/resume", "Resume a session");
    tmux.sendKeys("Enter");
    const resumed = await tmux.waitFor((s) => s.split("end of the saved conversation").length === 3);
    expect(resumed.slice(resumed.lastIndexOf("New session started."))).toContain("Both files are fine.");
    await send(tmux, "/clone", "Cloned the current branch into a new session.");
    const cloned = tmux.capture();
    const afterResume = cloned.slice(cloned.lastIndexOf("Both files are fine.") - 200);
    expect(afterResume).toContain("end of the saved conversation");
  });

  test("a long session replays its last screens under one line saying how much is above", async () => {
    const world = track(await createWorld({ llm: { mode: "text" }, settings: { replayScreens: 1 } }));
    const lines: object[] = [{ ...HEADER, cwd: world.cwd }];
    let parent: string | null = null;
    for (let i = 1; i <= 200; i++) {
      const u = msg(`u${i}`, parent, user(`question number ${i}`));
      const a = msg(`a${i}`, `u${i}`, assistant(`answer number ${i}`));
      lines.push(u, a);
      parent = `a${i}`;
    }
    const file = join(world.cwd, "long.jsonl");
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const tmux = open(world, { args: ["--session", file] });
    const screen = await tmux.waitFor("end of the saved conversation");
    expect(screen).toContain("answer number 200");
    const above = /… (\d+) earlier messages not shown/.exec(tmux.capture());
    // Whatever fits one screen is shown; the count says exactly how many messages are above it.
    expect(above).not.toBeNull();
    const shown = (screen.match(/^› question number \d+$/gm) ?? []).length + (screen.match(/^answer number \d+$/gm) ?? []).length;
    expect(Number(above![1]) + shown).toBe(400);
  });

  test("a resumed session shows its compaction, branch summary and displayed custom messages; hidden ones stay hidden", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const entries: object[] = [
      { ...HEADER, cwd: world.cwd },
      msg("u1", null, user("old question")),
      msg("a1", "u1", assistant("old answer")),
      { type: "compaction", id: "c1", parentId: "a1", timestamp: iso(), summary: "## Goal\nThe user asked an old question.", firstKeptEntryId: "a1", tokensBefore: 5000 },
      { type: "branch_summary", id: "b1", parentId: "c1", timestamp: iso(), fromId: "c1", summary: "Tried another way; it did not work." },
      { type: "custom_message", id: "m1", parentId: "b1", timestamp: iso(), customType: "notes", content: "A note the extension showed.", display: true },
      { type: "custom_message", id: "m2", parentId: "m1", timestamp: iso(), customType: "secret", content: "Only for the model.", display: false },
      msg("u2", "m2", user("new question")),
      msg("a2", "u2", assistant("new answer")),
    ];
    const file = join(world.cwd, "rich.jsonl");
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const tmux = open(world, { args: ["--session", file] });
    const screen = await tmux.waitFor("end of the saved conversation");
    expect(screen).toMatch(/› old question\nold answer\nCompacted 5000 tokens into a summary:\n\s+│ ## Goal\n\s+│ The user asked an old question\.\n/);
    expect(screen).toMatch(/Summary of the branch left behind:\n\s+│ Tried another way; it did not work\.\n/);
    expect(screen).toContain("[notes] A note the extension showed.");
    expect(screen).not.toContain("Only for the model.");
    expect(screen).toMatch(/› new question\nnew answer\n─+ end of the saved conversation/);
  });

  test("read keeps the start; Ctrl+O shows the last result whole, /expand N any one, and /expand toggles them all", async () => {
    const script = {
      responses: [
        { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "seq 1 20" } }] },
        { text: "Read and counted." },
      ],
    } as unknown as Script;
    const { tmux, world } = await start(script);
    writeFileSync(join(world.cwd, "notes.txt"), `${Array.from({ length: 20 }, (_, i) => `note ${i + 1}`).join("\n")}\n`);
    const screen = await send(tmux, "read and count", "Read and counted.");
    // read: the first lines, then how many more; bash: how many before, then the last lines.
    expect(screen).toMatch(/│ note 1\n[\s\S]*│ note 8\n\s+… 12 more lines · \/expand 1\n/);
    expect(screen).toMatch(/● bash {2}seq 1 20\n\s+… 12 earlier lines · \/expand 2\n\s+│ 13\n/);
    tmux.sendKeys("C-o");
    const last = await tmux.waitFor(/Result 2 in full:\n● bash {2}seq 1 20\n(\s+│ \d+\n){20}/);
    expect(last).toContain("│ 1\n");
    await send(tmux, "/expand 1", "Result 1 in full:");
    const first = await tmux.waitFor(/Result 1 in full:\n● read {2}notes\.txt\n(\s+│ note \d+\n){20}/);
    expect(first).toContain("│ note 20");
    // Every block whole: the conversation is printed again that way.
    tmux.type("/expand");
    tmux.sendKeys("Enter");
    const all = await tmux.waitFor(/● bash {2}seq 1 20\n(\s+│ \d+\n){20}Read and counted\.\n─+ end of the saved conversation/);
    expect(all.slice(all.lastIndexOf("● bash"))).not.toContain("earlier lines");
    // Alt+O toggles back: collapsed again, the hints numbered as before.
    tmux.sendKeys("M-o");
    const collapsed = await tmux.waitFor(/Tool results are collapsed[\s\S]*● bash {2}seq 1 20\n\s+… 12 earlier lines · \/expand 2\n[\s\S]*end of the saved conversation/);
    expect(collapsed).toContain("… 12 more lines · /expand 1");
  });

  test("bash output streams above the prompt while it runs; the collapsed result keeps its last lines", async () => {
    const script = {
      responses: [
        {
          toolCalls: [
            {
              name: "bash",
              arguments: { command: "for i in $(seq 1 12); do echo step $i; done; while [ ! -e go ]; do sleep 0.05; done; echo done at the end" },
            },
          ],
        },
        { text: "Finished." },
      ],
    } as unknown as Script;
    const { tmux, world } = await start(script);
    tmux.type("run it");
    tmux.sendKeys("Enter");
    // The output shows while the command still runs (it waits for a file), bounded to its last lines.
    const live = await tmux.waitFor("step 12");
    expect(live).toMatch(/… \d+ earlier lines\n(\s+┊ step \d+\n)+/);
    expect(live).not.toContain("step 1\n");
    writeFileSync(join(world.cwd, "go"), "");
    const done = await tmux.waitFor("Finished.");
    // Collapsed to its tail, with a true hint to see the rest.
    expect(done).toMatch(/… 5 earlier lines · \/expand 1\n/);
    expect(done).toMatch(/│ step 12\n\s+│ done at the end\n/);
    expect(done).not.toMatch(/│ step 1\n/);
    await send(tmux, "/expand 1", "Result 1 in full:");
    const full = await tmux.waitFor(/│ step 1\n/);
    expect(full.slice(full.indexOf("Result 1 in full:"))).toMatch(/● bash[^\n]*\n(\s+│ step \d+\n){12}\s+│ done at the end\n/);
  });
});

const WORDS = Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(" ");

/** The rows between two markers of a screen. */
function between(screen: string, from: string, to: string): string[] {
  const start = screen.indexOf(from);
  const end = screen.indexOf(to, start);
  return screen.slice(start, end).split("\n");
}

describeNeeding("tmux", tmuxAvailable(), "text that fits the terminal", () => {
  test("answers wrap at words to the width, and to the new width after a resize; bullets hang, code stays in its gutter, tables align", async () => {
    const answer = [
      `Start ${WORDS} end.`,
      `- bullet ${WORDS.slice(0, 200)} tail`,
      "```js",
      `const value = ${"x".repeat(130)};`,
      "```",
      "| Name | Size |",
      "|------|-----:|",
      "| a.ts | 12 |",
      "| longer-name.ts | 1234 |",
      "",
      "See [the docs](https://example.com/docs) for more.",
      "Over.",
    ].join("\n");
    const { tmux } = await start({ responses: [{ text: answer }, { text: `After ${WORDS} resize.` }] } as unknown as Script);
    const screen = await send(tmux, "show me", "Over.");
    const paragraph = between(screen, "Start", "end.");
    // Every break is at a space: the rows joined by spaces are the text again, and none is too wide.
    expect(`${paragraph.join(" ")} end.`.replace(/\s+/g, " ")).toBe(`Start ${WORDS} end.`);
    expect(paragraph.length).toBeGreaterThan(3);
    for (const row of screen.split("\n")) expect(row.length).toBeLessThanOrEqual(100);
    // The bullet's continuation rows hang under its text.
    const bullet = between(screen, "• bullet", "tail");
    expect(bullet.length).toBeGreaterThan(1);
    for (const row of bullet.slice(1)) expect(row).toMatch(/^ {2}\S/);
    // A long code line continues inside the gutter.
    const code = between(screen, "┌─ js", "└─").slice(1, -1);
    expect(code.length).toBe(2);
    for (const row of code) expect(row).toMatch(/^│ /);
    // The table's columns line up; the link shows its text and its address.
    expect(screen).toMatch(/│ Name {11}│ Size │\n├─+┼─+┤\n│ a\.ts {11}│ {3}12 │\n│ longer-name\.ts │ 1234 │/);
    expect(screen).toContain("See the docs (https://example.com/docs) for more.");
    // Narrower: what is printed from now on fits the new width.
    tmux.resize(50, 30);
    await tmux.waitFor((s) => s.split("\n").every((row) => row.length <= 50));
    // The whole answer, not only its last rows as the live view shows them while it streams.
    const after = await send(tmux, "again", /After[\s\S]*resize\./);
    const rows = between(after, "After", "resize.");
    expect(`${rows.join(" ")} resize.`.replace(/\s+/g, " ")).toBe(`After ${WORDS} resize.`);
    for (const row of rows) expect(row.length).toBeLessThan(50);
  });

  test("the editor wraps what is typed at words", async () => {
    const { tmux } = await start(undefined);
    tmux.type(WORDS);
    const screen = await tmux.waitFor("word60");
    const rows = between(screen, "› word1", "word60").concat("word60");
    expect(rows.length).toBeGreaterThan(3);
    // The rows (without the prompt's marker and indent) joined by spaces are what was typed.
    expect(rows.map((r) => r.replace(/^› |^ {2}/, "").trim()).join(" ").replace(/word60 word60$/, "word60")).toBe(WORDS);
  });
});

describeNeeding("tmux", tmuxAvailable(), "what tools changed", () => {
  test("an edit shows its changed hunks, a new file its start, a replaced file its diff", async () => {
    const numbered = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n");
    const script = {
      responses: [
        {
          toolCalls: [
            { name: "edit", arguments: { path: "big.txt", edits: [{ oldText: "line 20\n", newText: "line twenty\n" }] } },
          ],
        },
        { toolCalls: [{ name: "write", arguments: { path: "fresh.txt", content: "first\nsecond\nthird\n" } }] },
        { toolCalls: [{ name: "write", arguments: { path: "small.txt", content: "one\nTWO\nthree\n" } }] },
        { text: "All done." },
      ],
    } as unknown as Script;
    const { tmux, world } = await start(script);
    writeFileSync(join(world.cwd, "big.txt"), `${numbered}\n`);
    writeFileSync(join(world.cwd, "small.txt"), "one\ntwo\nthree\n");
    const screen = await send(tmux, "change things", "All done.");
    // The edit: its count, the removed and added line with one line of context, not the file's start.
    const edit = between(screen, "● edit", "● write");
    expect(edit.join("\n")).toMatch(/│ \+1 −1\n\s+│ {2}19 line 19\n\s+│ -20 line 20\n\s+│ \+20 line twenty\n\s+│ {2}21 line 21/);
    expect(edit.join("\n")).not.toContain("line 16");
    // A new file: what it starts with.
    const created = between(screen, "● write  fresh.txt", "● write  small.txt").join("\n");
    expect(created).toMatch(/Successfully wrote to fresh\.txt\n\s+│ first\n\s+│ second\n\s+│ third/);
    // A replaced file: what changed in it.
    const replaced = between(screen, "● write  small.txt", "All done.").join("\n");
    expect(replaced).toMatch(/│ \+1 −1\n\s+│ {2}1 one\n\s+│ -2 two\n\s+│ \+2 TWO\n\s+│ {2}3 three/);
  });

  test("a large edit stays collapsed with a true count of what is hidden", async () => {
    const before = Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join("\n");
    const edits = Array.from({ length: 12 }, (_, i) => ({ oldText: `row ${i * 5 + 3}\n`, newText: `ROW ${i * 5 + 3}\n` }));
    const { tmux, world } = await start({ responses: [{ toolCalls: [{ name: "edit", arguments: { path: "many.txt", edits } }] }, { text: "Edited." }] } as unknown as Script);
    writeFileSync(join(world.cwd, "many.txt"), `${before}\n`);
    const screen = await send(tmux, "edit a lot", "Edited.");
    expect(screen).toContain("│ +12 −12");
    const hint = /… (\d+) changed lines · \/expand 1/.exec(screen);
    expect(hint).not.toBeNull();
    const shownChanges = (between(screen, "● edit", "Edited.").join("\n").match(/│ [-+]\s*\d+ (row|ROW) \d+/g) ?? []).length;
    expect(shownChanges + Number(hint![1])).toBe(24);
  });
});
