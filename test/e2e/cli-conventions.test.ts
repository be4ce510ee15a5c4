/**
 * What a new user and a script expect of the command line, through the built binary: usage and
 * help texts, `--resume` refusing what it cannot go with, exit codes that tell a failure from a
 * success, `@path` arguments that say what is wrong with them, and output to a pipe with no
 * escape sequences in it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPig } from "../helpers/binary.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { tempDir } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(options: WorldOptions = {}): Promise<PigWorld> {
  const w = await createWorld({ llm: { mode: "text" }, ...options });
  worlds.push(w);
  return w;
}

/** An agent directory with nothing in it: no models.json, no keys in the environment. */
function emptyAgent(): Record<string, string> {
  const agent = tempDir("pig-agent-");
  return { PIG_CODING_AGENT_DIR: agent, HOME: agent };
}

describe("help", () => {
  test("pig --help shows how to start: interactive, with a message, -c and -r", () => {
    const result = runPig(["--help"]);
    expect(result.code).toBe(0);
    for (const usage of ["pig [options] [@files...] [messages...]", 'pig "message"', "pig -c ", "pig -r, --resume", "-r, --resume"]) {
      expect(result.stdout).toContain(usage);
    }
  });

  test("pig sessions --help lists the commands; pig sessions <command> --help shows one", () => {
    const all = runPig(["sessions", "--help"]);
    expect(all.code).toBe(0);
    for (const command of ["list", "show", "tree", "name", "label"]) expect(all.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    const list = runPig(["sessions", "list", "--help"]);
    expect(list).toMatchObject({ code: 0, stderr: "" });
    expect(list.stdout).toStartWith("Usage: pig sessions list [--all] [--json]");
    expect(runPig(["sessions", "label", "-h"]).stdout).toStartWith("Usage: pig sessions label <session> <entryId> [label]");
  });

  test("a sessions usage error points at the sessions help, and suggests a near command", () => {
    const unknown = runPig(["sessions", "lst"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("pig: sessions: unknown command 'lst' (did you mean list?)\nRun 'pig sessions --help' for usage.\n");
    const missing = runPig(["sessions", "show"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Run 'pig sessions show --help' for usage.");
  });
});

describe("--resume", () => {
  test("goes with interactive mode only: -p, --mode, -c, --session and --no-session are usage errors naming the flag", () => {
    const cases: [string[], string][] = [
      [["-r", "-p", "hi"], "pig: -r cannot be combined with -p: the session picker needs interactive mode"],
      [["--resume", "--mode", "json"], "pig: --resume cannot be combined with --mode: the session picker needs interactive mode"],
      [["--print", "-r"], "pig: -r cannot be combined with --print: the session picker needs interactive mode"],
      [["-r", "-c"], "pig: -r cannot be combined with -c: both choose the session"],
      [["-r", "--session", "abc"], "pig: -r cannot be combined with --session: both choose the session"],
      [["-r", "--no-session"], "pig: -r cannot be combined with --no-session: both choose the session"],
    ];
    for (const [args, message] of cases) {
      const result = runPig(args, { env: emptyAgent() });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`${message}\nRun 'pig --help' for usage.\n`);
    }
  });

  test("without a terminal on stdin it is refused before anything runs", () => {
    const result = runPig(["-r"], { stdin: "some text", env: emptyAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("-r/--resume opens a session picker and needs a terminal");
  });
});

describe("--list-models", () => {
  test("no model available: exit code 1, and how to add one", () => {
    const result = runPig(["--list-models"], { env: emptyAgent() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toStartWith("pig: No models available.");
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("models.json");
  });

  test("models are listed with exit code 0; a search that matches none is exit code 1", async () => {
    const w = await world();
    const listed = await w.run(["--list-models"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("fake-reasoner");
    const none = await w.run(["--list-models", "no-such-model"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`pig: No available model matches "no-such-model"; 'pig --list-models' lists them all.\n`);
  });
});

describe("exit codes of a run", () => {
  const failing: Script = { responses: [{ error: { status: 400, message: "bad request body" } }] } as unknown as Script;

  test("--mode json exits 1 when the answer failed, as -p does; 0 when it came", async () => {
    for (const args of [["--mode", "json", "go"], ["-p", "go"]]) {
      const w = await world({ llm: { script: failing }, settings: { retry: { enabled: false } } });
      const result = await w.run(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("400 bad request body");
    }
    const ok = await world();
    const result = await ok.run(["--mode", "json", "go"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).type)).toContain("agent_end");
  });
});

describe("@path arguments", () => {
  test("a directory is named as one, with a file of it to attach instead; nothing is sent", async () => {
    const w = await world();
    mkdirSync(join(w.cwd, "src"));
    writeFileSync(join(w.cwd, "src", "main.ts"), "x");
    writeFileSync(join(w.cwd, "src", "util.ts"), "y");
    mkdirSync(join(w.cwd, "empty"));
    const dir = await w.run(["-p", "@src", "explain"]);
    expect(dir).toMatchObject({ code: 1, stdout: "", stderr: "pig: @src is a directory; attach files inside it, e.g. @src/main.ts\n" });
    const trailing = await w.run(["--mode", "json", "@src/", "explain"]);
    expect(trailing.stderr).toBe("pig: @src/ is a directory; attach files inside it, e.g. @src/main.ts\n");
    expect((await w.run(["-p", "@empty"])).stderr).toBe("pig: @empty is an empty directory; attach files, not directories\n");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("a missing file is named as given and where pig looked", async () => {
    const w = await world();
    const result = await w.run(["-p", "@notes/todo.md", "go"]);
    expect(result).toMatchObject({ code: 1, stderr: `pig: @notes/todo.md: no such file: ${join(w.cwd, "notes", "todo.md")}\n` });
    expect(w.llm.requests).toHaveLength(0);
  });
});

describe("output to a pipe", () => {
  test("holds no escape sequence or carriage return, even with FORCE_COLOR: help, the startup report, a retry, every mode", async () => {
    const w = await world({
      llm: { script: [{ error: { status: 503, message: "overloaded" } }, { text: "ok" }] },
      settings: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10 } },
    });
    const env = { FORCE_COLOR: "1", CLICOLOR_FORCE: "1", TERM: "xterm-256color", COLORTERM: "truecolor" };
    const runs = [
      await w.run(["--verbose", "-p", "hi"], { env }),
      await w.run(["--mode", "json", "hi"], { env }),
      await w.run(["--mode", "rpc"], { env, stdin: '{"type":"prompt","message":"hi"}\n' }),
      await w.run(["--help"], { env }),
      await w.run(["sessions", "--help"], { env }),
      await w.run(["sessions", "list"], { env }),
      await w.run(["--bogus"], { env }),
    ];
    // The retry and the startup report did reach stderr: there was something to colour.
    expect(runs[0]!.stderr).toContain("retry 1/2");
    expect(runs[0]!.stdout).toBe("ok\n");
    for (const run of runs) {
      expect(run.stdout + run.stderr).not.toContain("\x1b");
      expect(run.stdout + run.stderr).not.toContain("\r");
    }
  });
});
