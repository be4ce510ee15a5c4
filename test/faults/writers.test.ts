/**
 * Two writers: two `pig -c -p` started at once in one project continue the same session. One
 * holds the lock; the other is refused with a message naming the holder and writes nothing.
 * The file never gets an interleaved or torn line.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSessionDir } from "../../src/session/paths.ts";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";
import { runCases } from "./figures.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function runPig(w: PigWorld, cwd: string, args: string[]) {
  const proc = Bun.spawn([pigBinary(), ...args], { cwd, env: w.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, stdout, stderr, pid: proc.pid };
}

test("two pig -c -p at once, 20 times: one is refused naming the holder; no interleaved or torn line", async () => {
  const w = await createWorld({ llm: { script: [] } });
  worlds.push(w);
  const cases = Array.from({ length: 20 }, (_, i) => i);
  const failures = await runCases(
    "two writers at once",
    cases,
    (i) => `round ${i}`,
    async (i) => {
      const cwd = tempDir("pig-writers-");
      w.llm.setScript([{ text: "first" }]);
      const seed = await runPig(w, cwd, ["-p", "start"]);
      if (seed.code !== 0) throw new Error(seed.stderr);
      const dir = defaultSessionDir(cwd, w.agentDir);
      const [name] = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
      const path = join(dir, name!);
      const before = readFileSync(path, "utf8");
      // The first request to arrive is held until the other pig has ended: the two overlap
      // however the machine schedules them.
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let answered = 0;
      w.llm.setScript([{ text: "second", repeat: 2 }]);
      w.llm.setBeforeAnswer(() => {
        answered++;
        if (answered === 1) return released;
        // A second request means both got past the lock.
        release();
      });
      const a = runPig(w, cwd, ["-c", "-p", `writer a ${i}`]);
      const b = runPig(w, cwd, ["-c", "-p", `writer b ${i}`]);
      const first = await Promise.race([a, b]);
      release();
      const results = await Promise.all([a, b]);
      w.llm.setBeforeAnswer(undefined);
      const refused = results.filter((r) => r.code !== 0);
      const ran = results.filter((r) => r.code === 0);
      if (refused.length !== 1 || ran.length !== 1) throw new Error(`exit codes ${results.map((r) => r.code).join(", ")}: ${results.map((r) => r.stderr).join(" | ")}`);
      if (first !== refused[0]) throw new Error("the refused pig was not the one that ended first");
      const message = refused[0]!.stderr;
      if (!message.includes(`Session ${path} is in use by pig process ${ran[0]!.pid}`)) throw new Error(`lock message does not name the holder: ${message}`);
      if (answered !== 1) throw new Error(`${answered} model requests; the refused pig must not ask the model`);
      const after = readFileSync(path, "utf8");
      if (!after.startsWith(before)) throw new Error("what was in the file changed");
      const added = after.slice(before.length);
      if (!added.endsWith("\n")) throw new Error("a torn line at the end");
      const lines = added.slice(0, -1).split("\n").map((l) => JSON.parse(l) as { type: string; message?: { role: string; content: { text?: string }[] } });
      const roles = lines.map((l) => l.message?.role ?? l.type);
      if (roles.join() !== "user,assistant") throw new Error(`appended: ${roles.join()}`);
      const winner = ran[0] === results[0] ? "a" : "b";
      if (lines[0]!.message!.content[0]!.text !== `writer ${winner} ${i}`) throw new Error("the appended prompt is not the running pig's");
    },
  );
  expect(failures).toEqual([]);
});
