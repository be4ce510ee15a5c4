/**
 * The SDK's RPC client on its own: the failure kinds of a run, where it looks for pig, and what
 * a call waiting on pig gets when pig refuses it, exits, or writes what is not JSON (a stand-in
 * `pig` written as a shell script, and the real binary for a refused command).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findPigBinary, type BinarySearchPlaces } from "../../src/sdk/find-binary.ts";
import { promptFailure, promptResult } from "../../src/sdk/prompt-failure.ts";
import { RpcClient } from "../../src/sdk/rpc-client.ts";
import { RpcCommandError, RpcConnectionError } from "../../src/sdk/rpc-connection.ts";
import type { RpcEvent } from "../../src/sdk/rpc-types.ts";
import { sessionArgs } from "../../src/sdk/rpc-session.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";

function executable(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

describe("failure kinds", () => {
  const answer = (stopReason: string, errorMessage?: string): RpcEvent =>
    ({
      type: "message_end",
      message: { role: "assistant", content: [{ type: "text", text: "partial" }], stopReason, ...(errorMessage ? { errorMessage } : {}), usage: { input: 0, output: 0, cacheRead: 0 } },
    }) as unknown as RpcEvent;

  test("a run's last answer decides: an error (by its kind), a cut-off answer and an abort fail; a finished one does not", () => {
    expect(promptFailure(promptResult("started", [answer("error", "500 boom")]))?.kind).toBe("server_error");
    const auth = promptFailure(promptResult("started", [answer("error", "401 invalid x-api-key")]));
    expect(auth?.kind).toBe("auth");
    expect(auth?.message).toBe("401 invalid x-api-key");
    expect(promptFailure(promptResult("started", [answer("error", "Connection error. (ECONNREFUSED)")]))?.kind).toBe("unreachable");
    expect(promptFailure(promptResult("started", [answer("error", "400 prompt is too long: 210000 tokens > 200000 maximum")]))?.kind).toBe("context_overflow");
    const cut = promptFailure(promptResult("started", [answer("length")]));
    expect(cut?.kind).toBe("cut_off");
    expect(cut?.result.text).toBe("partial");
    expect(promptFailure(promptResult("started", [answer("aborted")]))?.kind).toBe("aborted");
    expect(promptFailure(promptResult("started", [answer("stop")]))).toBeUndefined();
    expect(promptFailure(promptResult("handled", []))).toBeUndefined();
  });

  test("a prompt pig accepted and could not run fails with pig's words", () => {
    const failure = promptFailure(promptResult("started", [{ type: "prompt_error", error: "No API key for fake" }]));
    expect(failure?.kind).toBe("prompt_error");
    expect(failure?.message).toBe("No API key for fake");
  });
});

describe("findPigBinary", () => {
  const places = (over: Partial<BinarySearchPlaces>): BinarySearchPlaces => ({
    env: {},
    platform: "linux",
    arch: "x64",
    musl: false,
    resolve: (s) => {
      throw new Error(`Cannot find module ${s}`);
    },
    ...over,
  });

  test("the binary option and PIG_BINARY are used as given; one that is not an executable is an error naming it", () => {
    const dir = tempDir("pig-find-");
    const pig = executable(dir, "pig", "#!/bin/sh\n");
    expect(findPigBinary(pig, places({}))).toBe(pig);
    expect(findPigBinary(undefined, places({ env: { PIG_BINARY: pig } }))).toBe(pig);
    expect(() => findPigBinary(join(dir, "nope"), places({}))).toThrow(`the binary option names ${join(dir, "nope")}, which is not an executable file`);
    expect(() => findPigBinary(undefined, places({ env: { PIG_BINARY: dir } }))).toThrow(`PIG_BINARY names ${dir}, which is not an executable file`);
  });

  test("the installed binary package of the machine's target comes before PATH", () => {
    const pkg = tempDir("pig-find-pkg-");
    mkdirSync(join(pkg, "bin"));
    writeFileSync(join(pkg, "package.json"), "{}");
    const inPackage = executable(pkg, "bin/pig", "#!/bin/sh\n");
    const onPath = tempDir("pig-find-path-");
    executable(onPath, "pig", "#!/bin/sh\n");
    const asked: string[] = [];
    const found = findPigBinary(
      undefined,
      places({ musl: true, env: { PATH: onPath }, resolve: (s) => (asked.push(s), join(pkg, "package.json")) }),
    );
    expect(found).toBe(inPackage);
    expect(asked).toEqual(["pig-coding-agent-linux-x64-musl/package.json"]);
    expect(findPigBinary(undefined, places({ env: { PATH: `/nonexistent:${onPath}` } }))).toBe(join(onPath, "pig"));
  });

  test("nothing found: the error names every place it looked", () => {
    expect(() => findPigBinary(undefined, places({ env: { PATH: "/nonexistent" } }))).toThrow(
      "pig: no pig binary found; looked at the binary option (not given), PIG_BINARY (not set), the package pig-coding-agent-linux-x64 (not installed), pig on PATH (not found).",
    );
    expect(() => findPigBinary(undefined, places({ platform: "freebsd", env: {} }))).toThrow("a binary package for freebsd x64 (pig is not released for it)");
  });
});

describe("RpcClient and a pig that misbehaves", () => {
  test("pig exits: the waiting call fails with its exit code and the end of its stderr", async () => {
    const pig = executable(tempDir("pig-fake-"), "pig", "#!/bin/sh\nread line\necho 'no model configured' >&2\nexit 3\n");
    const client = new RpcClient({ binary: pig });
    await client.start();
    const failure = await client.getState().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcConnectionError);
    expect((failure as RpcConnectionError).message).toBe("pig rpc: pig exited with code 3: no model configured");
    expect((failure as RpcConnectionError).exitCode).toBe(3);
    // Later calls fail at once with the same reason.
    expect(() => client.getState()).toThrow("pig exited with code 3");
  });

  test("a line that is not JSON fails the waiting call, naming the line", async () => {
    const pig = executable(tempDir("pig-fake-"), "pig", "#!/bin/sh\nread line\necho 'Welcome to pig!'\ncat >/dev/null\n");
    const client = new RpcClient({ binary: pig });
    await client.start();
    await expect(client.getState()).rejects.toThrow("pig rpc: pig wrote a line that is not JSON: Welcome to pig!");
    await client.stop();
  });

  test("a program that cannot run is an error naming it", async () => {
    const dir = tempDir("pig-fake-");
    const broken = executable(dir, "pig", "#!/nonexistent/interpreter\n");
    await expect(new RpcClient({ binary: broken }).start()).rejects.toThrow(`pig rpc: could not run ${broken}:`);
  });

  test("a command pig refuses rejects with an RpcCommandError carrying pig's message", async () => {
    const world = await createWorld();
    try {
      const client = new RpcClient({ binary: pigBinary(), cwd: world.cwd, env: world.env, args: ["--no-session"] });
      await client.start();
      const failure = await client.fork("no-such-entry").catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RpcCommandError);
      expect((failure as RpcCommandError).command).toBe("fork");
      expect((failure as RpcCommandError).message).toStartWith("pig rpc fork: ");
      // The client goes on working after a refusal.
      expect((await client.getState()).isStreaming).toBe(false);
      await client.stop();
    } finally {
      await world.close();
    }
  });
});

describe("RpcClient.prompt and its signal", () => {
  test("a run whose lines come in the same read as the response is the prompt's; a settle before the response is not", async () => {
    const answer = JSON.stringify({ type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "all at once" }], stopReason: "stop" } });
    const lines = [
      JSON.stringify({ type: "agent_settled", aborted: false }),
      JSON.stringify({ type: "response", id: "sdk-1", command: "prompt", success: true, data: { disposition: "started" } }),
      answer,
      JSON.stringify({ type: "agent_settled", aborted: false }),
    ];
    // One printf: one write, so the client reads the response and the run together.
    const pig = executable(tempDir("pig-fake-"), "pig", `#!/bin/sh\nread line\nprintf '%s\\n' ${lines.map((l) => `'${l}'`).join(" ")}\ncat >/dev/null\n`);
    const client = new RpcClient({ binary: pig });
    await client.start();
    const result = await client.prompt("hi");
    expect(result.text).toBe("all at once");
    expect(result.events.map((e) => e.type)).toEqual(["message_end", "agent_settled"]);
    await client.stop();
  });

  test("aborting the signal while the answer is held stops the run: prompt() rejects with kind aborted", async () => {
    let arrived = (): void => undefined;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const world = await createWorld({
      llm: {
        script: [{ text: "too late" }],
        beforeAnswer: async () => {
          arrived();
          await held;
        },
      },
    });
    try {
      const client = new RpcClient({ binary: pigBinary(), cwd: world.cwd, env: world.env, args: ["--no-session"] });
      await client.start();
      const controller = new AbortController();
      const prompt = client.prompt("hi", { signal: controller.signal }).catch((e: unknown) => e);
      await requested;
      controller.abort();
      const failure = await prompt;
      release();
      expect(failure).toMatchObject({ name: "PromptError", kind: "aborted" });
      expect((await client.getState()).isStreaming).toBe(false);
      await client.stop();
    } finally {
      release();
      await world.close();
    }
  });
});

describe("createAgentSession over RPC: the options as pig's flags", () => {
  test("each option becomes its flag; the project is untrusted unless the program says so", () => {
    expect(sessionArgs({})).toEqual(["--no-trust"]);
    expect(
      sessionArgs({
        session: "memory",
        sessionDir: "/s",
        provider: "fake",
        model: "fake-model",
        apiKey: "k",
        thinkingLevel: "high",
        piglet: "reviewer",
        tools: ["read", "grep"],
        systemPrompt: "Be brief.",
        appendSystemPrompt: "Also kind.",
        skills: false,
        promptTemplates: false,
        contextFiles: false,
        trustProject: true,
        extensions: ["a.ts", "b.ts"],
        noExtensions: true,
      }),
    ).toEqual([
      "--no-session", "--session-dir", "/s", "--provider", "fake", "--model", "fake-model", "--api-key", "k", "--thinking", "high",
      "--piglet", "reviewer", "--tools", "read,grep", "--system-prompt", "Be brief.", "--append-system-prompt", "Also kind.",
      "--no-skills", "--no-prompt-templates", "--no-context-files", "--trust", "--extension", "a.ts", "--extension", "b.ts", "--no-extensions",
    ]);
    expect(sessionArgs({ session: "continue", tools: [] })).toEqual(["--continue", "--no-tools", "--no-trust"]);
    expect(sessionArgs({ session: { path: "/x.jsonl" } })).toEqual(["--session", "/x.jsonl", "--no-trust"]);
  });

  test("custom tools and settings overrides cannot cross to the pig process: the error says what to do instead", () => {
    const tool = { name: "weather" } as AnyTool;
    expect(() => sessionArgs({ customTools: [tool] })).toThrow("customTools (weather) run in your program");
    expect(() => sessionArgs({ customTools: [tool] })).toThrow("Register the tool in an extension");
    expect(() => sessionArgs({ settings: { quietStartup: true } })).toThrow("Put them in settings.json of the agent directory");
  });
});
