/**
 * Where a session file cannot go as usual: a working directory whose session folder name would
 * be longer than a file name may be, and a session folder pig may not write. The answer is
 * printed either way; a session that cannot be saved is said so on stderr.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDirName } from "../../src/session/paths.ts";
import { pigBinary } from "../helpers/binary.ts";
import { withPermissions } from "../helpers/permissions.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(): Promise<PigWorld> {
  const w = await createWorld({ llm: { mode: "text" } });
  worlds.push(w);
  return w;
}

/** Runs pig in the folder reached by relative steps from `base`, made on the way. */
async function runIn(w: PigWorld, base: string, steps: string[], args: string[], permissions = false) {
  const script = `cd "$1" && shift && for step in ${steps.map((s) => `'${s}'`).join(" ")}; do mkdir -p "$step" && cd "$step" || exit 97; done; exec "$@"`;
  const argv = ["bash", "-c", script, "bash", base, pigBinary(), ...args];
  const proc = Bun.spawn(permissions ? withPermissions(argv) : argv, { env: w.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

function sessionFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".jsonl")) : [];
}

describe("a long working directory", () => {
  const cases = [
    { name: "one folder name of 255 bytes", steps: ["p".repeat(255)] },
    // Just under PATH_MAX (4,096): past it, the runtime pig is built on cannot start at all.
    { name: "a path of 3,600 bytes in folders of 225", steps: Array.from({ length: 16 }, (_, i) => `${String(i).padStart(2, "0")}${"q".repeat(223)}`) },
  ];
  for (const { name, steps } of cases) {
    test(`${name}: the answer is printed, the session saved, and -c and sessions list find it`, async () => {
      const w = await world();
      const base = tempDir("pig-long-cwd-");
      const first = await runIn(w, base, steps, ["-p", "from deep down"]);
      expect(first.stderr).toBe("");
      expect(first).toMatchObject({ code: 0, stdout: "ok\n" });
      const cwd = join(base, ...steps);
      const dir = join(w.agentDir, "sessions", sessionDirName(cwd));
      expect(Buffer.byteLength(sessionDirName(cwd))).toBeLessThanOrEqual(255);
      const files = sessionFiles(dir);
      expect(files).toHaveLength(1);
      expect(JSON.parse(readFileSync(join(dir, files[0]!), "utf8").split("\n")[0]!).cwd).toBe(cwd);
      const again = await runIn(w, base, steps, ["-c", "-p", "and again"]);
      expect(again).toMatchObject({ code: 0, stdout: "ok\n" });
      expect(sessionFiles(dir)).toEqual(files);
      expect(readFileSync(join(dir, files[0]!), "utf8")).toContain("and again");
      const list = await runIn(w, base, steps, ["sessions", "list", "--json"]);
      const listed = JSON.parse(list.stdout) as { cwd: string; messageCount: number }[];
      expect(listed.map((s) => s.cwd)).toEqual([cwd]);
    });
  }
});

describe("a session folder pig may not write", () => {
  test("-p prints the answer, warns naming the folder and the reason, and exits 0", async () => {
    const w = await world();
    const sessions = join(tempDir("pig-ro-sessions-"), "sessions");
    mkdirSync(sessions);
    chmodSync(sessions, 0o555);
    const result = await runIn(w, w.cwd, [], ["--session-dir", sessions, "-p", "keep this answer"], true);
    expect(result.stdout).toBe("ok\n");
    expect(result.stderr).toMatch(new RegExp(`^pig: warning: Cannot save this session: cannot write to ${sessions}/[^:]+\\.jsonl: permission denied \\(EACCES\\)\\. It goes on in memory only; nothing of it is saved\\.\\n$`));
    expect(result.code).toBe(0);
    expect(sessionFiles(sessions)).toEqual([]);
  });

  test("--mode json streams the whole run and says once on stderr that it is not saved", async () => {
    const w = await world();
    const sessions = join(tempDir("pig-ro-sessions-"), "sessions");
    mkdirSync(sessions);
    chmodSync(sessions, 0o555);
    const result = await runIn(w, w.cwd, [], ["--session-dir", sessions, "--mode", "json", "one", "two"], true);
    expect(result.code).toBe(0);
    const events = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string });
    expect(events.filter((e) => e.type === "agent_end")).toHaveLength(2);
    expect(result.stderr.match(/Cannot save this session/g)).toHaveLength(1);
  });
});
