/**
 * Interactive pig in a real terminal (tmux) against the fake server: what a person sees while
 * typing, streaming, queueing and stopping, and what ends up in the session file.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { declaredPrompt, interactivePig, sessionMessages } from "../helpers/interactive-pig.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { rowsHolding, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start, open, track } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "interactive", () => {
  test("a prompt streams the answer and shows tool calls with a preview", async () => {
    const { tmux, world } = await start([
      { text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "printf 'one\\ntwo\\n'" } }] },
      { text: "## Done\n\nThe file has **two** lines." },
    ]);
    tmux.type("count the lines");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor("two lines");
    expect(screen).toContain("› count the lines");
    expect(screen).toContain("● bash");
    expect(screen).toMatch(/│ one/);
    expect(screen).toContain("## Done");
    await tmux.waitFor(/↑\d/);
    expect(sessionMessages(world).map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(Object.keys(declaredPrompt(world).sections as object)).toEqual(["preamble", "tools", "rules", "docs", "cwd"]);
  });

  test("a line of the answer shows while it is being written, then is printed once complete", async () => {
    const sentence = "The quick brown fox jumps over the lazy dog while the answer keeps streaming in slowly";
    const { tmux } = await start([{ text: `${sentence}\n\nDone.`, chunkSize: 6, chunkDelayMs: 120 }]);
    tmux.type("go");
    tmux.sendKeys("Enter");
    // Half-way through the first line (no newline yet), its start is already on screen.
    const partial = await tmux.waitFor("The quick brown fox");
    expect(partial).not.toContain("streaming in slowly");
    const done = await tmux.waitFor(/Done\.[\s\S]*↑\d/);
    // Printed once, complete: the live copy is gone.
    expect(done.split("The quick brown fox").length - 1).toBe(1);
    expect(done).toContain(sentence);
  });

  test("Enter while running steers; Escape stops and puts queued text back in the editor", async () => {
    const { tmux, world } = await start([{ text: "working on it slowly", chunkSize: 2, stallAfterChunks: 3 }]);
    tmux.type("first");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Esc to stop");
    tmux.type("steer this");
    tmux.sendKeys("Enter");
    tmux.type("draft");
    await tmux.waitFor("1 queued");
    tmux.sendKeys("Escape");
    await tmux.waitFor("(aborted)");
    // The aborted answer is in the file once it is shown.
    expect(sessionMessages(world).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    // One line each, no blank line between the restored text and the draft.
    const screen = await tmux.waitFor(/› steer this\n {2}draft\b/);
    expect(screen).not.toContain("1 queued");
    expect(screen).not.toContain("Esc to stop");
  });

  test("while a tool runs, Enter steers the next turn and Alt+Enter follows up after the answer", async () => {
    // The tool runs until the test has queued both messages.
    const { tmux, world } = await start([
      { toolCalls: [{ name: "bash", arguments: { command: "while [ ! -e go ]; do sleep 0.05; done; echo slept" } }] },
      { text: "answer to the steer" },
      { text: "answer to the follow-up" },
    ]);
    tmux.type("start working");
    tmux.sendKeys("Enter");
    await tmux.waitFor("● bash");
    tmux.type("steer now");
    tmux.sendKeys("Enter");
    tmux.type("follow later");
    tmux.sendKeys("M-Enter");
    await tmux.waitFor("2 queued");
    writeFileSync(join(world.cwd, "go"), "");
    await tmux.waitFor("answer to the follow-up");
    await tmux.waitFor(/↑\d/);
    const texts = sessionMessages(world).map((m) => {
      const content = m.content as { type: string; text?: string }[] | string;
      const text = typeof content === "string" ? content : content.map((c) => c.text ?? `[${c.type}]`).join("");
      return `${m.role}: ${text.trim()}`;
    });
    expect(texts).toEqual([
      "user: start working",
      "assistant: [toolCall]",
      "toolResult: slept",
      "user: steer now",
      "assistant: answer to the steer",
      "user: follow later",
      "assistant: answer to the follow-up",
    ]);
    // The steer went out with the tool result; the follow-up only after the steer was answered.
    const bodies = world.llm.requests.map((r) => JSON.stringify(r.body));
    expect(bodies[1]).toContain("steer now");
    expect(bodies[1]).not.toContain("follow later");
    expect(bodies[2]).toContain("follow later");
  });

  test("!cmd runs a shell command and adds it to the context; !! keeps it out", async () => {
    const { tmux, world } = await start(undefined);
    // A command has ended when its output is on screen and its spinner is gone.
    const ended = (output: string) => (s: string) => s.includes(`│ ${output}`) && !s.includes("Esc to stop");
    tmux.type("!echo hello-shell");
    tmux.sendKeys("Enter");
    await tmux.waitFor(ended("hello-shell"));
    tmux.type("!!echo secret-shell");
    tmux.sendKeys("Enter");
    await tmux.waitFor(ended("secret-shell"));
    tmux.type("what ran?");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    const body = JSON.stringify(world.llm.requests[0]!.body);
    expect(body).toContain("hello-shell");
    expect(body).not.toContain("secret-shell");
    expect(sessionMessages(world).filter((m) => m.role === "bashExecution")).toHaveLength(2);
  });

  test("a long !cmd's echo wraps at the terminal's width, its rows under the command", async () => {
    const { tmux } = await start(undefined, { width: 40 });
    // Two spaces, as typed: the echo keeps them, and no row hangs under them as under a table's gap.
    const command = "echo the  echo of this command is longer than one row";
    tmux.type(`!${command}`);
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor((s) => s.includes("│ the echo of this command") && !s.includes("Esc to stop"));
    // Every row is one pig printed: none is a long line the terminal cut at its edge.
    tmux.expectNoRowCutByTheTerminal();
    // The echo's words are all there, over more than one row; the rows after the first stand
    // under the command, past its mark, as the user's own prompt's do.
    const echo = rowsHolding(screen, "! echo the", `! ${command}`);
    expect(echo.join(" ").replace(/\s+/g, " ")).toContain(`! ${command}`.replace(/\s+/g, " "));
    expect(echo.length).toBeGreaterThan(1);
    expect(echo[0]).toMatch(/^! \S.{0,37}$/);
    for (const row of echo.slice(1)) expect(row).toMatch(/^ {2}\S.{0,37}$/);
  });

  test("a ! command typed while another runs waits its turn; Escape stops the first and gives the rest back", async () => {
    const { tmux, world } = await start(undefined);
    const marker = join(world.cwd, "go");
    tmux.type(`!echo one-started; while [ ! -e ${marker} ]; do sleep 0.05; done; echo one-done`);
    tmux.sendKeys("Enter");
    await tmux.waitFor("│ one-started");
    tmux.type("!echo two-ran");
    tmux.sendKeys("Enter");
    await tmux.waitFor("queued until the running command ends: !echo two-ran");
    writeFileSync(marker, "");
    const screen = await tmux.waitFor((s) => s.includes("│ two-ran") && !s.includes("Esc to stop"));
    expect(screen.indexOf("│ one-done")).toBeGreaterThan(-1);
    expect(screen.indexOf("│ one-done")).toBeLessThan(screen.indexOf("│ two-ran"));
    // Escape while a command runs: it stops, and what was queued behind it is back in the editor.
    tmux.type("!sleep 30");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Esc to stop");
    tmux.type("!echo three");
    tmux.sendKeys("Enter");
    await tmux.waitFor("queued until the running command ends: !echo three");
    tmux.sendKeys("Escape");
    const back = await tmux.waitFor((s) => !s.includes("Esc to stop") && /› !echo three\s*$/.test(s));
    expect(back).not.toContain("│ three");
  });

  test("!cmd output appears while the command runs, not only when it ends", async () => {
    const { tmux, world } = await start(undefined);
    // The command goes on only once the test has seen its first line.
    const marker = join(world.cwd, "go");
    tmux.type(`!echo first-line; while [ ! -e ${marker} ]; do sleep 0.05; done; echo last-line`);
    tmux.sendKeys("Enter");
    const early = await tmux.waitFor(/│ first-line/);
    expect(early).not.toMatch(/│ last-line/);
    writeFileSync(marker, "");
    await tmux.waitFor(/│ last-line/);
    // The file is written with the first answer.
    tmux.type("and now?");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    // The status line can be drawn a moment before the file is written: wait for the file.
    const bashEntries = () => {
      try {
        return sessionMessages(world).filter((m) => m.role === "bashExecution");
      } catch {
        return []; // Not written yet.
      }
    };
    const deadline = Date.now() + 20_000;
    while (bashEntries().length === 0 && Date.now() < deadline) await Bun.sleep(25);
    expect(bashEntries()).toEqual([expect.objectContaining({ output: "first-line\nlast-line\n", exitCode: 0 })]);
  });

  test("quietStartup hides the report but still shows what is wrong with the resources", async () => {
    const { tmux } = await start(undefined, { agentFiles: { "skills/broken/SKILL.md": "---\nname: broken\n---\nNo description above." } });
    const screen = await tmux.waitFor("description is missing");
    expect(screen).toContain("warning:");
    expect(screen).not.toContain("cwd ");
  });

  test("Ctrl+C twice quits", async () => {
    const { tmux } = await start(undefined);
    // One send: the two presses must come within the double-press window.
    tmux.sendKeys("C-c", "C-c");
    await tmux.waitForExit();
  });

  test("keybindings.json: Ctrl+S sends, Enter starts a new line, a bad entry is named", async () => {
    const { tmux, world } = await start([{ text: "got both lines" }], {
      agentFiles: { "keybindings.json": JSON.stringify({ "tui.input.submit": "ctrl+s", "tui.input.newLine": "enter", "app.bogus": "ctrl+q" }) },
    });
    await tmux.waitFor('keybindings.json: unknown action "app.bogus"');
    tmux.type("line one");
    tmux.sendKeys("Enter");
    tmux.type("line two");
    tmux.sendKeys("C-s");
    // The answer, then its status line: the messages are in the file by then.
    await tmux.waitFor(/got both lines[\s\S]*↑\d/);
    expect(sessionMessages(world)[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "line one\nline two" }] });
    tmux.type("/hotkeys");
    tmux.sendKeys("C-s");
    await tmux.waitFor(/Ctrl\+S\s+send/);
  });

  test("--theme loads a theme file by its name; without it the missing theme is named", async () => {
    const files = { "ocean-theme.json": JSON.stringify({ name: "ocean", colors: { accent: "#0000ff" } }) };
    const missing = await start(undefined, { settings: { theme: "ocean" }, files });
    await missing.tmux.waitFor('Theme "ocean" not found; using the dark theme');
    const found = await start(undefined, { settings: { theme: "ocean" }, files, args: ["--theme", "ocean-theme.json"] });
    found.tmux.type("/hotkeys");
    found.tmux.sendKeys("Enter");
    const screen = await found.tmux.waitFor("choose a model");
    expect(screen).not.toContain("not found");
  });

  test("Ctrl+Z in a shell stops pig as a job; fg brings the prompt back and typing works", async () => {
    const world = await createWorld({ llm: { script: [{ text: "back again" }] } });
    track(world);
    const tmux = open(world, { command: ["bash", "--norc", "--noprofile", "-i"], env: { PS1: "shell$ " } });
    await tmux.waitFor("shell$");
    tmux.type(pigBinary());
    tmux.sendKeys("Enter");
    await tmux.waitFor("›");
    tmux.sendKeys("C-z");
    await tmux.waitFor(/Stopped.*pig/);
    tmux.type("fg");
    tmux.sendKeys("Enter");
    // pig has taken the terminal back once it has drawn its prompt again.
    await tmux.waitFor(/fg\n[^\n]*pig[\s\S]*\n›/);
    tmux.type("hello");
    tmux.sendKeys("Enter");
    await tmux.waitFor("back again");
  });

  test("Ctrl+Z without a job-control shell leaves the prompt working", async () => {
    const { tmux } = await start([{ text: "still here" }]);
    tmux.sendKeys("C-z");
    tmux.type("hi");
    tmux.sendKeys("Enter");
    await tmux.waitFor("still here");
  });

  test("/scoped-models: Tab selects, Enter applies, Ctrl+P then stays on the chosen model", async () => {
    const { tmux } = await start(undefined);
    tmux.type("/scoped-models");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Models to cycle with Ctrl+P");
    tmux.type("reasoner");
    await tmux.waitFor(/fake\/fake-reasoner/);
    tmux.sendKeys("Tab");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Save this as enabledModels");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Ctrl+P cycles through 1 model.");
    tmux.sendKeys("C-p");
    await tmux.waitFor("Only one model is available.");
  });

  test("NO_COLOR: no colour codes or attributes in the output; without it, colours and bold", async () => {
    const plain = await start([{ text: "plain **answer**" }], { env: { NO_COLOR: "1" } });
    plain.tmux.type("hi");
    plain.tmux.sendKeys("Enter");
    await plain.tmux.waitFor(/plain \*\*answer\*\*[\s\S]*of 128k/);
    // The pane as the terminal holds it, styles included: none at all.
    const styledPlain = plain.tmux.captureStyled();
    expect(styledPlain).toContain("plain **answer**");
    expect(styledPlain).not.toContain("\x1b[");
    const coloured = await start([{ text: "plain **answer**" }]);
    coloured.tmux.type("hi");
    coloured.tmux.sendKeys("Enter");
    await coloured.tmux.waitFor(/plain answer[\s\S]*of 128k/);
    const styled = coloured.tmux.captureStyled();
    expect(styled).toContain("\x1b[1manswer");
    expect(styled).toMatch(/\x1b\[38;[25];/);
  });
  test("output to a pipe is plain text: no escape sequences at all", async () => {
    const world = await createWorld({ llm: { script: [{ text: "plain **answer**" }] }, settings: { quietStartup: false } });
    track(world);
    // stdin stays the terminal, so this is the interactive mode; `cat -v` would show any ESC as ^[.
    const tmux = open(world, { command: ["sh", "-c", `"$0" | cat -v`, pigBinary()] });
    await tmux.waitFor("session ");
    // No prompt is drawn to a pipe and the terminal stays in line mode: the kernel keeps the
    // typed line until pig reads it, whenever that is.
    tmux.type("hi there");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor(/of 128k/);
    expect(screen).toContain("plain **answer**");
    expect(screen).not.toContain("^[");
    expect(sessionMessages(world).map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});
