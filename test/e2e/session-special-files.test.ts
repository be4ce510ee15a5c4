/**
 * Session files that are not regular files, or hold a line too long to read: a FIFO, a socket or
 * a device named like a session, in the sessions folder or given by path, is refused with a
 * message naming it (never opened in a way that blocks), and a file with no newline is not read
 * whole.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, truncateSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { defaultSessionDir } from "../../src/session/paths.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const worlds: PigWorld[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) server.close();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(): Promise<PigWorld> {
  const w = await createWorld({ llm: { mode: "text" } });
  worlds.push(w);
  return w;
}

/** A world with one real session, and in its sessions folder a FIFO and a socket named like newer sessions. */
async function worldWithSpecialFiles() {
  const w = await world();
  const first = await w.run(["-p", "the real session"]);
  expect(first.code).toBe(0);
  const dir = defaultSessionDir(w.cwd, w.agentDir);
  const fifo = join(dir, "2099-01-01T00-00-00-000Z_fifo.jsonl");
  execFileSync("mkfifo", [fifo]);
  const socket = join(dir, "2099-01-01T00-00-00-000Z_socket.jsonl");
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { w, dir, fifo, socket };
}

describe("special files among the sessions", () => {
  test("pig sessions list lists the real session and passes over a FIFO and a socket", async () => {
    const { w } = await worldWithSpecialFiles();
    const list = await w.run(["sessions", "list", "--json"]);
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
    const sessions = JSON.parse(list.stdout) as { firstMessage: string; path: string }[];
    expect(sessions.map((s) => s.firstMessage)).toEqual(["the real session"]);
    const all = await w.run(["sessions", "list", "--all", "--json"]);
    expect((JSON.parse(all.stdout) as unknown[]).length).toBe(1);
  });

  test("pig -c continues the real session, naming the FIFO and the socket it passed over", async () => {
    const { w, fifo, socket } = await worldWithSpecialFiles();
    const countOf = async () => (JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { messageCount: number }[]).map((s) => s.messageCount);
    const [before] = await countOf();
    const result = await w.run(["-c", "-p", "and more"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ok\n");
    expect(result.stderr).toContain(`${fifo} is a FIFO (named pipe), not a session file`);
    expect(result.stderr).toContain(`${socket} is a socket, not a session file`);
    expect(await countOf()).toEqual([before! + 2]);
  });

  for (const [name, make, says] of [
    ["/dev/zero", () => "/dev/zero", "is a character device, not a regular file"],
    [
      "a FIFO",
      (dir: string) => {
        const path = join(dir, "pipe.jsonl");
        execFileSync("mkfifo", [path]);
        return path;
      },
      "is a FIFO (named pipe), not a regular file",
    ],
    [
      "a directory",
      (dir: string) => {
        const path = join(dir, "folder.jsonl");
        mkdirSync(path);
        return path;
      },
      "is a directory, not a session file",
    ],
  ] as const) {
    test(`--session ${name} is refused with a message naming it`, async () => {
      const w = await world();
      const path = make(w.cwd);
      const result = await w.run(["--session", path, "-p", "hello"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${path} ${says}`);
      expect(w.llm.requests).toHaveLength(0);
      const show = await w.run(["sessions", "show", path]);
      expect(show.code).toBe(1);
      expect(show.stderr).toContain(`${path} ${says}`);
    });
  }
});

describe("a line too long to read", () => {
  test("a session whose last line has no end is loaded without it, the line reported and kept", async () => {
    const w = await world();
    expect((await w.run(["-p", "before the long line"])).code).toBe(0);
    const list = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { path: string }[];
    const path = list[0]!.path;
    const size = readFileSync(path).length;
    // A sparse run of zero bytes, no newline, past the 256 MiB a line may have.
    const long = 256 * 1024 * 1024 + 10;
    truncateSync(path, size + long);
    const show = await w.run(["sessions", "show", path]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("before the long line");
    expect(show.stderr).toContain(`${long} bytes long, over the 256 MiB a line may have`);
  });
});
