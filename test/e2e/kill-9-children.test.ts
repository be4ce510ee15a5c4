/**
 * A pig killed with SIGKILL leaves nothing running: not its extension runner, even one too busy
 * to notice that pig is gone, not the bash tool's command, not a `!command` (RPC `bash`), and
 * not what those commands started. A command that ends by itself leaves no guard behind.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { processAlive } from "../helpers/process-state.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "e2e2");

const worlds: PigWorld[] = [];
/** Processes a failing test may have left: killed after the file. */
const leftovers: number[] = [];
afterAll(async () => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(script: Parameters<typeof createWorld>[0] = {}): Promise<PigWorld> {
  const w = await createWorld(script);
  worlds.push(w);
  return w;
}

async function until(check: () => boolean, what: () => string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await Bun.sleep(20);
  }
}

/** The number in a file a process wrote, once it is whole (written with a trailing newline). */
function pidIn(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, "utf8");
  return text.endsWith("\n") || /^\d+$/.test(text) ? Number(text.trim()) || undefined : undefined;
}

async function pidsIn(paths: string[]): Promise<number[]> {
  await until(() => paths.every((p) => pidIn(p) !== undefined), () => `missing ${paths.filter((p) => pidIn(p) === undefined).join(", ")}`);
  const pids = paths.map((p) => pidIn(p)!);
  leftovers.push(...pids);
  return pids;
}

/** Processes whose process group is `pgid`. */
function groupMembers(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return fields[0] !== "Z" && Number(fields[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A command that starts a child, says both pids, and waits for the child (1000 s). */
function sleeperCommand(cwd: string): string {
  return `sleep 1000 & echo $! > ${join(cwd, "child.pid")}; echo $$ > ${join(cwd, "shell.pid")}; wait`;
}

describe("kill -9 of pig", () => {
  test("ends a busy extension runner and the bash tool's command with its child", async () => {
    const w = await world({ llm: { script: [] } });
    w.llm.setScript([{ toolCalls: [{ name: "bash", arguments: { command: sleeperCommand(w.cwd) } }] }, { text: "never reached" }]);
    const pig = Bun.spawn([pigBinary(), "-p", "-e", join(EXT, "busy-runner.ts"), "go"], { cwd: w.cwd, env: w.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    leftovers.push(pig.pid);
    const [runner, shell, child] = await pidsIn([join(w.cwd, "runner-pid.txt"), join(w.cwd, "shell.pid"), join(w.cwd, "child.pid")]);
    await until(() => existsSync(join(w.cwd, "busy.txt")), () => "the runner never got busy");
    for (const pid of [runner!, shell!, child!]) expect(processAlive(pid)).toBe(true);

    pig.kill(9);
    await pig.exited;
    await until(
      () => ![runner!, shell!, child!].some(processAlive),
      () => `still running after pig was killed: ${[["runner", runner], ["shell", shell], ["child", child]].filter(([, p]) => processAlive(p as number)).map(([n]) => n).join(", ")}`,
    );
    expect(groupMembers(shell!)).toEqual([]);
    expect(groupMembers(runner!)).toEqual([]);
  }, 60_000);

  test("ends a running !command (RPC bash) and its child", async () => {
    const w = await world({ llm: { mode: "text" } });
    const client = new RpcClient({ cwd: w.cwd, env: w.env });
    leftovers.push(client.pid);
    client.send({ type: "bash", command: sleeperCommand(w.cwd), id: "long" });
    const [shell, child] = await pidsIn([join(w.cwd, "shell.pid"), join(w.cwd, "child.pid")]);
    for (const pid of [shell!, child!]) expect(processAlive(pid)).toBe(true);

    await client.terminate("SIGKILL");
    await until(
      () => ![shell!, child!].some(processAlive),
      () => `still running after pig was killed: ${[shell, child].filter((p) => processAlive(p!)).join(", ")}`,
    );
    expect(groupMembers(shell!)).toEqual([]);
  }, 60_000);
});

describe("a command that ends by itself", () => {
  test("leaves nothing of its process group once pig has its output", async () => {
    const w = await world({ llm: { script: [] } });
    w.llm.setScript([{ toolCalls: [{ name: "bash", arguments: { command: `echo $$ > ${join(w.cwd, "shell.pid")}` } }] }, { text: "done" }]);
    const run = await w.run(["-p", "go"]);
    expect(run.stdout).toBe("done\n");
    const shell = pidIn(join(w.cwd, "shell.pid"))!;
    expect(shell).toBeGreaterThan(0);
    // The guard leaves once released; it may take a moment to read its word.
    await until(() => groupMembers(shell).length === 0, () => `left in the group: ${groupMembers(shell).join(", ")}`);
  }, 60_000);
});
