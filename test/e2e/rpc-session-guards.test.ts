/**
 * RPC commands that replace or write the session, refused where they would lose work: an empty
 * path for switch_session, a clone while a run goes on, files that are not regular session files;
 * and what an HTML export's permissions are.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function rpc(options: WorldOptions = {}) {
  const w = await createWorld({ ...options, llm: { mode: "text", ...options.llm } });
  worlds.push(w);
  const client = new RpcClient({ cwd: w.cwd, env: w.env });
  clients.push(client);
  return { w, client };
}

const dataOf = (response: Line) => response.data as Record<string, unknown>;

function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

describe("rpc session guards", () => {
  test("switch_session with an empty path is refused and the session stays where it was", async () => {
    const { client } = await rpc();
    await client.promptAndWait("first words");
    const before = dataOf(await client.request({ type: "get_state" }));
    const response = await client.request({ type: "switch_session", sessionPath: "" });
    expect(response).toMatchObject({ success: false });
    expect(String(response.error)).toContain("sessionPath");
    const after = dataOf(await client.request({ type: "get_state" }));
    expect(after.sessionFile).toBe(before.sessionFile);
    // The next prompt still reaches the file.
    await client.promptAndWait("second words");
    expect(readFileSync(String(before.sessionFile), "utf8")).toContain("second words");
  });

  test("clone while a run goes on is refused with a clear error, and the run finishes", async () => {
    const held = gate();
    const { w, client } = await rpc({ llm: { beforeAnswer: (request) => (request.seq === 2 ? held.held : undefined) } });
    await client.promptAndWait("something to clone");
    const from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "a long one" })).toMatchObject({ success: true });
    const deadline = Date.now() + 15_000;
    while (w.llm.requests.length < 2) {
      if (Date.now() > deadline) throw new Error("the second request never came");
      await Bun.sleep(20);
    }
    const response = await client.request({ type: "clone" });
    expect(response).toMatchObject({ success: false });
    expect(String(response.error)).toContain("Cannot clone the session while the agent is running");
    // Refused before the copy is made: no second session file appears.
    const state = dataOf(await client.request({ type: "get_state" }));
    expect(readdirSync(dirname(String(state.sessionFile))).filter((name) => name.endsWith(".jsonl"))).toEqual([basename(String(state.sessionFile))]);
    held.release();
    const end = await client.waitFor((l) => l.type === "agent_end", 15_000, from);
    const last = (end.messages as { role: string; stopReason?: string }[]).filter((m) => m.role === "assistant").at(-1);
    expect(last?.stopReason).toBe("stop");
    expect(readFileSync(String(state.sessionFile), "utf8")).toContain("a long one");
  });

  test("export_html writes a file only its owner can read, as the session file", async () => {
    const { w, client } = await rpc();
    await client.promptAndWait("private words");
    const out = join(w.cwd, "export.html");
    // An existing page written by someone's umask is tightened too.
    writeFileSync(out, "old", { mode: 0o644 });
    expect(dataOf(await client.request({ type: "export_html", outputPath: out }))).toEqual({ path: out });
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, "utf8")).toContain("private words");
    const fresh = join(w.cwd, "fresh.html");
    await client.request({ type: "export_html", outputPath: fresh });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
  });

  describe("switch_session to something that is not a regular file", () => {
    const cases: { name: string; make: (dir: string) => string; says: string }[] = [
      { name: "/dev/zero", make: () => "/dev/zero", says: "not a regular file" },
      {
        name: "a FIFO",
        make: (dir) => {
          const path = join(dir, "pipe.jsonl");
          execFileSync("mkfifo", [path]);
          return path;
        },
        says: "not a regular file",
      },
      {
        name: "a directory",
        make: (dir) => {
          const path = join(dir, "folder.jsonl");
          mkdirSync(path);
          return path;
        },
        says: "directory",
      },
    ];
    for (const { name, make, says } of cases) {
      test(`${name} is refused with an error naming it, and pig still answers`, async () => {
        const { w, client } = await rpc();
        await client.promptAndWait("kept session");
        const before = dataOf(await client.request({ type: "get_state" }));
        const path = make(w.cwd);
        const response = await client.request({ type: "switch_session", sessionPath: path }, 20_000);
        expect(response).toMatchObject({ success: false });
        expect(String(response.error)).toContain(path);
        expect(String(response.error)).toContain(says);
        expect(dataOf(await client.request({ type: "get_state" })).sessionFile).toBe(before.sessionFile);
      });
    }
  });
});
