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
    const screen = await tmux.waitFor("(aborted)", 5000);
    expect(screen).toContain("steer this");
    await tmux.waitFor(/› steer this\s*\n\s*draft/, 5000);
    expect(sessionMessages(world).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
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

  test("NO_COLOR: no colour codes in the output", async () => {
    const { tmux } = await start([{ text: "plain **answer**" }], { env: { NO_COLOR: "1" } });
    tmux.type("hi");
    tmux.sendKeys("Enter");
    await tmux.waitFor("plain **answer**", 10_000);
  });
});
