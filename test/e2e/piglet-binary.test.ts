/**
 * Piglet Binaries (`pig build`): the same extensions linked into a built binary and loaded with
 * `-e` out of process go through one scripted RPC session, and everything a user or the model
 * can see must match — the commands registered, every request sent to the model (tools, system
 * prompt, tool results), the extension errors reported, and the session file (ids and times
 * normalised). Also: `--version` names what is linked, the linked extensions run in pig's own
 * process, and `-e` extensions still load beside them. Fixtures: test/fixtures/extensions/piglet/.
 */
import { expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary, runPig } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";
import { extensionWorlds, EXTENSION_FIXTURES, onlySessionEntries } from "../helpers/extension-worlds.ts";
import type { PigWorld } from "../helpers/pig-env.ts";
import { pigletBinary } from "../helpers/piglet-binary.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { until } from "../helpers/scripted-session.ts";

const GREETER = join(EXTENSION_FIXTURES, "piglet", "greeter.ts");
const COUNTER = join(EXTENSION_FIXTURES, "piglet", "counter.ts");
const EXTRA = join(EXTENSION_FIXTURES, "piglet", "extra.ts");

// One build for the file (cached across runs by content: test/helpers/piglet-binary.ts).
const PIGLET = pigletBinary([GREETER, COUNTER]);

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

const SCRIPT = [{ toolCalls: [{ name: "greet", arguments: { name: "Ada" }, id: "toolu_greet" }] }, { text: "greeted" }];

/** The world's own paths, ids and times made the same for both runs. */
function normalise(value: unknown, w: PigWorld): unknown {
  const text = JSON.stringify(value)
    .replaceAll(w.cwd, "<cwd>")
    .replaceAll(w.agentDir, "<agent>")
    .replace(/"(id|parentId|sessionId|responseId)":"[^"]*"/g, '"$1":"<id>"')
    .replace(/"timestamp":("[^"]*"|\d+)/g, '"timestamp":"<time>"')
    .replace(/"durationMs":\d+/g, '"durationMs":"<ms>"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>");
  return JSON.parse(text);
}

const notice = (text: string) => (l: Line) => l.type === "extension_ui_request" && l.method === "notify" && String(l.message).startsWith(text);

/** The extension logs of a world (stderr of each extension, by log file name). */
function extensionLogs(w: PigWorld): string {
  const dir = join(w.agentDir, "extensions", "logs");
  if (!existsSync(dir)) return "";
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), "utf8"))
    .join("");
}

async function scriptedSession(
  linked: boolean,
): Promise<{ commands: Json[]; requests: unknown; entries: unknown; errors: unknown; greeterPid: number; pigPid: number; stray: string[]; logs: string }> {
  const w = await world(SCRIPT, { api: "anthropic-messages" });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, ...(linked ? { binary: PIGLET } : { args: ["-e", GREETER, "-e", COUNTER] }) }));
  const listed = await client.request({ type: "get_commands" });
  const commands = ((listed.data as { commands: Json[] }).commands ?? []).filter((c) => c.source === "extension");
  await client.promptAndWait("please greet Ada");
  await client.promptAndWait("/count");
  await client.waitFor(notice("count=1"));
  await client.promptAndWait("/count");
  await client.waitFor(notice("count=2"));
  await client.promptAndWait("/greet-pid");
  const pidLine = await client.waitFor(notice("greeter pid "));
  await client.promptAndWait("/greet-log");
  const errors = client.lines.filter((l) => l.type === "extension_error").map((l) => ({ extensionPath: l.extensionPath, event: l.event, error: l.error }));
  const pigPid = client.pid;
  // The greeter's last stray line is written from a timer after its tool ran.
  await until(() => extensionLogs(w).includes("greeter stderr later for Ada"));
  expect(await client.close()).toBe(0);
  return {
    commands: normalise(commands, w) as Json[],
    requests: normalise(
      w.llm.requests.map((r) => r.body),
      w,
    ),
    entries: normalise(onlySessionEntries(join(w.agentDir, "sessions")), w),
    errors,
    greeterPid: Number(String(pidLine.message).slice("greeter pid ".length)),
    pigPid,
    stray: [...client.strayStdout],
    logs: extensionLogs(w),
  };
}

test("--version of a Piglet Binary lists its linked extensions after the version", async () => {
  const proc = Bun.spawn([PIGLET, "--version"], { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const lines = out.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^\d+\.\d+\.\d+/);
  expect(lines.slice(1)).toEqual(["linked extensions:", `  piglet-fixtures 1.2.3 (${GREETER})`, `  piglet-fixtures 1.2.3 (${COUNTER})`]);
});

test("linked into a Piglet Binary, extensions register and behave exactly as with -e out of process", async () => {
  const linked = await scriptedSession(true);
  const outside = await scriptedSession(false);

  // The linked ones run in pig's own process; with -e, in a runner of their own.
  expect(linked.greeterPid).toBe(linked.pigPid);
  expect(outside.greeterPid).not.toBe(outside.pigPid);

  expect(linked.commands.map((c) => c.name)).toEqual(["greet-pid", "greet-log", "count", "mcp"]);
  expect(linked.commands).toEqual(outside.commands);

  // Two model requests each; the tool offered, its result (from a synchronous session read) and
  // the system prompt a handler changed are the same.
  const requests = linked.requests as Json[];
  expect(requests).toHaveLength(2);
  expect(requests[0]!.tools.map((t: Json) => t.name)).toContain("greet");
  expect(JSON.stringify(requests[0]!.system)).toContain("Always greet warmly.");
  expect(JSON.stringify(requests[1]!.messages)).toMatch(/Hello, Ada! \(\d+ entries\)/);
  expect(linked.requests).toEqual(outside.requests);

  // agent_end throws in both: one extension_error, naming the same extension.
  expect(linked.errors).toEqual([{ extensionPath: GREETER, event: "agent_end", error: "greeter fails on agent_end on purpose" }]);
  expect(linked.errors).toEqual(outside.errors);

  // The greeter's stray prints: nothing on pig's stdout either way (every line was a JSON frame),
  // and its stderr in its log file.
  expect(linked.stray).toEqual([]);
  expect(outside.stray).toEqual([]);
  for (const logs of [linked.logs, outside.logs]) {
    expect(logs).toContain("greeter stderr at load\n");
    expect(logs).toContain("greeter stderr later for Ada\n");
    expect(logs).not.toContain("greeter loaded");
    expect(logs).not.toContain("raw stdout from greet");
  }

  const entries = linked.entries as Json[];
  expect(entries.find((e) => e.customType === "greeter-log")?.data).toEqual({ seen: ["session_start", "before_agent_start", "tool_result:greet", "agent_end"] });
  expect(linked.entries).toEqual(outside.entries);
});

test("a Piglet Binary still loads -e extensions out of process, after its linked ones", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, binary: PIGLET, args: ["-e", EXTRA, "-e", GREETER] }));
  const listed = await client.request({ type: "get_commands" });
  const names = ((listed.data as { commands: Json[] }).commands ?? []).filter((c) => c.source === "extension").map((c) => c.name);
  // The greeter given again with -e is the linked one, not a second copy.
  expect(names).toEqual(["greet-pid", "greet-log", "count", "where", "mcp"]);
  await client.promptAndWait("/where");
  const where = await client.waitFor(notice("extra pid "));
  expect(Number(String(where.message).slice("extra pid ".length))).not.toBe(client.pid);
  expect(await client.close()).toBe(0);

  // They are part of the binary: --no-extensions leaves them, and only them.
  const bare = track(new RpcClient({ cwd: w.cwd, env: w.env, binary: PIGLET, args: ["--no-extensions", "-e", EXTRA] }));
  const bareListed = await bare.request({ type: "get_commands" });
  const bareNames = ((bareListed.data as { commands: Json[] }).commands ?? []).filter((c) => c.source === "extension").map((c) => c.name);
  expect(bareNames).toEqual(["greet-pid", "greet-log", "count", "where", "mcp"]);
  expect(await bare.close()).toBe(0);
});

test("pig build says what is wrong with its arguments, naming the flag or file", () => {
  const cwd = tempDir("pig-build-args-");
  const noExtension = runPig(["build", "-o", "out"], { cwd });
  expect(noExtension.code).toBe(2);
  expect(noExtension.stderr).toContain("build: name at least one extension with -e <path>");
  const noOutput = runPig(["build", "-e", GREETER], { cwd });
  expect(noOutput.code).toBe(2);
  expect(noOutput.stderr).toContain("build: name the executable to write with -o <path>");
  const missing = runPig(["build", "-e", "./nope.ts", "-o", "out"], { cwd });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(`build: extension not found: ${join(cwd, "nope.ts")} (-e ./nope.ts)`);
  const notTs = runPig(["build", "-e", join(EXTENSION_FIXTURES, "piglet", "package.json"), "-o", "out"], { cwd });
  expect(notTs.code).toBe(1);
  expect(notTs.stderr).toContain("is not a .ts, .mts, .js or .mjs file");
  // What Bun cannot bundle is reported with its file and line.
  writeFileSync(join(cwd, "needs.ts"), 'import x from "not-installed-anywhere";\nexport default function () { x(); }\n');
  const unresolved = runPig(["build", "-e", "needs.ts", "-o", "out"], { cwd });
  expect(unresolved.code).toBe(1);
  expect(unresolved.stderr).toContain(`${join(cwd, "needs.ts")}:1:`);
  expect(unresolved.stderr).toContain('Could not resolve: "not-installed-anywhere"');
  expect(existsSync(join(cwd, "out"))).toBe(false);
});

test("a compiled pig away from any checkout says what pig build needs", () => {
  const dir = tempDir("pig-lone-");
  const lone = join(dir, "pig");
  copyFileSync(pigBinary(), lone);
  const proc = Bun.spawnSync([lone, "build", "-e", GREETER, "-o", join(dir, "out")], { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir }, stdout: "pipe", stderr: "pipe" });
  expect(proc.exitCode).toBe(1);
  expect(proc.stderr.toString()).toContain("this pig is a compiled executable without pig's sources");
  expect(proc.stderr.toString()).toContain("PIG_SOURCE");
});
