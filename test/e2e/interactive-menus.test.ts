/**
 * What a new user sees of pig's menus in a real terminal (tmux): slash commands listed as they
 * are typed and never sent to the model by mistake, `/help`, and pickers that leave one line
 * behind when they close.
 */
import { expect, test } from "bun:test";
import { pigBinary } from "../helpers/binary.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start, open, track } = interactivePig();

/** Rows a clack frame draws: its bars, corners and option bullets. */
const FRAME_ROW = /^[│└┌◆]|^│\s+[●○◻◼]/m;

async function command(tmux: TmuxSession, text: string, shows: string | RegExp | ((screen: string) => boolean)): Promise<string> {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(shows);
}

/** A skill and a prompt template, which the command list and /help show beside pig's own. */
const RESOURCES = {
  "skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint the project\n---\nRun the linter.",
  "prompts/review.md": "---\ndescription: Review one file\nargument-hint: <file>\n---\nPlease review $1 closely.",
};

/** The rows of the command list under the prompt row `› <typed>`. */
function listRows(screen: string, typed: string): string[] {
  const rows = screen.split("\n");
  const prompt = rows.findIndex((row) => row.trimEnd() === `› ${typed}`);
  return prompt === -1 ? [] : rows.slice(prompt + 1).filter((row) => row.trim() !== "");
}

/** What the model was last sent as the user's words. */
function lastUserText(requests: { body: unknown }[]): string {
  const messages = (requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
  const content = messages.findLast((m) => m.role === "user")!.content;
  return typeof content === "string" ? content : (content as { text?: string }[]).map((part) => part.text ?? "").join("");
}

describeNeeding("tmux", tmuxAvailable(), "slash commands", () => {
  test("typing / lists the commands at once, alphabetically with a description each, and typing filters them", async () => {
    const { tmux } = await start(undefined, { agentFiles: RESOURCES });
    tmux.type("/");
    let screen = await tmux.waitFor("▸ /clone");
    const rows = listRows(screen, "/");
    expect(rows.map((row) => row.slice(2).split(/\s+/)[0])).toEqual(["/clone", "/compact", "/copy", "/exit", "/expand"]);
    expect(rows[0]).toMatch(/^▸ \/clone\s+Copy the current branch into a new session$/);
    // Where it is in the whole list, on its last row.
    expect(rows.at(-1)).toMatch(/ 1\/\d+$/);

    tmux.type("re");
    screen = await tmux.waitFor("▸ /reload");
    const filtered = listRows(screen, "/re");
    expect(filtered.slice(0, 3).map((row) => row.slice(2).split(/\s+/)[0])).toEqual(["/reload", "/resume", "/review"]);
    // A prompt template, with its argument hint and description.
    expect(filtered[2]).toMatch(/\/review\s+<file>\s+Review one file/);

    tmux.sendKeys("C-u");
    tmux.type("/skil");
    screen = await tmux.waitFor("▸ /skill:lint");
    expect(listRows(screen, "/skil")[0]).toMatch(/^▸ \/skill:lint\s+Lint the project/);
    // Tab completes the highlighted name and a space; the list closes.
    tmux.sendKeys("Tab");
    await tmux.waitFor((s) => /^› \/skill:lint$/m.test(s) && !s.includes("▸"));
    tmux.type("now");
    screen = await tmux.waitFor("› /skill:lint now");
    expect(screen).not.toContain("Lint the project");
  });

  test("Enter on the list runs the highlighted command", async () => {
    const { tmux, world } = await start(undefined);
    tmux.type("/mo");
    await tmux.waitFor("▸ /model");
    tmux.sendKeys("Enter");
    await tmux.waitFor("○ fake/fake-reasoner");
    tmux.sendKeys("Escape");
    await tmux.waitFor("■ Model · cancelled");
    expect(world.llm.requests).toHaveLength(0);
  });

  test("an unknown /command is not sent, and a near name is suggested", async () => {
    const { tmux, world } = await start(undefined, { agentFiles: RESOURCES });
    await command(tmux, "/foo", "Unknown command /foo — /help lists the commands");
    // Not lost: the refused text is back in the editor, to be mended.
    await tmux.waitFor(/Unknown command \/foo[^\n]*\n› \/foo\s*$/);
    tmux.sendKeys("C-u");
    tmux.type("/mdoel");
    await tmux.waitFor("› /mdoel");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor("Unknown command /mdoel — did you mean /model? /help lists the commands");
    expect(screen).not.toContain("○ fake/fake-reasoner");
    tmux.sendKeys("C-u");
    await command(tmux, "/skill:nope", "Unknown command /skill:nope");
    expect(world.llm.requests).toHaveLength(0);
  });

  test("a path, a template, and // to send a leading slash as text all go to the model", async () => {
    const { tmux, world } = await start(undefined, { agentFiles: RESOURCES });
    await command(tmux, "/usr/bin/env is broken", /↑\d/);
    expect(lastUserText(world.llm.requests)).toBe("/usr/bin/env is broken");
    await command(tmux, "/review app.ts", /Please review app\.ts closely[\s\S]*↑\d/);
    expect(lastUserText(world.llm.requests)).toBe("Please review app.ts closely.");
    // No list opens for `//`, and the text goes out with one slash, not expanded.
    tmux.type("//review app.ts");
    let screen = await tmux.waitFor("› //review app.ts");
    expect(screen).not.toContain("▸");
    tmux.sendKeys("Enter");
    // The transcript shows what was sent.
    screen = await tmux.waitFor((s) => world.llm.requests.length === 3 && /^› \/review app\.ts$/m.test(s));
    expect(lastUserText(world.llm.requests)).toBe("/review app.ts");
    await command(tmux, "//tmp is full", () => world.llm.requests.length === 4);
    expect(lastUserText(world.llm.requests)).toBe("/tmp is full");
  });
});

describeNeeding("tmux", tmuxAvailable(), "nothing run or sent by mistake", () => {
  test("Enter runs only the command clearly meant: nothing on a bare /, a shared prefix is refused, a unique one runs", async () => {
    const { tmux, world } = await start(undefined, { agentFiles: RESOURCES });
    tmux.type("/");
    await tmux.waitFor("▸ /clone");
    tmux.sendKeys("Enter");
    // Still the list and the bare slash: typing goes on from there.
    tmux.type("hel");
    await tmux.waitFor(/› \/hel\n▸ \/help/);
    tmux.sendKeys("C-u");
    await command(tmux, "/e", "Unknown command /e");
    tmux.sendKeys("C-u");
    tmux.type("/mod");
    await tmux.waitFor("▸ /model");
    tmux.sendKeys("Enter");
    await tmux.waitFor("fake-reasoner");
    tmux.sendKeys("Escape");
    const screen = await tmux.waitFor("· cancelled");
    expect(screen).not.toContain("Cloned");
    expect(world.llm.requests).toHaveLength(0);
  });

  test("pig \"/foo\" is refused as typing it would be, and nothing is sent", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const tmux = open(world, { args: ["/foo"] });
    await tmux.waitFor("Unknown command /foo — /help lists the commands");
    expect(world.llm.requests).toHaveLength(0);
  });

  test("Up goes back through history past a command; // comments and /tmp: messages go to the model as typed", async () => {
    const { tmux, world } = await start(undefined, { agentFiles: RESOURCES });
    await command(tmux, "// a comment about the code", /↑\d/);
    expect(lastUserText(world.llm.requests)).toBe("// a comment about the code");
    await command(tmux, "/tmp: No space left on device", (s) => world.llm.requests.length === 2 && /↑\d[\s\S]*↑\d/.test(s));
    expect(lastUserText(world.llm.requests)).toBe("/tmp: No space left on device");
    await command(tmux, "/session", "Messages:");
    tmux.sendKeys("Up");
    await tmux.waitFor(/› \/session\s*$/);
    tmux.sendKeys("Up");
    await tmux.waitFor(/› \/tmp: No space left on device\s*$/);
  });
});

describeNeeding("tmux", tmuxAvailable(), "/help and /exit", () => {
  test("/help lists the commands, templates and skills with what they do, and the keys in force", async () => {
    // A screen tall enough for the whole list; Ctrl+K chooses the model instead of Ctrl+L.
    const world = track(await createWorld({ llm: { mode: "text" }, agentFiles: { ...RESOURCES, "keybindings.json": JSON.stringify({ "app.model.select": "ctrl+k" }) } }));
    const tmux = track(TmuxSession.start({ command: [pigBinary()], cwd: world.cwd, width: 120, height: 80, env: { ...world.env, TERM: "xterm-256color" } }));
    await tmux.waitFor("›");
    const screen = await command(tmux, "/help", /^Keys$[\s\S]*\/\/text/m);
    const rows = screen.split("\n").map((row) => row.trimEnd());
    const section = (title: string) => rows.indexOf(title);
    expect(section("Commands")).toBeGreaterThan(-1);
    expect(section("Commands")).toBeLessThan(section("Prompt templates"));
    expect(section("Prompt templates")).toBeLessThan(section("Skills"));
    expect(section("Skills")).toBeLessThan(section("Keys"));
    const commands = rows.slice(section("Commands") + 1, section("Prompt templates")).map((row) => row.trim().split(/\s+/)[0]!);
    expect(commands).toEqual([...commands].sort());
    expect(commands).toEqual(expect.arrayContaining(["/exit", "/help", "/hotkeys", "/model", "/quit", "/resume", "/settings", "/tree"]));
    expect(screen).toMatch(/^ {2}\/exit\s+Quit pig \(as \/quit\)$/m);
    expect(screen).toMatch(/^ {2}\/review <file>\s+Review one file$/m);
    expect(screen).toMatch(/^ {2}\/skill:lint\s+Lint the project$/m);
    expect(screen).toMatch(/^ {2}Ctrl\+K\s+choose a model$/m);
    expect(screen).toMatch(/^ {2}\/\/text\s+send text that starts with a slash/m);
    expect(world.llm.requests).toHaveLength(0);
  });

  test("/exit quits, as /quit does", async () => {
    const { tmux, world } = await start(undefined);
    tmux.type("/exit");
    tmux.sendKeys("Enter");
    await tmux.waitForExit();
    expect(world.llm.requests).toHaveLength(0);
  });
});

describeNeeding("tmux", tmuxAvailable(), "pickers leave one line", () => {
  test("/model: the picker is replaced by the model chosen", async () => {
    const { tmux } = await start(undefined);
    // Keys sent before the picker listens would be lost: wait for it to show.
    await command(tmux, "/model", "○ fake/fake-reasoner");
    tmux.type("reasoner");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor("Model: fake/fake-reasoner");
    expect(screen).toContain("◇ Model · fake/fake-reasoner\n");
    expect(screen).not.toContain("Search:");
    expect(screen).not.toContain("fake/fake-model (128k context");
    expect(screen).not.toMatch(FRAME_ROW);
  });

  test("a cancelled picker leaves a line saying so, and nothing of its frame", async () => {
    const { tmux } = await start(undefined);
    await command(tmux, "/model", "○ fake/fake-reasoner");
    tmux.sendKeys("Escape");
    const screen = await tmux.waitFor("■ Model · cancelled");
    expect(screen).not.toContain("fake/fake-reasoner");
    expect(screen).not.toMatch(FRAME_ROW);
    // The prompt is back under that line.
    expect(screen).toMatch(/■ Model · cancelled\n›/);
  });

  test("a picker opened at the bottom of a full screen scrolls it, and is still erased", async () => {
    const { tmux } = await start(undefined);
    // 40 rows of output: the screen (30 rows) is full, so the picker's frame scrolls it.
    await command(tmux, "!seq 1 40", /│ 40\n/);
    await command(tmux, "/settings", "○ Quiet startup");
    tmux.type("theme");
    tmux.sendKeys("Enter");
    await tmux.waitFor("○ light");
    tmux.sendKeys("Escape");
    await tmux.waitFor("■ Theme · cancelled");
    tmux.sendKeys("Escape");
    const screen = await tmux.waitFor(/■ Settings.* · cancelled\n›/);
    const rows = screen.split("\n");
    // The two menus became the three lines under the output, and nothing else was drawn.
    const output = rows.findIndex((row) => row.trim() === "│ 40");
    expect(rows.slice(output + 1, output + 5)).toEqual([
      expect.stringMatching(/^◇ Settings.* · Theme$/),
      "■ Theme · cancelled",
      expect.stringMatching(/^■ Settings.* · cancelled$/),
      "›",
    ]);
    expect(screen).not.toMatch(FRAME_ROW);
  });

  test("a picker opened while an answer streams: the answer is printed whole once it closes", async () => {
    const answer = Array.from({ length: 12 }, (_, i) => `streamed line ${i + 1}`).join("\n");
    const { tmux } = await start({ responses: [{ text: answer, chunkDelayMs: 40, chunkSize: 12 }] } as never);
    tmux.type("tell me");
    tmux.sendKeys("Enter");
    await tmux.waitFor("streamed line 2");
    tmux.type("/model");
    tmux.sendKeys("Enter");
    await tmux.waitFor("○ fake/fake-reasoner");
    tmux.sendKeys("Escape");
    const screen = await tmux.waitFor((s) => s.includes("streamed line 12") && /↑\d/.test(s));
    for (let i = 1; i <= 12; i++) expect(screen).toMatch(new RegExp(`^streamed line ${i}$`, "m"));
    expect(screen).toContain("■ Model · cancelled");
  });

  test("/fork and /tree leave their choice", async () => {
    const { tmux } = await start(undefined);
    await command(tmux, "first question", /↑\d/);
    await command(tmux, "second question", /second question[\s\S]*↑\d/);
    await command(tmux, "/tree", "Session tree · conversation");
    tmux.sendKeys("Escape");
    let screen = await tmux.waitFor("■ Session tree · cancelled");
    expect(screen).not.toMatch(FRAME_ROW);
    await command(tmux, "/fork", "Fork from which message?");
    tmux.sendKeys("Enter");
    screen = await tmux.waitFor("Forked into a new session.");
    expect(screen).toMatch(/◇ Fork from which message\? .* · second question\n/);
    expect(screen).not.toMatch(FRAME_ROW);
  });

  test("a narrow terminal: a picker whose rows wrap is erased too", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const tmux = track(TmuxSession.start({ command: [pigBinary()], cwd: world.cwd, width: 30, height: 20, env: { ...world.env, TERM: "xterm-256color" } }));
    await tmux.waitFor("›");
    tmux.sendKeys("C-l");
    await tmux.waitFor("○ fake/fake-reasoner");
    tmux.sendKeys("Down", "Enter");
    const screen = await tmux.waitFor("Model: fake/fake-reasoner");
    expect(screen).toContain("◇ Model · fake/fake-reasoner");
    expect(screen).not.toMatch(FRAME_ROW);
  });
});
