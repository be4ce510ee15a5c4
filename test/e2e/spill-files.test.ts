/**
 * The files that keep the whole output of a long command (the bash tool's, and the user's `!`
 * commands): private to pig's user while a session can point to them, and gone once none can —
 * after a new session, when pig exits, and after a kill -9 once the next pig starts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { RecordedRequest } from "../helpers/fake-llm/server.ts";
import { otherUser, runAsOtherUser } from "../helpers/other-user.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const uid = process.getuid?.() ?? 0;
/** 20,000 lines of something no one else should read. */
const SECRETS = "seq -f 'secret-%g' 1 20000";

/** A temp folder shared like /tmp (anyone may write, the sticky bit set), pig's TMPDIR in these tests. */
function sharedTmp(): string {
  const dir = tempDir("pig-shared-tmp-");
  chmodSync(dir, 0o1777);
  return dir;
}

async function world(script: Parameters<typeof createWorld>[0] = {}): Promise<PigWorld & { tmp: string }> {
  const w = await createWorld(script);
  worlds.push(w);
  const tmp = sharedTmp();
  w.env.TMPDIR = tmp;
  return Object.assign(w, { tmp });
}

/** The path a truncation notice in a model request names. */
function fullOutputPath(request: RecordedRequest): string {
  const match = /Full output: ([^\s\]"\\]+)/.exec(JSON.stringify(request.body));
  if (!match) throw new Error(`no full output path in request ${request.seq}`);
  return match[1]!;
}

/** The file is pig's user's alone: 0600, in a 0700 folder of its own, in a 0700 per-user folder. */
function expectPrivate(path: string, tmp: string): void {
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(path).uid).toBe(uid);
  expect(dirname(dirname(path))).toBe(join(tmp, `pig-${uid}`));
  for (const dir of [dirname(path), dirname(dirname(path))]) {
    const info = lstatSync(dir);
    expect(info.isDirectory()).toBe(true);
    expect(info.uid).toBe(uid);
    expect(info.mode & 0o777).toBe(0o700);
  }
}

describe("spill files of the bash tool", () => {
  test("are private while the session runs, unreadable to another user, and gone when pig exits", async () => {
    const w = await world({ llm: { script: [{ toolCalls: [{ name: "bash", arguments: { command: SECRETS } }] }, { text: "done" }] } });
    let path: string | undefined;
    let otherRead: { exitCode: number; stdout: string } | undefined;
    const user = otherUser();
    w.llm.setBeforeAnswer(async (request) => {
      if (request.seq !== 2) return;
      path = fullOutputPath(request);
      // Checked while pig still runs and the file is there to be read.
      expectPrivate(path, w.tmp);
      if (user) otherRead = await runAsOtherUser(user, ["cat", path]);
    });
    const run = await w.run(["-p", "show me the secrets"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("done\n");
    expect(path).toBeDefined();
    if (user) {
      expect(otherRead?.exitCode).not.toBe(0);
      expect(otherRead?.stdout).toBe("");
    }
    expect(existsSync(path!)).toBe(false);
    expect(readdirSync(join(w.tmp, `pig-${uid}`))).toEqual([]);
  });

  test("a pig killed with kill -9 leaves its folder; the next pig removes it", async () => {
    const w = await world({ llm: { script: [] } });
    const started = join(w.cwd, "started");
    const release = join(w.cwd, "release");
    w.llm.setScript([
      { toolCalls: [{ name: "bash", arguments: { command: SECRETS } }] },
      { toolCalls: [{ name: "bash", arguments: { command: `touch ${started}; while [ ! -e ${release} ]; do sleep 0.05; done` } }] },
    ]);
    let path: string | undefined;
    w.llm.setBeforeAnswer((request) => {
      if (request.seq === 2) path = fullOutputPath(request);
    });
    const proc = Bun.spawn([pigBinary(), "-p", "show me the secrets"], { cwd: w.cwd, env: w.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    const deadline = Date.now() + 30_000;
    while (!existsSync(started) && Date.now() < deadline) await Bun.sleep(20);
    expect(existsSync(started)).toBe(true);
    proc.kill(9);
    await proc.exited;
    writeFileSync(release, "");
    expect(existsSync(path!)).toBe(true);
    w.llm.setBeforeAnswer(undefined);
    w.llm.setScript([{ text: "hello again" }]);
    const next = await w.run(["-p", "hello"]);
    expect(next.stdout).toBe("hello again\n");
    expect(existsSync(path!)).toBe(false);
    expect(readdirSync(join(w.tmp, `pig-${uid}`))).toEqual([]);
  });
});

describe("spill files of the user's commands (RPC bash)", () => {
  test("are private, stay through a clone, and are removed by a new session", async () => {
    const w = await world({ llm: { mode: "text" } });
    const client = new RpcClient({ cwd: w.cwd, env: w.env });
    clients.push(client);
    const response = await client.request({ type: "bash", command: SECRETS });
    const path = String((response.data as Record<string, unknown>).fullOutputPath);
    expectPrivate(path, w.tmp);
    expect(await client.request({ type: "clone" })).toMatchObject({ success: true });
    expect(existsSync(path)).toBe(true);
    expect(await client.request({ type: "new_session" })).toMatchObject({ success: true, data: { cancelled: false } });
    expect(existsSync(path)).toBe(false);
  });
});
