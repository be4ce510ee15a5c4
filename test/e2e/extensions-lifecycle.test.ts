/**
 * TypeScript extensions through the built binary: what their handlers' failures become, and the
 * order of session_shutdown / session_start around a session switch and at quit.
 * Fixtures: test/fixtures/extensions/lifecycle/.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "lifecycle");
const ext = (name: string) => join(EXT, name);

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

/** The session files under `dir`, each as its entries. */
function sessionFiles(dir: string): Map<string, Json[]> {
  const out = new Map<string, Json[]>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".jsonl")) out.set(path, readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l)));
    }
  };
  walk(dir);
  return out;
}

const customs = (entries: Json[]) => entries.filter((e) => e.type === "custom").map((e) => [e.customType, e.data]);

describe("a handler that throws is the session's extension_error", () => {
  test("RPC: an answered event and an observe-only one (agent_end) each give an extension_error record", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ext("thrower.ts")] });
    track(client);
    client.send({ type: "prompt", message: "hi", id: "p1" });
    const isError = (event: string) => (l: Line) => l.type === "extension_error" && l.event === event;
    const early = await client.waitFor(isError("before_agent_start"));
    expect(early).toMatchObject({ extensionPath: ext("thrower.ts"), error: "thrower broke before_agent_start" });
    expect(String(early.stack)).toContain("thrower.ts");
    const late = await client.waitFor(isError("agent_end"));
    expect(late).toMatchObject({ extensionPath: ext("thrower.ts"), error: "thrower broke agent_end" });
  });

  test("JSON and print mode: stderr says Extension error (path, event)", async () => {
    const w = await world();
    for (const mode of [["--mode", "json"], ["-p"]]) {
      const result = await w.run([...mode, "-e", ext("thrower.ts"), "hi"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`Extension error (${ext("thrower.ts")}, before_agent_start): thrower broke before_agent_start`);
      // Thrown at start-up, before the mode listened: reported once it does.
      expect(result.stderr).toContain(`Extension error (${ext("thrower.ts")}, session_start): thrower broke session_start`);
    }
  });
});

describe("session_shutdown at quit is waited for", () => {
  test("-p: what the handler appends, at once and after an await, is in the session file", async () => {
    const w = await world();
    const sessions = tempDir("pig-sessions-");
    const result = await w.run(["-p", "--session-dir", sessions, "-e", ext("quit-saver.ts"), "hi"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const files = [...sessionFiles(sessions).values()];
    expect(files).toHaveLength(1);
    expect(customs(files[0]!)).toEqual([
      ["saved-sync", { reason: "quit" }],
      ["saved-after-await", { reason: "quit" }],
    ]);
  });
});

describe("a session switch: session_shutdown to the old session, session_start with the new one", () => {
  test("ctx.newSession() from a command: the old file gets the shutdown's entry, session_start sees the new file", async () => {
    const w = await world();
    const sessions = tempDir("pig-sessions-");
    const result = await w.run(["-p", "--session-dir", sessions, "-e", ext("switcher.ts"), "hi", "/switch-new", "again"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const log = readFileSync(join(w.cwd, "switcher.log"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Json);
    const files = sessionFiles(sessions);
    expect(files.size).toBe(2);
    const [startup, leaving, started, command] = log;
    expect(startup).toMatchObject({ event: "session_start", reason: "startup" });
    const oldFile = startup!.file as string;
    expect(leaving).toMatchObject({ event: "session_shutdown", reason: "new", file: oldFile });
    const newFile = leaving!.targetSessionFile as string;
    expect(newFile).not.toBe(oldFile);
    expect(files.has(oldFile) && files.has(newFile)).toBe(true);
    // session_start: the new session's file, state and log are already in place.
    expect(started).toMatchObject({ event: "session_start", reason: "new", previousSessionFile: oldFile, file: newFile });
    expect(started!.types).not.toContain("message");
    expect(command).toMatchObject({ command: "newSession", cancelled: false, file: newFile });
    expect(customs(files.get(oldFile)!)).toEqual([["switcher-shutdown", { reason: "new" }]]);
    expect(customs(files.get(newFile)!)).toEqual([
      ["switcher-start", { reason: "new" }],
      ["switcher-shutdown", { reason: "quit" }],
    ]);
  });
});

/** Whether `pid` is a live process (a zombie waiting for its parent counts as gone). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or `limitMs` passed (a bound on waiting for a state, not a delay). */
async function until(check: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

describe("pig killed with -9", () => {
  test("a helper an extension started goes with the runner", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ext("spawner.ts")] });
    track(client);
    const pidFile = join(w.cwd, "helper-pid.txt");
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").length > 0, 10_000)).toBe(true);
    const helper = Number(readFileSync(pidFile, "utf8"));
    expect(running(helper)).toBe(true);
    try {
      process.kill(client.pid, "SIGKILL");
      expect(await until(() => !running(helper), 5_000)).toBe(true);
    } finally {
      if (running(helper)) process.kill(helper, "SIGKILL");
    }
  }, 20_000);
});
