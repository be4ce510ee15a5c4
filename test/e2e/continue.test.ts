/**
 * Continuing every session file Pi wrote: `pig --session <copy> -p "NEXT: …"` must send the
 * request Pi sent for the same file (model and thinking restored, context rebuilt, messages
 * converted), up to ids, paths and our own wording.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blankOwnWords, Normalizer, sameOutputRoom } from "../helpers/normalize.ts";
import { CONTINUE_073, type ContinueCase } from "../helpers/fixture-worlds.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { FIXTURES, FIXTURES_087 } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

interface Case extends ContinueCase {
  /** The Pi that wrote the file and the request (default 0.73.1). */
  pi?: "0.73.1" | "0.87.1";
}

const CASES: Case[] = [
  ...CONTINUE_073,
  { pi: "0.87.1", file: "01-basic-text" },
  { pi: "0.87.1", file: "02-builtin-tools", args: ["--tools", "read,write,edit,bash,grep,find,ls"] },
  { pi: "0.87.1", file: "03-model-thinking-name" },
  { pi: "0.87.1", file: "05-bash-execution" },
  { pi: "0.87.1", file: "06-compaction-manual" },
  { pi: "0.87.1", file: "07-compaction-auto", contextWindow: 20000 },
  { pi: "0.87.1", file: "08-branching-tree" },
  { pi: "0.87.1", file: "10-extension-entries" },
];

describe.each(CASES.map((c) => ({ ...c, pi: c.pi ?? "0.73.1" })))("continue $file (Pi $pi)", (c) => {
  test("sends the request Pi sent", async () => {
    const world = await createWorld({
      ...(c.api ? { api: c.api } : {}),
      ...(c.input ? { input: c.input } : {}),
      ...(c.contextWindow ? { contextWindow: c.contextWindow } : {}),
      llm: { mode: "text" },
    });
    worlds.push(world);
    const fixtureName = c.file.split(".")[0]!;
    const dir = c.pi === "0.87.1" ? FIXTURES_087 : FIXTURES;
    const fixtureCwd = c.pi === "0.87.1" ? `/home/dev/fx087/${fixtureName}/work` : `/home/dev/fx/${fixtureName}/work`;
    // The copy runs in our working directory: only its header's cwd is changed.
    const lines = readFileSync(join(dir, `${c.file}.jsonl`), "utf8").split("\n");
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), cwd: world.cwd });
    const copy = join(world.cwd, "session-copy.jsonl");
    writeFileSync(copy, lines.join("\n"));

    const result = await world.run(["--session", copy, ...(c.args ?? []), "-p", "NEXT: continue from this session"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ok\n");

    // pig follows Pi 0.87.1: a 0.73.1 file is expected to be continued as Pi 0.87.1 continues it
    // (scripts/compat/pi-continue.ts old-files recorded those requests).
    const expectedFile = c.pi === "0.87.1" ? `${c.file}.next-request.json` : `${c.file}.next-request-0.87.1.json`;
    const expected = JSON.parse(readFileSync(join(dir, "wire", expectedFile), "utf8"));
    const first = world.llm.requests[0]!;
    expect(first.path).toBe(expected.path);
    const ours = new Normalizer([[world.cwd, fixtureCwd]]).value(blankOwnWords(first.body as Record<string, unknown>)) as Record<string, unknown>;
    const theirs = new Normalizer().value(blankOwnWords(expected.body)) as Record<string, unknown>;
    // An output cap lowered to fit the window rests on each agent's own words (sameOutputRoom).
    expect(sameOutputRoom(ours, theirs)).toEqual(theirs);

    // The continued file keeps every byte it had; pig only appended.
    const after = readFileSync(copy, "utf8");
    expect(after.startsWith(lines.join("\n"))).toBe(true);
  });
});
