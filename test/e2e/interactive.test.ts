/**
 * Interactive pig in a real terminal (tmux) against the fake server: what a person sees and
 * what ends up in the session file.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { tempDir } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function start(script: Script | undefined, options: WorldOptions & { env?: Record<string, string>; args?: string[] } = {}) {
  const world = await createWorld({ ...options, llm: script ? { script } : { mode: "text" } });
  worlds.push(world);
  const tmux = TmuxSession.start({
    command: [pigBinary(), ...(options.args ?? [])],
    cwd: world.cwd,
    width: 100,
    height: 30,
    env: { ...world.env, TERM: "xterm-256color", ...options.env },
  });
  sessions.push(tmux);
  await tmux.waitFor("›", 10_000);
  return { world, tmux };
}

/** Every entry of the world's session files, in file order. */
function sessionEntries(world: PigWorld): Record<string, unknown>[] {
  const root = join(world.agentDir, "sessions");
  const [dir] = readdirSync(root);
  return readdirSync(join(root, dir!))
    .filter((n) => n.endsWith(".jsonl"))
    .flatMap((file) =>
      readFileSync(join(root, dir!, file), "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    );
}

function sessionMessages(world: PigWorld): Record<string, unknown>[] {
  const root = join(world.agentDir, "sessions");
  const [dir] = readdirSync(root);
  const files = readdirSync(join(root, dir!)).filter((n) => n.endsWith(".jsonl"));
  return files.flatMap((file) =>
    readFileSync(join(root, dir!, file), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "message")
      .map((e) => e.message),
  );
}

describe.skipIf(!tmuxAvailable())("interactive", () => {
  test("a prompt streams the answer and shows tool calls with a preview", async () => {
    const { tmux, world } = await start([
      { text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "printf 'one\\ntwo\\n'" } }] },
      { text: "## Done\n\nThe file has **two** lines." },
    ]);
    tmux.type("count the lines");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor("two lines", 10_000);
    expect(screen).toContain("› count the lines");
    expect(screen).toContain("● bash");
    expect(screen).toMatch(/│ one/);
    expect(screen).toContain("## Done");
    await tmux.waitFor(/↑\d/, 5000);
    expect(sessionMessages(world).map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });

  test("Enter while running steers; Escape stops and puts queued text back in the editor", async () => {
    const { tmux, world } = await start([{ text: "working on it slowly", chunkSize: 2, stallAfterChunks: 3 }]);
    tmux.type("first");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Esc to stop", 10_000);
    tmux.type("steer this");
    tmux.sendKeys("Enter");
    tmux.type("draft");
    await tmux.waitFor("1 queued", 5000);
    tmux.sendKeys("Escape");
    await tmux.waitFor("(aborted)", 5000);
    // The aborted answer is in the file once it is shown.
    expect(sessionMessages(world).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    const screen = await tmux.waitFor(/› steer this\s*\n\s*draft/, 5000);
    expect(screen).not.toContain("1 queued");
    expect(screen).not.toContain("Esc to stop");
  });

  test("while a tool runs, Enter steers the next turn and Alt+Enter follows up after the answer", async () => {
    const { tmux, world } = await start([
      { toolCalls: [{ name: "bash", arguments: { command: "sleep 1.5; echo slept" } }] },
      { text: "answer to the steer" },
      { text: "answer to the follow-up" },
    ]);
    tmux.type("start working");
    tmux.sendKeys("Enter");
    await tmux.waitFor("● bash", 10_000);
    tmux.type("steer now");
    tmux.sendKeys("Enter");
    tmux.type("follow later");
    tmux.sendKeys("M-Enter");
    await tmux.waitFor("2 queued", 5000);
    await tmux.waitFor("answer to the follow-up", 15_000);
    await tmux.waitFor(/↑\d/, 5000);
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
    tmux.type("!echo hello-shell");
    tmux.sendKeys("Enter");
    await tmux.waitFor("hello-shell\n", 5000);
    tmux.type("!!echo secret-shell");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/│ secret-shell/, 5000);
    tmux.type("what ran?");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/, 10_000);
    const body = JSON.stringify(world.llm.requests[0]!.body);
    expect(body).toContain("hello-shell");
    expect(body).not.toContain("secret-shell");
    expect(sessionMessages(world).filter((m) => m.role === "bashExecution")).toHaveLength(2);
  });

  test("Ctrl+C twice quits", async () => {
    const { tmux } = await start(undefined);
    tmux.sendKeys("C-c");
    tmux.sendKeys("C-c");
    await tmux.waitForExit(5000);
  });

  test("keybindings.json: Ctrl+S sends, Enter starts a new line, a bad entry is named", async () => {
    const { tmux, world } = await start([{ text: "got both lines" }], {
      agentFiles: { "keybindings.json": JSON.stringify({ "tui.input.submit": "ctrl+s", "tui.input.newLine": "enter", "app.bogus": "ctrl+q" }) },
    });
    await tmux.waitFor('keybindings.json: unknown action "app.bogus"', 5000);
    tmux.type("line one");
    tmux.sendKeys("Enter");
    tmux.type("line two");
    tmux.sendKeys("C-s");
    await tmux.waitFor("got both lines", 10_000);
    expect(sessionMessages(world)[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "line one\nline two" }] });
    tmux.type("/hotkeys");
    tmux.sendKeys("C-s");
    await tmux.waitFor(/Ctrl\+S\s+send/, 5000);
  });

  test("--theme loads a theme file by its name; without it the missing theme is named", async () => {
    const files = { "ocean-theme.json": JSON.stringify({ name: "ocean", colors: { accent: "#0000ff" } }) };
    const missing = await start(undefined, { settings: { theme: "ocean" }, files });
    await missing.tmux.waitFor('Theme "ocean" not found; using the dark theme', 5000);
    const found = await start(undefined, { settings: { theme: "ocean" }, files, args: ["--theme", "ocean-theme.json"] });
    found.tmux.type("/hotkeys");
    found.tmux.sendKeys("Enter");
    const screen = await found.tmux.waitFor("choose a model", 5000);
    expect(screen).not.toContain("not found");
  });

  test("Ctrl+Z in a shell stops pig as a job; fg brings the prompt back and typing works", async () => {
    const world = await createWorld({ llm: { script: [{ text: "back again" }] } });
    worlds.push(world);
    const tmux = TmuxSession.start({
      command: ["bash", "--norc", "--noprofile", "-i"],
      cwd: world.cwd,
      width: 100,
      height: 30,
      env: { ...world.env, TERM: "xterm-256color", PS1: "shell$ " },
    });
    sessions.push(tmux);
    await tmux.waitFor("shell$", 5000);
    tmux.type(pigBinary());
    tmux.sendKeys("Enter");
    await tmux.waitFor("›", 10_000);
    tmux.sendKeys("C-z");
    await tmux.waitFor(/Stopped.*pig/, 5000);
    tmux.type("fg");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/fg\n.*pig/, 5000);
    tmux.type("hello");
    tmux.sendKeys("Enter");
    await tmux.waitFor("back again", 10_000);
  });

  test("Ctrl+Z without a job-control shell leaves the prompt working", async () => {
    const { tmux } = await start([{ text: "still here" }]);
    tmux.sendKeys("C-z");
    tmux.type("hi");
    tmux.sendKeys("Enter");
    await tmux.waitFor("still here", 10_000);
  });

  test("/scoped-models: Tab selects, Enter applies, Ctrl+P then stays on the chosen model", async () => {
    const { tmux } = await start(undefined);
    tmux.type("/scoped-models");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Models to cycle with Ctrl+P", 5000);
    tmux.type("reasoner");
    await tmux.waitFor(/fake\/fake-reasoner/, 5000);
    tmux.sendKeys("Tab");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Save this as enabledModels", 5000);
    tmux.sendKeys("Enter");
    await tmux.waitFor("Ctrl+P cycles through 1 model.", 5000);
    tmux.sendKeys("C-p");
    await tmux.waitFor("Only one model is available.", 5000);
  });

  test("NO_COLOR: no colour codes in the output", async () => {
    const { tmux } = await start([{ text: "plain **answer**" }], { env: { NO_COLOR: "1" } });
    tmux.type("hi");
    tmux.sendKeys("Enter");
    await tmux.waitFor("plain **answer**", 10_000);
  });
  test("output to a pipe is plain text: no escape sequences at all", async () => {
    const world = await createWorld({ llm: { script: [{ text: "plain **answer**" }] }, settings: { quietStartup: false } });
    worlds.push(world);
    // stdin stays the terminal, so this is the interactive mode; `cat -v` would show any ESC as ^[.
    const tmux = TmuxSession.start({
      command: ["sh", "-c", `"$0" | cat -v`, pigBinary()],
      cwd: world.cwd,
      width: 100,
      height: 30,
      env: { ...world.env, TERM: "xterm-256color" },
    });
    sessions.push(tmux);
    await tmux.waitFor("session ", 10_000);
    // No prompt is drawn to a pipe; the header comes just before the editor takes the keyboard.
    await Bun.sleep(200);
    tmux.type("hi there");
    tmux.sendKeys("Enter");
    const screen = await tmux.waitFor(/of 128k/, 10_000);
    expect(screen).toContain("plain **answer**");
    expect(screen).not.toContain("^[");
    expect(sessionMessages(world).map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe.skipIf(!tmuxAvailable())("interactive commands", () => {
  async function ask(tmux: TmuxSession, text: string, wait: string | RegExp, timeout = 10_000) {
    tmux.type(text);
    tmux.sendKeys("Enter");
    return tmux.waitFor(wait, timeout);
  }

  test("/name, /session and /export", async () => {
    const { tmux, world } = await start(undefined);
    await ask(tmux, "hello there", /↑\d/);
    await ask(tmux, "/name Morning work", "Session name: Morning work");
    await ask(tmux, "/session", "Morning work");
    await ask(tmux, "/export out.html", "out.html");
    const html = readFileSync(join(world.cwd, "out.html"), "utf8");
    expect(html).toContain("<html");
    expect(html).toContain("hello there");
    expect(sessionEntries(world).filter((e) => e.type === "session_info")).toEqual([expect.objectContaining({ name: "Morning work" })]);
  });

  test("/model opens a picker; choosing switches the model", async () => {
    const { tmux, world } = await start(undefined);
    tmux.type("/model");
    tmux.sendKeys("Enter");
    await tmux.waitFor("fake-reasoner", 5000);
    tmux.type("reasoner");
    await Bun.sleep(200);
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Thinking level|fake\/fake-reasoner/, 5000);
    await ask(tmux, "which model?", /↑\d/);
    expect((world.llm.requests.at(-1)!.body as { model: string }).model).toBe("fake-reasoner");
    const entries = sessionEntries(world);
    const change = entries.findLast((e) => e.type === "model_change");
    expect(change).toMatchObject({ provider: "fake", modelId: "fake-reasoner" });
    // The switch is recorded before the question asked with the new model.
    expect(entries.indexOf(change!)).toBeLessThan(entries.findIndex((e) => JSON.stringify(e).includes("which model?")));
  });

  test("/fork puts the message back in the editor and continues in a new file", async () => {
    const { tmux, world } = await start(undefined);
    await ask(tmux, "first question", /↑\d/);
    await ask(tmux, "second question", /↑[\d.k]+.*\n[\s\S]*↑/);
    tmux.type("/fork");
    tmux.sendKeys("Enter");
    await tmux.waitFor("second question", 5000);
    tmux.sendKeys("Enter");
    await tmux.waitFor(/› second question\s*$/m, 5000);
    tmux.sendKeys("C-u");
    await ask(tmux, "a different second", /↑\d/);
    const root = join(world.agentDir, "sessions");
    const [dir] = readdirSync(root);
    expect(readdirSync(join(root, dir!)).filter((n) => n.endsWith(".jsonl"))).toHaveLength(2);
  });

  test("/compact summarises and the conversation goes on", async () => {
    const words = "lorem ipsum dolor sit amet ".repeat(30);
    const { tmux, world } = await start(
      { responses: [{ when: "context summarization assistant", text: "## Goal\nSummarised." }, { text: "one" }, { text: "two" }, { text: "three" }] } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 50 } } },
    );
    await ask(tmux, `first ${words}`, /↑\d/);
    await ask(tmux, `second ${words}`, "two");
    await ask(tmux, "/compact", "Compacted", 10_000);
    await ask(tmux, "after compaction", "three");
    expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("Summarised.");
    const compactions = sessionEntries(world).filter((e) => e.type === "compaction");
    expect(compactions).toHaveLength(1);
    expect(String(compactions[0]!.summary)).toContain("Summarised.");
  });
});

describe.skipIf(!tmuxAvailable())("interactive sessions over days", () => {
  test("/resume tomorrow: pick yesterday's session and continue it", async () => {
    const { tmux, world } = await start(undefined);
    tmux.type("yesterday's work");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/, 10_000);
    tmux.sendKeys("C-c");
    tmux.sendKeys("C-c");
    await tmux.waitForExit(5000);
    const again = TmuxSession.start({ command: [pigBinary()], cwd: world.cwd, width: 100, height: 30, env: { ...world.env, TERM: "xterm-256color" } });
    sessions.push(again);
    await again.waitFor("›", 10_000);
    again.type("/resume");
    again.sendKeys("Enter");
    await again.waitFor("yesterday's work", 5000);
    again.sendKeys("Enter");
    await again.waitFor(/Session [0-9a-f]{8}/, 5000);
    again.type("and today");
    again.sendKeys("Enter");
    await again.waitFor(/↑\d/, 10_000);
    const last = JSON.stringify(world.llm.requests.at(-1)!.body);
    expect(last).toContain("yesterday's work");
    expect(last).toContain("and today");
  });

  test("/resume deletes a session: to the trash when a trash command exists, else after a second yes", async () => {
    const world = await createWorld({ llm: { mode: "text" } });
    worlds.push(world);
    for (const prompt of ["first old session", "second old session"]) expect((await world.run(["-p", prompt])).code).toBe(0);
    const sessionDir = join(world.agentDir, "sessions", readdirSync(join(world.agentDir, "sessions"))[0]!);
    const fileOf = (text: string) => readdirSync(sessionDir).find((name) => readFileSync(join(sessionDir, name), "utf8").includes(text));
    const first = fileOf("first old session")!;
    // A stand-in `trash` that moves the file into a folder, found on PATH like the real one.
    const bin = tempDir();
    const trashed = tempDir();
    const { chmodSync, writeFileSync } = await import("node:fs");
    writeFileSync(join(bin, "trash"), `#!/bin/sh\nmv "$1" "${trashed}/"\n`);
    chmodSync(join(bin, "trash"), 0o755);

    const deleteOne = async (tmux: TmuxSession, title: string) => {
      tmux.type("/resume");
      tmux.sendKeys("Enter");
      await tmux.waitFor("Delete a session", 5000);
      tmux.type("Delete");
      await Bun.sleep(150);
      tmux.sendKeys("Enter");
      await tmux.waitFor("Delete which session?", 5000);
      tmux.type(title);
      await Bun.sleep(150);
      tmux.sendKeys("Enter");
      await tmux.waitFor(`Delete session "${title}`, 5000);
      tmux.type("y");
    };

    const withTrash = TmuxSession.start({
      command: [pigBinary()],
      cwd: world.cwd,
      width: 100,
      height: 30,
      env: { ...world.env, TERM: "xterm-256color", PATH: `${bin}:${world.env.PATH}` },
    });
    sessions.push(withTrash);
    await withTrash.waitFor("›", 10_000);
    await deleteOne(withTrash, "first old session");
    await withTrash.waitFor("Moved to the trash", 5000);
    expect(readdirSync(trashed)).toEqual([first]);
    expect(fileOf("first old session")).toBeUndefined();
    // The list comes back after a deletion; leave it, then quit.
    await withTrash.waitFor(/Moved to the trash[\s\S]*Resume a session/, 5000);
    withTrash.sendKeys("Escape");
    await withTrash.waitFor("■  Resume a session", 5000);
    withTrash.type("/quit");
    withTrash.sendKeys("Enter");
    await withTrash.waitForExit(5000);

    const second = fileOf("second old session")!;
    const tmux = TmuxSession.start({ command: [pigBinary()], cwd: world.cwd, width: 100, height: 30, env: { ...world.env, TERM: "xterm-256color" } });
    sessions.push(tmux);
    await tmux.waitFor("›", 10_000);
    await deleteOne(tmux, "second old session");
    await tmux.waitFor("permanently?", 5000);
    tmux.type("y");
    await tmux.waitFor(/Deleted \/[\s\S]*No sessions in this project yet/, 5000);
    expect(fileOf("second old session")).toBeUndefined();
    expect(readdirSync(trashed)).toEqual([first]);
  });

  test("two quick Escapes on an empty prompt open /tree, or /fork with doubleEscapeAction", async () => {
    const tree = await start(undefined);
    tree.tmux.type("question one");
    tree.tmux.sendKeys("Enter");
    await tree.tmux.waitFor(/↑\d/, 10_000);
    tree.tmux.sendKeys("Escape", "Escape");
    await tree.tmux.waitFor("Go to (• marks the current branch)", 5000);

    const fork = await start(undefined, { settings: { doubleEscapeAction: "fork" } });
    fork.tmux.type("question one");
    fork.tmux.sendKeys("Enter");
    await fork.tmux.waitFor(/↑\d/, 10_000);
    fork.tmux.type("draft");
    fork.tmux.sendKeys("Escape", "Escape");
    await Bun.sleep(300);
    expect(fork.tmux.capture()).not.toContain("Fork from which message?");
    fork.tmux.sendKeys("C-u");
    fork.tmux.sendKeys("Escape", "Escape");
    await fork.tmux.waitFor("Fork from which message?", 5000);
  });

  test("/tree: go back to the first question and continue on a new branch", async () => {
    const { tmux, world } = await start(undefined, { settings: { branchSummary: { skipPrompt: true } } });
    tmux.type("question one");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/, 10_000);
    tmux.type("question two");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/question two[\s\S]*↑\d/, 10_000);
    tmux.type("/tree");
    tmux.sendKeys("Enter");
    await tmux.waitFor("question one", 5000);
    tmux.type("question one");
    await Bun.sleep(200);
    tmux.sendKeys("Enter");
    await tmux.waitFor(/› question one\s*$/m, 5000);
    tmux.sendKeys("C-u");
    tmux.type("another way");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/another way[\s\S]*↑\d/, 10_000);
    const users = ((world.llm.requests.at(-1)!.body as { messages: { role: string; content: { text: string }[] }[] }).messages)
      .filter((m) => m.role === "user")
      .map((m) => m.content[0]!.text);
    expect(users).toEqual(["another way"]);
    // Both branches stay in the file: "another way" hangs off the same parent as "question one".
    const entries = sessionEntries(world);
    const userEntry = (text: string) => entries.find((e) => e.type === "message" && JSON.stringify(e.message).includes(text))!;
    expect(userEntry("another way").parentId).toBe(userEntry("question one").parentId);
    expect(userEntry("question two")).toBeDefined();
  });
});

describe.skipIf(!tmuxAvailable())("interactive completion", () => {
  test("Tab completes a model name after /model", async () => {
    const { tmux } = await start(undefined);
    tmux.type("/model fake/fake-rea");
    tmux.sendKeys("Tab");
    await tmux.waitFor("/model fake/fake-reasoner", 5000);
  });
});

describe.skipIf(!tmuxAvailable())("first run", () => {
  test("without a model the setup asks for a server, stores it, and pig works with it", async () => {
    const world = await createWorld({ llm: { mode: "text" } });
    worlds.push(world);
    // A fresh agent directory: no models.json, no settings, no keys in the environment.
    const { rmSync } = await import("node:fs");
    rmSync(join(world.agentDir, "models.json"));
    rmSync(join(world.agentDir, "settings.json"));
    const tmux = TmuxSession.start({ command: [pigBinary()], cwd: world.cwd, width: 100, height: 30, env: { ...world.env, TERM: "xterm-256color" } });
    sessions.push(tmux);
    await tmux.waitFor("Provider", 10_000);
    tmux.sendKeys("Up");
    await Bun.sleep(150);
    tmux.sendKeys("Enter");
    await tmux.waitFor("Server URL", 5000);
    tmux.type(`${world.llm.url}/v1`);
    tmux.sendKeys("Enter");
    await tmux.waitFor("name for this provider", 5000);
    tmux.sendKeys("Enter");
    await tmux.waitFor("API key", 5000);
    tmux.type("secret-key");
    tmux.sendKeys("Enter");
    await tmux.waitFor("›", 15_000);
    tmux.type("hello");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/, 10_000);
    expect(world.llm.requests.at(-1)!.headers.authorization).toBe("Bearer secret-key");
    const models = JSON.parse(readFileSync(join(world.agentDir, "models.json"), "utf8"));
    expect(Object.keys(models.providers)).toEqual(["custom"]);
  });
});
