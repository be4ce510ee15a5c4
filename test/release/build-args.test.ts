// scripts/build.ts refuses what it cannot build before it starts building: each refusal names
// what is at fault and shows the usage, with exit status 2.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";

const BUILD = join(import.meta.dir, "..", "..", "scripts", "build.ts");

function build(...args: string[]): { code: number | null; stderr: string } {
  const proc = Bun.spawnSync([process.execPath, BUILD, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, stderr: proc.stderr.toString() };
}

describe("scripts/build.ts refuses", () => {
  test("an unknown option", () => {
    const r = build("--frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option --frobnicate");
    expect(r.stderr).toContain("usage: bun scripts/build.ts");
  });

  test("more than one output file", () => {
    const dir = tempDir("pig-build-args-");
    const r = build(join(dir, "a"), join(dir, "b"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("one output file, not 2");
  });

  test("an output file whose folder cannot be made, naming it", () => {
    const dir = tempDir("pig-build-args-");
    const file = join(dir, "plain-file");
    writeFileSync(file, "");
    const out = join(file, "pig");
    const r = build(out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot make the folder of ${out}`);
    expect(r.stderr).toContain("usage: bun scripts/build.ts");
  });
});
