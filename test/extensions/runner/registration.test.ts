import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pigBinary } from "../../helpers/binary.ts";
import { fixture, RunnerHarness } from "./harness.ts";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

async function start(load: string[], options: Partial<ConstructorParameters<typeof RunnerHarness>[0]> = {}): Promise<RunnerHarness> {
  harness = new RunnerHarness({ load, ...options });
  await harness.start();
  await harness.ready();
  return harness;
}

describe("extension runner registration", () => {
  test("registers tools, commands, shortcuts, flags, renderers and events, then reports ready", async () => {
    const path = fixture("ts", "kinds.ts");
    const h = await start([path]);
    expect(h.find("ready")?.params).toEqual({ extension: path });
    const reg = h.registrations(path);
    expect(reg.tools).toEqual([
      {
        name: "slow_echo",
        label: "Slow echo",
        description: "Echoes its text after reporting progress; waits for cancellation when asked to.",
        parameters: {
          type: "object",
          required: ["text", "mode"],
          properties: { text: { type: "string" }, mode: { type: "string", enum: ["quick", "hang", "fail"] } },
        },
        promptSnippet: "slow_echo: echo text",
      },
    ]);
    expect(reg.commands).toEqual([
      { name: "greet", description: "Say hello", hasCompletions: true },
      { name: "run", hasCompletions: false },
    ]);
    expect(reg.shortcuts).toEqual([{ key: "ctrl+shift+g", description: "Greet" }]);
    expect(reg.flags).toEqual([{ name: "loud", type: "boolean", description: "Shout", default: false }]);
    expect(reg.renderers).toEqual(["greeting"]);
    expect(reg.events).toEqual(["tool_call", "tool_result", "input", "session_start"]);
    // Registration comes before ready.
    const order = h.received.filter((r) => r.method === "register" || r.method === "ready").map((r) => r.method);
    expect(order).toEqual(["register", "ready"]);
  });

  test("a throwing factory, a missing default export and an early action fail alone; the neighbour works", async () => {
    const throws = fixture("ts", "throws.ts");
    const none = fixture("ts", "no-default.ts");
    const early = fixture("ts", "early-action.ts");
    const neighbour = fixture("ts", "neighbour.ts");
    const h = await start([throws, none, early, neighbour]);
    const errorOf = (p: string) => (h.find("ready", (r) => r.extension === p)?.params.error as { message: string } | undefined)?.message;
    expect(errorOf(throws)).toBe("Failed to load extension: boom while loading");
    expect(errorOf(none)).toBe(`Extension does not export a valid factory function: ${none}`);
    expect(errorOf(early)).toBe("Failed to load extension: Extension runtime not initialized. Action methods cannot be called during extension loading.");
    expect(errorOf(neighbour)).toBeUndefined();
    expect(h.all("register").map((r) => r.params.extension)).toEqual([neighbour]);
    const result = await h.request("tool.execute", { extension: neighbour, name: "neighbour_tool", toolCallId: "c1", args: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "ok" }], details: {} });
  });

  test("the runner exits when pig's socket closes", async () => {
    const h = await start([fixture("ts", "neighbour.ts")]);
    h.dropSocket();
    expect(await h.proc!.exited).toBe(0);
  });

  test("the runner exits on shutdown", async () => {
    const h = await start([fixture("ts", "neighbour.ts")]);
    h.notify("shutdown", { reason: "quit" });
    expect(await h.proc!.exited).toBe(0);
  });
});

describe("host modules", () => {
  test("upstream names pig lacks load as stubs that fail only when used; both scopes and the typebox alias resolve", async () => {
    const path = fixture("ts", "upstream-names.ts");
    const h = await start([path]);
    expect(h.find("ready")?.params.error).toBeUndefined();
    expect(h.registrations(path).commands).toEqual([
      { name: "names", description: "function|function|SessionManager from pi-coding-agent is not available in pig's extension runtime|true", hasCompletions: false },
    ]);
  });
});

describe("host modules, loaded when first needed", () => {
  test("require() gets them at once: from a CommonJS dependency, and from the extension's own code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pig-ext-cjs-"));
    try {
      const dep = join(dir, "node_modules", "cjs-dep");
      mkdirSync(dep, { recursive: true });
      writeFileSync(join(dep, "package.json"), JSON.stringify({ name: "cjs-dep", version: "1.0.0", main: "index.js" }));
      writeFileSync(
        join(dep, "index.js"),
        'const { Type } = require("@sinclair/typebox");\nconst agent = require("@mariozechner/pi-coding-agent");\n' +
          "module.exports = { kinds: () => `${Type.Object({}).type}|${typeof agent.truncateHead}` };\n",
      );
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "with-cjs", private: true, type: "module", dependencies: { "cjs-dep": "1.0.0" } }));
      // Imports TypeBox only; a later extension (no imports at all) requires a host module by itself.
      const first = join(dir, "first.ts");
      writeFileSync(first, 'import { Type } from "typebox";\nexport default function (pi: any) { pi.registerCommand("first", { description: Type.String().type, handler: async () => {} }); }\n');
      const viaDep = join(dir, "via-dep.ts");
      writeFileSync(viaDep, 'import { kinds } from "cjs-dep";\nexport default function (pi: any) { pi.registerCommand("dep", { description: kinds(), handler: async () => {} }); }\n');
      const own = join(dir, "own.ts");
      writeFileSync(own, 'export default function (pi: any) { const { Value } = require("typebox/value"); pi.registerCommand("own", { description: String(Value.Check({ type: "number" }, 1)), handler: async () => {} }); }\n');
      for (const binary of [undefined, pigBinary()]) {
        const h = await start([first, viaDep, own], { binary });
        for (const ready of h.all("ready")) expect(ready.params.error).toBeUndefined();
        const described = (path: string) => (h.registrations(path).commands as { description: string }[]).map((c) => c.description);
        expect(described(first)).toEqual(["string"]);
        expect(described(viaDep)).toEqual(["object|function"]);
        expect(described(own)).toEqual(["true"]);
        await h.stop();
        harness = undefined;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("no orphans", () => {
  test("the runner exits when pig is killed with SIGKILL", async () => {
    const host = Bun.spawn([process.execPath, `${import.meta.dir}/orphan-host.ts`], { stdout: "pipe", stderr: "inherit" });
    const reader = (host.stdout as ReadableStream<Uint8Array>).getReader();
    let out = "";
    while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
    const runnerPid = Number(out.trim());
    expect(isAlive(runnerPid)).toBe(true);
    host.kill("SIGKILL");
    await host.exited;
    // The runner is not our child: poll its state until it is gone (bounded by the test timeout).
    while (isAlive(runnerPid)) await Bun.sleep(5);
    expect(isAlive(runnerPid)).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("extension dependencies", () => {
  test("an extension's own node_modules resolve, from the sources and from the compiled binary", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pig-ext-deps-"));
    try {
      const dep = join(dir, "node_modules", "local-dep");
      mkdirSync(dep, { recursive: true });
      writeFileSync(join(dep, "package.json"), JSON.stringify({ name: "local-dep", version: "1.0.0", type: "module", main: "index.js" }));
      writeFileSync(join(dep, "index.js"), "export const shout = (text) => `${text.toUpperCase()}!`;\n");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "with-deps", private: true, type: "module", dependencies: { "local-dep": "1.0.0" } }));
      const entry = join(dir, "index.ts");
      writeFileSync(
        entry,
        'import { shout } from "local-dep";\nimport type { ExtensionAPI } from "pig/extension";\n' +
          'export default function (pi: ExtensionAPI) { pi.registerCommand("shout", { description: shout("loud"), handler: async () => {} }); }\n',
      );
      for (const binary of [undefined, pigBinary()]) {
        const h = await start([entry], { binary });
        expect(h.find("ready")?.params.error).toBeUndefined();
        expect(h.registrations(entry).commands).toEqual([{ name: "shout", description: "LOUD!", hasCompletions: false }]);
        await h.stop();
        harness = undefined;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
