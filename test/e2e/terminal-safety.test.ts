/**
 * Text from outside pig on the interactive screen: a model's tool-call arguments, a tool's
 * result, the answer and its thinking, and everything an extension shows (status, widget,
 * title, notice, dialogs, a command's description) carry the hostile corpus
 * (test/helpers/hostile-corpus.ts). The screen shows every control as a visible glyph, and the
 * raw bytes pig wrote hold none of them: nothing moved the cursor, set the title or the
 * clipboard. The permission gate's confirm shows the whole command a model hid with erase codes.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { expectHostileShown, expectNoHostileBytes, HOSTILE, hostileSession } from "../helpers/hostile-text.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { createWorld } from "../helpers/pig-env.ts";

const ROOT = join(import.meta.dir, "..", "..");
const HOSTILE_UI = join(import.meta.dir, "..", "fixtures", "extensions", "hostile", "hostile-ui.ts");
const PERMISSION_GATE = join(ROOT, "examples", "extensions", "permission-gate.ts");
/** Wide enough that the corpus, shown, fits on one row. */
const WIDTH = 250;

const { start, open, track } = interactivePig();

/** The run is over: the usage line is back under `text` and nothing says "Esc to stop". */
const idleAfter = (text: string) => (screen: string) => {
  const at = screen.lastIndexOf(text);
  return at >= 0 && /↑[\d.]+k?/.test(screen.slice(at)) && !screen.includes("Esc to stop");
};

/** Watches what pig writes from now on; the clipboard is on so an OSC 52 that got through would fill tmux's buffer. */
function watch(tmux: TmuxSession): () => string {
  tmux.setGlobalOption("set-clipboard", "on");
  return tmux.recordOutput();
}

function expectTerminalUntouched(tmux: TmuxSession, raw: string): void {
  expectNoHostileBytes(raw);
  expect(tmux.showBuffer()).toBeUndefined();
  // A title set by the corpus's OSC 0 would be "owned-title" alone.
  expect(tmux.paneTitle()).not.toBe("owned-title");
}

describeNeeding("tmux", tmuxAvailable(), "text from outside pig on the interactive screen", () => {
  test("a tool call's arguments, a tool's result, the answer and its thinking show every control and none acts", async () => {
    const script = {
      responses: [
        { thinking: `thought ${HOSTILE}`, toolCalls: [{ name: "bash", arguments: { command: `true # ${HOSTILE}` } }, { name: "read", arguments: { path: "hostile.txt" } }] },
        { text: `answer ${HOSTILE}` },
      ],
    } as unknown as Script;
    const { tmux } = await start(script, { width: WIDTH, files: { "hostile.txt": `file ${HOSTILE}\n` } });
    const raw = watch(tmux);
    tmux.type("go");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor(idleAfter("answer HOSTILE-START"));
    const row = (prefix: string) => screen.split("\n").find((line) => line.includes(prefix)) ?? `(no row with ${prefix})`;
    // The tool header (its summary is cut at 100 columns), the result, the thinking and the answer.
    expect(row("● bash")).toContain("true # HOSTILE-START ␛[2K ␛[1A ␛]0;owned-title␇");
    expectHostileShown(row("│ file HOSTILE-START"));
    expectHostileShown(row("thought HOSTILE-START"));
    expectHostileShown(row("answer HOSTILE-START"));
    expectTerminalUntouched(tmux, raw());
  });

  test("the permission gate's confirm shows the whole command a model hid behind erase codes and a carriage return", async () => {
    const spoof = "rm -rf DIR \x1b[2K\r\x1b[1A\x1b[2K\recho hello # harmless";
    const script = { responses: [{ toolCalls: [{ name: "bash", arguments: { command: spoof } }] }, { text: "declined then" }] } as unknown as Script;
    const { tmux, world } = await start(script, { width: WIDTH, args: ["-e", PERMISSION_GATE] });
    mkdirSync(join(world.cwd, "DIR"));
    const raw = watch(tmux);
    tmux.type("tidy up");
    tmux.sendKeys("Enter");
    const asked = await tmux.waitFor(/● Yes \/ ○ No/);
    expect(asked).toContain("rm -rf DIR ␛[2K␍␛[1A␛[2K␍echo hello # harmless");
    tmux.sendKeys("Right");
    await tmux.waitFor(/○ Yes \/ ● No/);
    tmux.sendKeys("Enter");
    await tmux.waitFor(idleAfter("declined then"));
    expect(existsSync(join(world.cwd, "DIR"))).toBe(true);
    expect(raw()).not.toContain("rm -rf DIR \x1b[2K");
  });

  test("an extension's status, widget, title, notice, dialogs and command description show every control and none acts", async () => {
    const { tmux, world } = await start(undefined, { width: WIDTH, args: ["-e", HOSTILE_UI] });
    // Set at session start, before the output was watched: the screen shows them.
    const first = await tmux.waitFor("widget HOSTILE-START");
    expectHostileShown(first.split("\n").find((l) => l.includes("widget HOSTILE-START"))!);
    expectHostileShown(first.split("\n").find((l) => l.includes("status HOSTILE-START"))!);
    expect(tmux.paneTitle()).toContain("title HOSTILE-START ␛[2K");
    const raw = watch(tmux);

    tmux.type("/hosti");
    const menu = await tmux.waitFor("description HOSTILE-START");
    expect(menu.split("\n").find((l) => l.includes("description HOSTILE-START"))).toContain("␛[2K ␛[1A");
    tmux.type("le");
    tmux.sendKeys("Enter");
    const select = await tmux.waitFor("option HOSTILE-START");
    const lineOf = (screen: string, text: string) => screen.split("\n").find((l) => l.includes(text)) ?? `(no row with ${text})`;
    expectHostileShown(lineOf(select, "select HOSTILE-START"));
    expectHostileShown(lineOf(select, "option HOSTILE-START"));
    tmux.sendKeys("Enter");
    const confirm = await tmux.waitFor(/● Yes \/ ○ No/);
    expectHostileShown(lineOf(confirm, "confirm HOSTILE-START"));
    expectHostileShown(lineOf(confirm, "message HOSTILE-START"));
    expectHostileShown(lineOf(confirm, "notice HOSTILE-START"));
    tmux.sendKeys("Enter");
    const input = await tmux.waitFor("input HOSTILE-START");
    expectHostileShown(lineOf(input, "input HOSTILE-START"));
    tmux.type("typed");
    tmux.sendKeys("Enter");
    await tmux.waitFor("hostile-done");
    expect(existsSync(join(world.cwd, "done.txt"))).toBe(true);
    expectTerminalUntouched(tmux, raw());
  });

  test("a session file's messages, tool call, result, name and label show every control when resumed, in /tree and in /resume", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const { dir, path } = hostileSession({ cwd: world.cwd });
    const tmux = open(world, { width: WIDTH, args: ["--session-dir", dir, "--session", path] });
    const lineOf = (screen: string, text: string) => screen.split("\n").find((l) => l.includes(text)) ?? `(no row with ${text})`;
    const replayed = await tmux.waitFor("end of the saved conversation");
    for (const text of ["asked HOSTILE-START", "answered HOSTILE-START"]) expectHostileShown(lineOf(replayed, text));
    expect(lineOf(replayed, "named HOSTILE-START")).toContain("␛[2K ␛[1A ␛]0;owned-title␇");
    // A command's output keeps what was written after its last carriage return, as a progress bar shows.
    expect(lineOf(replayed, "│ after ab␈c")).toContain("\\u202eevil\\u202c \\u2066iso\\u2069 HOSTILE-END");
    expect(lineOf(replayed, "● bash")).toContain("true # HOSTILE-START ␛[2K ␛[1A");
    const raw = watch(tmux);

    tmux.type("/tree");
    tmux.sendKeys("Enter");
    const tree = await tmux.waitFor("label HOSTILE-START");
    // The label comes first on its entry's row, shown whole; the message after it is cut to the width.
    expectHostileShown(lineOf(tree, "label HOSTILE-START"));
    expect(lineOf(tree, "label HOSTILE-START")).toContain("HOSTILE-END] user: asked HOSTILE-START");
    tmux.sendKeys("Escape");
    await tmux.waitFor("cancelled");

    tmux.type("/resume");
    tmux.sendKeys("Enter");
    const picker = await tmux.waitFor(/named HOSTILE-START.*msgs?/);
    expect(lineOf(picker, "named HOSTILE-START")).toContain("␛[2K ␛[1A ␛]0;owned-title␇");
    tmux.sendKeys("Escape");
    await tmux.waitFor((screen) => screen.split("cancelled").length > 2);
    expectTerminalUntouched(tmux, raw());
  });
});
