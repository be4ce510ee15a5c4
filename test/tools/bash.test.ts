import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CredentialVars } from "../../src/ai/credential-vars.ts";
import { createBashTool, type BashDetails } from "../../src/tools/bash.ts";
import { SpillFiles } from "../../src/tools/spill-files.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { tempDir } from "../helpers/tmp.ts";
import { errorOf, makeContext, run, textOf } from "./helpers.ts";
import { processAlive } from "../helpers/process-state.ts";

const bash = createBashTool();

async function waitUntil(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

describe("bash output", () => {
  test("returns stdout and stderr merged in the order they were written", async () => {
    const ctx = makeContext();
    const result = await run(bash, { command: "echo one; echo two >&2; echo three" }, ctx);
    expect(textOf(result)).toBe("one\ntwo\nthree\n");
    expect(result.details).toBeUndefined();
  });

  test("runs in the session directory", async () => {
    const ctx = makeContext();
    const result = await run(bash, { command: "pwd -P" }, ctx);
    expect(textOf(result)).toBe(`${realpathSync(ctx.cwd)}\n`);
  });

  test("says (no output) for a silent command", async () => {
    expect(textOf(await run(bash, { command: "true" }, makeContext()))).toBe("(no output)");
  });

  test("fails with the output and the exit code", async () => {
    const ctx = makeContext();
    expect(await errorOf(run(bash, { command: "echo oops >&2; exit 3" }, ctx))).toBe("oops\n\n\nCommand exited with code 3");
    expect(await errorOf(run(bash, { command: "exit 2" }, ctx))).toBe("(no output)\n\nCommand exited with code 2");
  });

  test("puts <agentDir>/bin first on PATH", async () => {
    const ctx = makeContext();
    const result = await run(bash, { command: 'echo "$PATH"' }, ctx);
    expect(textOf(result).split(":")[0]).toBe(join(ctx.agentDir, "bin"));
  });

  test("finds commands installed in <agentDir>/bin", async () => {
    const ctx = makeContext();
    mkdirSync(join(ctx.agentDir, "bin"));
    writeFileSync(join(ctx.agentDir, "bin", "pig-hello"), "#!/bin/sh\necho hello from bin\n", { mode: 0o755 });
    expect(textOf(await run(bash, { command: "pig-hello" }, ctx))).toBe("hello from bin\n");
  });

  test("reads nothing from stdin", async () => {
    const result = await run(bash, { command: "cat; echo done" }, makeContext());
    expect(textOf(result)).toBe("done\n");
  });

  test("prepends the configured command prefix", async () => {
    const tool = createBashTool({ shellCommandPrefix: "greeting=prefixed" });
    expect(textOf(await run(tool, { command: 'echo "$greeting"' }, makeContext()))).toBe("prefixed\n");
  });

  test("refuses a configured shell that does not exist", async () => {
    const tool = createBashTool({ shellPath: "/nonexistent/shell" });
    expect(await errorOf(run(tool, { command: "true" }, makeContext()))).toBe("Custom shell path not found: /nonexistent/shell");
  });

  test("refuses a working directory that does not exist", async () => {
    const ctx = makeContext(join(tempDir(), "gone"));
    expect(await errorOf(run(bash, { command: "true" }, ctx))).toBe(
      `Working directory does not exist: ${ctx.cwd}\nCannot execute bash commands.`,
    );
  });
});

describe("bash environment", () => {
  const given = { OPENAI_API_KEY: "sk-bash-env-3c1f", GH_TOKEN: "gh-bash-env-77aa", CORP_GATEWAY: "corp-bash-env-91", PIG_BASH_ENV_PLAIN: "plain" };
  const withEnv = async <T>(body: () => Promise<T>): Promise<T> => {
    Object.assign(process.env, given);
    try {
      return await body();
    } finally {
      for (const name of Object.keys(given)) delete process.env[name];
    }
  };

  test("commands run without credentials: the catalogue's, secret-looking names and the ones a configuration names", async () => {
    const tool = createBashTool({ credentials: () => new CredentialVars(["CORP_GATEWAY"]) });
    const text = textOf(await withEnv(() => run(tool, { command: "env" }, makeContext())));
    expect(text).toContain("PIG_BASH_ENV_PLAIN=plain");
    for (const value of [given.OPENAI_API_KEY, given.GH_TOKEN, given.CORP_GATEWAY]) expect(text).not.toContain(value);
  });

  test("without a configured rule the catalogue's and the patterns still apply", async () => {
    const text = textOf(await withEnv(() => run(createBashTool(), { command: "env" }, makeContext())));
    expect(text).toContain("PIG_BASH_ENV_PLAIN=plain");
    expect(text).not.toContain(given.OPENAI_API_KEY);
    expect(text).not.toContain(given.GH_TOKEN);
  });

  test("shellEnvPassthrough keeps the variables it names", async () => {
    const tool = createBashTool({ shellEnvPassthrough: ["GH_TOKEN"] });
    const text = textOf(await withEnv(() => run(tool, { command: "env" }, makeContext())));
    expect(text).toContain(`GH_TOKEN=${given.GH_TOKEN}`);
    expect(text).not.toContain(given.OPENAI_API_KEY);
  });
});

describe("bash truncation", () => {
  test("keeps the last 2000 lines, numbered over the whole output, with the full output saved", async () => {
    const result = await run(bash, { command: "seq 1 3000" }, makeContext());
    const text = textOf(result);
    const details = result.details as BashDetails;
    expect(text.startsWith("1001\n")).toBe(true);
    expect(details.fullOutputPath).toMatch(new RegExp(`^${tmpdir()}/pig-${process.getuid?.()}/${process.pid}-[0-9a-f]{12}/bash-[0-9a-f]{16}\\.log$`));
    expect(text.endsWith(`3000\n\n[Showing lines 1001-3000 of 3000. Full output: ${details.fullOutputPath}]`)).toBe(true);
    expect(readFileSync(details.fullOutputPath as string, "utf8")).toBe(Bun.spawnSync(["seq", "1", "3000"]).stdout.toString());
    expect(details.truncation?.totalLines).toBe(3000);
    expect(details.truncation?.truncatedBy).toBe("lines");
    rmSync(details.fullOutputPath as string);
  });

  test("reports the byte limit when a big line is dropped", async () => {
    const result = await run(bash, { command: "head -c 200000 /dev/zero | tr '\\0' x; echo; echo end" }, makeContext());
    const details = result.details as BashDetails;
    expect(textOf(result)).toBe(`end\n\n[Showing lines 2-2 of 2 (50.0KB limit). Full output: ${details.fullOutputPath}]`);
    expect(readFileSync(details.fullOutputPath as string).length).toBe(200005);
    rmSync(details.fullOutputPath as string);
  });

  test("shows the end of a single huge line, with its size", async () => {
    const result = await run(bash, { command: "head -c 300000 /dev/zero | tr '\\0' y" }, makeContext());
    const details = result.details as BashDetails;
    const text = textOf(result);
    expect(text.startsWith("y".repeat(51200) + "\n\n[Showing last 50.0KB of line 1 (line is 293.0KB). Full output: ")).toBe(true);
    expect(details.truncation?.lastLinePartial).toBe(true);
    expect(existsSync(details.fullOutputPath as string)).toBe(true);
    rmSync(details.fullOutputPath as string);
  });

  test("counts every line of a long output even after the kept tail was trimmed", async () => {
    // ~600 KB over 60000 lines: far more than the kept tail.
    const result = await run(bash, { command: "seq 100001 160000" }, makeContext());
    const details = result.details as BashDetails;
    expect(details.truncation?.totalLines).toBe(60000);
    expect(textOf(result)).toContain("[Showing lines 58001-60000 of 60000. Full output: ");
    rmSync(details.fullOutputPath as string);
  });
});

describe("bash spill files", () => {
  test("are new files only their owner can read, in a folder only their owner can enter", async () => {
    const ctx = makeContext(undefined, { spillFiles: new SpillFiles() });
    const result = await run(bash, { command: "seq 1 3000" }, ctx);
    const path = (result.details as BashDetails).fullOutputPath as string;
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(dirname(path))).mode & 0o777).toBe(0o700);
    expect(lstatSync(dirname(dirname(path))).uid).toBe(process.getuid?.() ?? 0);
  });

  test("a session's files are removed with its set; another set's stay", async () => {
    const session = new SpillFiles();
    const other = new SpillFiles();
    const mine = await run(bash, { command: "seq 1 3000" }, makeContext(undefined, { spillFiles: session }));
    const theirs = await run(bash, { command: "seq 1 3000" }, makeContext(undefined, { spillFiles: other }));
    const minePath = (mine.details as BashDetails).fullOutputPath as string;
    const theirPath = (theirs.details as BashDetails).fullOutputPath as string;
    session.removeAll();
    expect(existsSync(minePath)).toBe(false);
    expect(readFileSync(theirPath, "utf8")).toBe(Bun.spawnSync(["seq", "1", "3000"]).stdout.toString());
    other.removeAll();
  });
});

describe("bash streaming", () => {
  test("sends an empty update first, then the output so far", async () => {
    const ctx = makeContext();
    const go = join(ctx.cwd, "go");
    const updates: ToolResult<BashDetails | undefined>[] = [];
    // "there" is written only once an update has shown "hi" (or after 10 s, to fail rather than hang).
    const command = `echo hi; i=0; while [ ! -e ${go} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; echo there`;
    await bash.execute(
      "id",
      { command },
      new AbortController().signal,
      (update) => {
        updates.push(update);
        if (textOf(update) === "hi\n") writeFileSync(go, "");
      },
      ctx,
    );
    expect(updates[0]).toEqual({ content: [], details: undefined });
    const texts = updates.slice(1).map((u) => textOf(u));
    expect(texts).toContain("hi\n");
    expect(texts[texts.length - 1]).toBe("hi\nthere\n");
    expect(updates[1]?.details).toEqual({});
  });

  test("sends updates at most every 100 ms", async () => {
    const updates: { at: number }[] = [];
    await bash.execute(
      "id",
      { command: "for i in $(seq 1 40); do echo $i; sleep 0.01; done" },
      new AbortController().signal,
      () => updates.push({ at: Date.now() }),
      makeContext(),
    );
    // The first update is the empty start; the last one is sent when the command ends.
    const streamed = updates.slice(1, -1);
    const gaps = streamed.slice(1).map((u, i) => u.at - (streamed[i]?.at ?? 0));
    expect(streamed.length).toBeGreaterThan(2);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(95);
  });
});

describe("bash ending", () => {
  test("aborting kills the command's whole process group and reports the output so far", async () => {
    const ctx = makeContext();
    const pidFile = join(ctx.cwd, "child.pid");
    const controller = new AbortController();
    const pending = run(bash, { command: `echo hi; sleep 30 & echo $! > ${pidFile}; wait` }, ctx, { signal: controller.signal });
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"))).toBe(true);
    const started = Date.now();
    controller.abort();
    expect(await errorOf(pending)).toBe("hi\n\n\nCommand aborted");
    // Far less than the 30 s sleep: the abort killed it.
    expect(Date.now() - started).toBeLessThan(10_000);
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(await waitUntil(() => !processAlive(child))).toBe(true);
  });

  test("a timeout kills the command and says after how long", async () => {
    const started = Date.now();
    // Two seconds leave bash time to print "start" on a busy machine.
    const message = await errorOf(run(bash, { command: "echo start; sleep 30", timeout: 2 }, makeContext()));
    expect(message).toBe("start\n\n\nCommand timed out after 2 seconds");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("a timeout without output reports only the timeout", async () => {
    expect(await errorOf(run(bash, { command: "sleep 30", timeout: 0.2 }, makeContext()))).toBe("Command timed out after 0.2 seconds");
  });

  test("an already aborted call runs nothing", async () => {
    const ctx = makeContext();
    const controller = new AbortController();
    controller.abort();
    expect(await errorOf(run(bash, { command: `touch ${join(ctx.cwd, "ran")}` }, ctx, { signal: controller.signal }))).toBe(
      "Command aborted",
    );
    expect(existsSync(join(ctx.cwd, "ran"))).toBe(false);
  });

  test("returns promptly when a background child keeps the output pipe open", async () => {
    const ctx = makeContext();
    const started = Date.now();
    const result = await run(bash, { command: `sleep 30 & echo $! > ${join(ctx.cwd, "bg.pid")}; echo started` }, ctx);
    expect(textOf(result)).toBe("started\n");
    // Not the background child's 30 s.
    expect(Date.now() - started).toBeLessThan(10_000);
    process.kill(Number(readFileSync(join(ctx.cwd, "bg.pid"), "utf8")), "SIGKILL");
  });

  test("returns promptly when a daemonized child escapes the process group", async () => {
    const ctx = makeContext();
    const pidFile = join(ctx.cwd, "daemon.pid");
    const started = Date.now();
    // The parent ends once the daemon has written its pid, so the daemon is out of the group by then.
    const result = await run(bash, { command: `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' & while [ ! -s ${pidFile} ]; do sleep 0.01; done; echo parent done` }, ctx);
    expect(textOf(result)).toBe("parent done\n");
    // Not the daemon's 30 s.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await waitUntil(() => existsSync(pidFile))).toBe(true);
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
  });
});

describe("runShell", () => {
  test("a consumer that fails stops the command and the call fails with its error", async () => {
    const { resolveShell, runShell } = await import("../../src/tools/shell.ts");
    const ctx = makeContext();
    let chunks = 0;
    const started = Date.now();
    const outcome = runShell({
      // Endless output: without the kill, the command would run until the 20 s test timeout.
      command: "yes",
      cwd: ctx.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      shell: resolveShell(),
      onData: () => {
        if (++chunks === 3) throw new Error("disk full");
      },
    });
    await expect(outcome).rejects.toThrow("disk full");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("the shell reads no startup file: the group guard's socket is not on its stdin", async () => {
    const { resolveShell, runShell } = await import("../../src/tools/shell.ts");
    const home = tempDir("pig-home-");
    writeFileSync(join(home, ".bashrc"), "echo bashrc-was-read\n");
    const out: string[] = [];
    const outcome = await runShell({
      command: "echo ran",
      cwd: home,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
      shell: resolveShell(),
      onData: (chunk) => out.push(chunk.toString()),
    });
    expect(outcome.exitCode).toBe(0);
    expect(out.join("")).toBe("ran\n");
  });

  test("a command's wait does not wait for the group guard, and descriptor 3 is not open in it", async () => {
    const { resolveShell, runShell } = await import("../../src/tools/shell.ts");
    const out: string[] = [];
    const outcome = await runShell({
      command: "sleep 0.1 & wait; echo waited; [ -e /dev/fd/3 ] && echo fd3-open || echo fd3-closed",
      cwd: tempDir(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      shell: resolveShell(),
      timeoutMs: 15_000,
      onData: (chunk) => out.push(chunk.toString()),
    });
    expect(outcome.timedOut).toBe(false);
    expect(out.join("")).toBe("waited\nfd3-closed\n");
  });

  // pig reads a command's output until its pipes close (with a grace for background jobs that
  // keep them open): a guard holding them would make every command wait out that grace.
  test("the group guard holds none of a command's output, and adds no process to the command's group", async () => {
    const { resolveShell, runShell } = await import("../../src/tools/shell.ts");
    const { guardPid } = await import("../../src/util/group-guard.ts");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    // The guard starts with the first guarded command (where groups are guarded, as on this platform).
    await runShell({ command: "true", cwd: tempDir(), env, shell: resolveShell(), onData: () => undefined });
    const guard = guardPid();
    expect(guard).toBeGreaterThan(0);
    const out: string[] = [];
    const command = [
      "me=$$; pipe=$(readlink /proc/$me/fd/1); group=$(cut -d' ' -f5 /proc/$me/stat); members=0",
      `for fd in /proc/${guard}/fd/*; do [ "$(readlink $fd)" = "$pipe" ] && echo "held by the guard"; done`,
      `[ -e /proc/${guard}/fd/3 ] && echo "the guard reads its socket"`,
      'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$me" ] && continue',
      '  set -- $(cut -d" " -f4,5 $d/stat 2>/dev/null) x x; [ "$1" != "$me" ] && [ "$2" = "$group" ] && members=$((members+1))',
      'done; echo "others in the group: $members"',
    ].join("\n");
    const outcome = await runShell({ command, cwd: tempDir(), env, shell: resolveShell(), timeoutMs: 15_000, onData: (chunk) => out.push(chunk.toString()) });
    expect(outcome.exitCode).toBe(0);
    // (The loop's own $(…) subshells, children of the shell, are not counted.)
    const text = out.join("");
    expect(text).toContain("the guard reads its socket\n");
    expect(text).not.toContain("held by");
    expect(Number(/others in the group: (\d+)/.exec(text)?.[1])).toBe(0);
  });
});
