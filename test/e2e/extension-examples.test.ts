/**
 * The example extensions in examples/extensions/, loaded together into one run of the built
 * binary: each registers what it says (tools in the request, commands that run) and their
 * handlers act on the session.
 */
import { afterAll, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const EXAMPLES = resolve(import.meta.dir, "..", "..", "examples", "extensions");
const ALL = ["permission-gate", "progress-tool", "word-count-command", "context-filter", "custom-compaction", "prompt-counter", "status-line"];
const flags = ALL.flatMap((name) => ["-e", join(EXAMPLES, `${name}.ts`)]);

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

test("the examples load into one run: the tool is offered and runs and the gate blocks a risky command without a UI", async () => {
  const w = await createWorld({
    files: { "a.txt": "one\ntwo\nthree\n" },
    llm: {
      script: {
        responses: [
          { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt"] } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./a.txt" } }] },
          { text: "done" },
        ],
      },
    },
  });
  worlds.push(w);
  const run = await w.run([...flags, "-p", "count the lines"]);
  expect(run.stderr).not.toContain("Failed to load extension");
  expect(run.code).toBe(0);
  const first = w.llm.requests[0]!.body as { tools: { function: { name: string } }[] };
  expect(first.tools.map((t) => t.function.name)).toContain("count_lines");
  const texts = w.llm.requests.map((r) => JSON.stringify(r.body));
  // The tool ran in the extension process and answered with the file's line count.
  expect(texts[1]).toContain("a.txt: 3");
  // Print mode has nobody to ask: the gate blocked the command, and the file is still there.
  expect(texts[2]).toContain("Blocked without confirmation: rm -rf ./a.txt");
  expect(await Bun.file(join(w.cwd, "a.txt")).exists()).toBe(true);
});

test("a command of an example runs in print mode without a model request", async () => {
  const w = await createWorld({});
  worlds.push(w);
  const run = await w.run([...flags, "-p", "/words one two three"]);
  expect(run.stderr).not.toContain("Failed to load extension");
  expect(run.code).toBe(0);
  expect(w.llm.requests.length).toBe(0);
});
