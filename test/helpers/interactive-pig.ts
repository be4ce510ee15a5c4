/**
 * Interactive pig in tmux against the fake server, for the e2e tests: a started pig per test,
 * cleaned up after it, and the session file read back.
 */
import { afterAll, afterEach } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "./binary.ts";
import type { Script } from "./fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "./pig-env.ts";
import { TmuxSession } from "./tmux.ts";

export type StartOptions = WorldOptions & { env?: Record<string, string>; args?: string[]; width?: number };

/**
 * Registers the calling test file's clean-up and returns its helpers: `start` makes a world and
 * runs pig in tmux until its prompt shows; `track` adopts worlds and tmux sessions made by hand.
 */
export function interactivePig() {
  const worlds: PigWorld[] = [];
  const sessions: TmuxSession[] = [];
  afterEach(() => {
    for (const s of sessions.splice(0)) s.kill();
  });
  afterAll(async () => {
    await Promise.all(worlds.splice(0).map((w) => w.close()));
  });
  const track = <T extends PigWorld | TmuxSession>(item: T): T => {
    if (item instanceof TmuxSession) sessions.push(item);
    else worlds.push(item as PigWorld);
    return item;
  };
  /** pig in a 100×30 tmux window of `world` (or `width` columns), with TERM set. */
  const open = (world: PigWorld, options: { env?: Record<string, string>; args?: string[]; command?: string[]; width?: number } = {}) =>
    track(
      TmuxSession.start({
        command: options.command ?? [pigBinary(), ...(options.args ?? [])],
        cwd: world.cwd,
        width: options.width ?? 100,
        height: 30,
        env: { ...world.env, TERM: "xterm-256color", ...options.env },
      }),
    );
  const start = async (script: Script | undefined, options: StartOptions = {}) => {
    const world = track(await createWorld({ ...options, llm: script ? { script } : { mode: "text" } }));
    const tmux = open(world, options);
    await tmux.waitFor("›");
    return { world, tmux };
  };
  return { start, open, track };
}

/** Every entry of the world's session files, in file order. */
export function sessionEntries(world: PigWorld): Record<string, unknown>[] {
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

/** The messages of those entries. */
/**
 * The conversation's messages in the session file, the system messages that declare the prompt
 * and tools left out (`declaredPrompt` reads the first).
 */
export function sessionMessages(world: PigWorld): Record<string, unknown>[] {
  return sessionEntries(world)
    .filter((e) => e.type === "message")
    .map((e) => e.message as Record<string, unknown>)
    .filter((m) => m.role !== "system");
}

/** The file's first message is the system message declaring the prompt and the tools (as Pi 0.87 writes). */
export function declaredPrompt(world: PigWorld): Record<string, unknown> {
  const first = sessionEntries(world).find((e) => e.type === "message")?.message as Record<string, unknown> | undefined;
  if (first?.role !== "system") throw new Error(`the session's first message is ${first?.role ?? "missing"}, not the system message`);
  return first;
}
