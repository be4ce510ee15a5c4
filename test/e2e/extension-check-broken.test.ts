/**
 * `pig extension check` on extensions that never get as far as the handshake, through the built
 * binary: a manifest whose program is missing or not executable fails `launch` with the path it
 * tried and the system's reason, with no stack trace and the `--json` report still printed; a
 * process that dies at start keeps its stderr in the report where it failed; and the launch
 * checks that need a connection (`launch.bad-token`, `launch.version`) are never passed for a
 * process that did not connect — not run when it exited first, failed when it stayed silent.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

type Result = { name: string; status: "pass" | "fail" | "skip"; detail: string; stderr?: string };

interface Checked {
  code: number;
  stdout: string;
  stderr: string;
}

async function check(args: string[]): Promise<Checked> {
  const proc = Bun.spawn([pigBinary(), "extension", "check", ...args], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function results(stdout: string): Result[] {
  return (JSON.parse(stdout) as { results: Result[] }).results;
}

const byName = (list: Result[]) => Object.fromEntries(list.map((r) => [r.name, r]));

/** A directory holding a manifest whose command is `program`, and the script at that path when `script` is given. */
function extension(script: string | undefined, mode = 0o755): { dir: string; program: string } {
  const dir = tempDir("pig-check-broken-");
  const program = join(dir, "run.sh");
  if (script !== undefined) {
    writeFileSync(program, script);
    chmodSync(program, mode);
  }
  writeFileSync(join(dir, "pig-extension.json"), JSON.stringify({ name: "broken", command: [program] }));
  return { dir, program };
}

describe("a program that cannot be started", () => {
  test("missing: launch fails naming the path and ENOENT, the launch checks are not run, --json is printed", async () => {
    const { dir, program } = extension(undefined);
    const run = await check(["--json", dir]);
    expect(run.stderr).toBe("");
    const found = byName(results(run.stdout));
    expect(found.launch).toEqual({ name: "launch", status: "fail", detail: `the program could not be started: ENOENT: ${program} does not exist` });
    expect(found["launch.bad-token"]).toEqual({ name: "launch.bad-token", status: "skip", detail: "not run: the program could not be started" });
    expect(found["launch.version"]?.status).toBe("skip");
    expect(run.code).toBe(1);
  });

  test("not executable: launch fails naming the path and EACCES, and says what to do", async () => {
    const { dir, program } = extension("#!/bin/sh\nexit 0\n", 0o644);
    const run = await check(["--json", dir]);
    expect(run.stderr).toBe("");
    expect(byName(results(run.stdout)).launch).toEqual({
      name: "launch",
      status: "fail",
      detail: `the program could not be started: EACCES: ${program} cannot be run (it is not executable: chmod +x it)`,
    });
    expect(run.code).toBe(1);
  });

  test("a missing program on PATH, given after --, is named as not found on PATH, in the text report too", async () => {
    const run = await check(["--", "pig-no-such-extension-program", "--serve"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("✗ launch");
    expect(run.stdout).toContain("ENOENT: pig-no-such-extension-program was not found on PATH");
    expect(run.stdout).toMatch(/0 passed, 1 failed, 2 skipped\n$/);
    expect(run.code).toBe(1);
  });
});

describe("a process that never connects", () => {
  test("one that dies at start: its stderr is kept with the failed launch, and no launch check passes", async () => {
    const { dir } = extension('#!/bin/sh\necho "fatal: no config at ~/.broken.toml" >&2\nexit 3\n');
    const run = await check(["--json", dir]);
    const found = byName(results(run.stdout));
    expect(found.launch?.status).toBe("fail");
    expect(found.launch?.detail).toContain("exited (code 3)");
    expect(found.launch?.stderr).toBe("fatal: no config at ~/.broken.toml");
    expect(found["launch.bad-token"]).toEqual({
      name: "launch.bad-token",
      status: "skip",
      detail: "not run: it exited with code 3 without connecting, so a refused token was never tried",
    });
    expect(found["launch.version"]?.status).toBe("skip");
    expect(run.code).toBe(1);

    // The text report shows the same stderr under the check that failed.
    const text = await check([dir]);
    expect(text.stdout).toMatch(/✗ launch {2,}.*exited \(code 3\).*\n {6}its stderr:\n {6}│ fatal: no config at ~\/\.broken\.toml\n/);
  });

  test("one that stays silent: launch.bad-token and launch.version fail, saying it never connected", async () => {
    const { dir } = extension('#!/bin/sh\necho "waiting for nothing" >&2\nexec sleep 60\n');
    const run = await check(["--json", "--limit", "1000", dir]);
    const found = byName(results(run.stdout));
    expect(found.launch?.status).toBe("fail");
    expect(found.launch?.stderr).toBe("waiting for nothing");
    expect(found["launch.bad-token"]?.status).toBe("fail");
    expect(found["launch.bad-token"]?.detail).toBe("it never connected to the socket in 1000 ms (killed); a refused token was not tried");
    expect(found["launch.version"]?.status).toBe("fail");
    expect(run.code).toBe(1);
  });
});
