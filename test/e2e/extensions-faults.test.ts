/**
 * TypeScript extensions that misbehave, through the built binary: a tool_call handler that never
 * answers, a process that dies in the middle of a tool, one that floods stdout and stderr; a
 * project's own extension and trust; a pig killed with SIGKILL leaves no runner behind.
 * Fixtures: test/fixtures/extensions/e2e2/.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "e2e2");
const ext = (name: string) => join(EXT, name);

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

/** The tool messages (OpenAI chat) sent in model request `index`, by tool call id. */
function toolMessages(w: PigWorld, index: number): Json[] {
  return (w.llm.requests[index]!.body as { messages: Json[] }).messages.filter((m) => m.role === "tool");
}

const text = (m: Json): string => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p: Json) => p.text ?? "").join(""));

/** Whether process `pid` is gone (a zombie waiting for its reaper counts as gone). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Polls a state (never a time) until it holds; fails showing `show()` after a bound. */
async function until(check: () => boolean, show: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition never held: ${show()}`);
    await Bun.sleep(30);
  }
  expect(check()).toBe(true);
}

test("a tool_call handler that never answers: the call is blocked once the deadline passes, naming the extension; other tools work", async () => {
  const w = await world(
    [
      { toolCalls: [{ name: "bash", arguments: { command: "touch hang-marker" }, id: "call_bash" }] },
      { toolCalls: [{ name: "helper_echo", arguments: { word: "still-here" }, id: "call_helper" }] },
      { text: "finished" },
    ],
    { settings: { extensionTimeouts: { eventMs: 1500 } } },
  );
  const started = Date.now();
  const result = await w.run(["-p", "-e", ext("hang-gate.ts"), "-e", ext("helper-tool.ts"), "go"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("finished\n");
  // The deadline was waited for, not skipped.
  expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  expect(w.llm.requests).toHaveLength(3);
  const [blocked] = toolMessages(w, 1);
  expect(blocked).toMatchObject({ tool_call_id: "call_bash" });
  expect(text(blocked!)).toContain(`Extension "${ext("hang-gate.ts")}" did not answer tool_call within 1500 ms`);
  expect(existsSync(join(w.cwd, "hang-marker"))).toBe(false);
  const helper = toolMessages(w, 2).find((m) => m.tool_call_id === "call_helper");
  expect(text(helper!)).toBe("helper says still-here");
});

test("an extensionTimeouts.eventMs that is not a number is reported, naming the key", async () => {
  const w = await world([{ text: "fine" }], { settings: { extensionTimeouts: { eventMs: "soon" } } });
  const result = await w.run(["-p", "-e", ext("helper-tool.ts"), "hi"]);
  expect(result.stderr).toContain('"extensionTimeouts.eventMs" (line 6, column 16) must be a number, not "soon"; the settings in this file are ignored');
});

test("an extension process that dies mid-tool: the result is an error naming it; the next call of its tool works", async () => {
  const w = await world([
    { toolCalls: [{ name: "crash_once", arguments: {}, id: "call_crash_1" }] },
    { toolCalls: [{ name: "crash_once", arguments: {}, id: "call_crash_2" }] },
    { text: "recovered" },
  ]);
  const result = await w.run(["-p", "-e", ext("crash-tool.ts"), "go"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("recovered\n");
  const crashedPid = Number(readFileSync(join(w.cwd, "crashed.txt"), "utf8"));
  expect(crashedPid).toBeGreaterThan(0);
  expect(w.llm.requests).toHaveLength(3);
  const [first] = toolMessages(w, 1);
  expect(first).toMatchObject({ tool_call_id: "call_crash_1" });
  expect(text(first!)).toContain(ext("crash-tool.ts"));
  // The exit code, unless the closed socket was noticed well before the exit (a loaded machine).
  expect([`Extension "${ext("crash-tool.ts")}" exited (code 3)`, `Extension "${ext("crash-tool.ts")}" closed its connection`]).toContain(text(first!));
  const second = toolMessages(w, 2).find((m) => m.tool_call_id === "call_crash_2")!;
  const survived = /^survived in (\d+)$/.exec(text(second));
  expect(survived).not.toBeNull();
  // A new process answered.
  expect(Number(survived![1])).not.toBe(crashedPid);
});

test("an extension writing megabytes to stdout and stderr: pig goes on, and the stderr is in the extension log", async () => {
  const w = await world([
    { toolCalls: [{ name: "noisy", arguments: {}, id: "call_noisy" }] },
    { toolCalls: [{ name: "helper_echo", arguments: { word: "after-noise" }, id: "call_helper" }] },
    { text: "quiet again" },
  ]);
  const result = await w.run(["-p", "-e", ext("noisy.ts"), "-e", ext("helper-tool.ts"), "go"]);
  expect(result.code).toBe(0);
  // None of the extension's output reaches pig's own stdout.
  expect(result.stdout).toBe("quiet again\n");
  expect(result.stderr).not.toContain("xxxxxxxx");
  expect(text(toolMessages(w, 1)[0]!)).toBe("noisy finished");
  expect(text(toolMessages(w, 2).find((m) => m.tool_call_id === "call_helper")!)).toBe("helper says after-noise");
  const logs = join(w.agentDir, "extensions", "logs");
  const files = readdirSync(logs).map((name) => join(logs, name));
  const withMarker = files.filter((f) => readFileSync(f, "utf8").includes("noisy-stderr-end-marker"));
  expect(withMarker).toHaveLength(1);
  // The megabytes went there too (4 MiB of stderr at least).
  expect(statSync(withMarker[0]!).size).toBeGreaterThanOrEqual(4 * 1024 * 1024);
});

test("a project's .pig/extensions/ extension loads only in a trusted project", async () => {
  const source = readFileSync(ext("project-ext.ts"), "utf8");
  const w = await world([{ text: "one" }, { text: "two" }], { files: { ".pig/extensions/project-ext.ts": source } });
  const marker = join(w.cwd, "project-ext-loaded.txt");

  const untrusted = await w.run(["-p", "hello"]);
  expect(untrusted.code).toBe(0);
  expect(untrusted.stdout).toBe("one\n");
  expect(existsSync(marker)).toBe(false);

  const trusted = await w.run(["-p", "--trust", "hello again"]);
  expect(trusted.stderr).not.toContain("Failed to load extension");
  expect(trusted.code).toBe(0);
  expect(trusted.stdout).toBe("two\n");
  expect(readFileSync(marker, "utf8")).toBe("startup");
});

test("kill -9 of an idle pig in RPC mode: its extension runner exits", async () => {
  const w = await world();
  const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ext("runner-pid.ts")] });
  track(client);
  const pidFile = join(w.cwd, "runner-pid.txt");
  await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", () => "no runner-pid.txt");
  // Idle: answered, nothing running.
  const state = await client.request({ type: "get_state" });
  expect(state.data).toMatchObject({ isStreaming: false });
  const runner = Number(readFileSync(pidFile, "utf8"));
  expect(runner).toBeGreaterThan(0);
  expect(runner).not.toBe(client.pid);
  expect(gone(runner)).toBe(false);

  process.kill(client.pid, "SIGKILL");
  await until(() => gone(client.pid), () => `pig ${client.pid} still there`);
  await until(() => gone(runner), () => `runner ${runner} still running after pig was killed`);
});
