/**
 * The Go examples (examples/extensions/go/, built on sdk/go) against the built pig binary and
 * the fake model: each does what its comment promises, the session log reaches a Go extension
 * only once it reads it (and then byte for byte), and a Go extension exits when pig is gone.
 * Needs `go` (Debian's golang-go); the binaries are built into the examples' bin/ (gitignored).
 */
import { beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { extensionWorlds, readJsonLines } from "../helpers/extension-worlds.ts";
import { describeNeeding } from "../helpers/needs.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import type { PigWorld, WorldOptions } from "../helpers/pig-env.ts";
import { processAlive } from "../helpers/process-state.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";
import { CONTEXT_FILTER_SCRIPT, CONTEXT_FILTER_WORLD, expectContextFiltered } from "../helpers/context-filter-scenario.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const EXAMPLES = join(ROOT, "examples", "extensions", "go");
const LAZY = join(ROOT, "test", "fixtures", "extensions", "go-lazy");
const GO = Bun.which("go");

type Json = Record<string, any>;

const { world, track } = extensionWorlds();

function goBuild(dir: string, args: string[]): void {
  const proc = Bun.spawnSync([GO!, "build", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`go build in ${dir} failed:\n${proc.stderr.toString()}`);
}

const example = (name: string) => ["-e", join(EXAMPLES, name)];
const uiRecord = (method: string) => (l: Line) => l.type === "extension_ui_request" && l.method === method;
const dataOf = (response: Line) => response.data as Json;

async function rpc(args: string[], script?: Script, options: WorldOptions = {}): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world(script, options);
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args }));
  return { w, client };
}

/** Runs `/command` over RPC and returns the notice it shows. */
async function notice(client: RpcClient, command: string): Promise<Line> {
  const from = client.lines.length;
  expect(await client.request({ type: "prompt", message: command })).toMatchObject({ success: true });
  return client.waitFor(uiRecord("notify"), 15_000, from);
}

async function sessionFile(client: RpcClient): Promise<string> {
  return String(dataOf(await client.request({ type: "get_state" })).sessionFile);
}

/** The lines of a session file after its header, as written. */
function entryLines(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").slice(1, -1);
}

const chatText = (message: Json): string =>
  typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");

describeNeeding("go", GO !== null, "Go extensions", () => {
  beforeAll(() => {
    goBuild(EXAMPLES, ["-o", "bin/", "./..."]);
    goBuild(LAZY, ["-o", "bin/go-lazy", "."]);
  });

  test("permission-gate: without a UI a risky bash command is blocked and does not run", async () => {
    const w = await world(
      { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./a.txt" } }] }, { text: "done" }] },
      { files: { "a.txt": "keep me\n" } },
    );
    const run = await w.run([...example("permission-gate"), "-p", "clean up"]);
    expect(run.stderr).not.toContain("Failed to load extension");
    expect(run.code).toBe(0);
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("Blocked without confirmation: rm -rf ./a.txt");
    expect(readFileSync(join(w.cwd, "a.txt"), "utf8")).toBe("keep me\n");
  });

  test("permission-gate: over RPC it asks; declined blocks, confirmed runs, a harmless command is not asked about", async () => {
    const { w, client } = await rpc(example("permission-gate"), [
      { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./a.txt" } }] },
      { text: "declined" },
      { toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
      { text: "harmless" },
      { toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./a.txt" } }] },
      { text: "removed" },
    ], { files: { "a.txt": "x\n" } });
    let from = client.lines.length;
    const first = client.promptAndWait("clean up");
    const ask = await client.waitFor(uiRecord("confirm"), 15_000, from);
    expect(ask).toMatchObject({ title: "Run this command?", message: "rm -rf ./a.txt" });
    client.send({ type: "extension_ui_response", id: ask.id, confirmed: false });
    await first;
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("The user declined this command.");
    expect(readFileSync(join(w.cwd, "a.txt"), "utf8")).toBe("x\n");

    from = client.lines.length;
    await client.promptAndWait("say hi");
    expect(client.lines.slice(from).filter(uiRecord("confirm"))).toHaveLength(0);
    expect(JSON.stringify(w.llm.requests[3]!.body)).toContain("hi");

    from = client.lines.length;
    const third = client.promptAndWait("clean up, really");
    const again = await client.waitFor(uiRecord("confirm"), 15_000, from);
    client.send({ type: "extension_ui_response", id: again.id, confirmed: true });
    await third;
    expect(await Bun.file(join(w.cwd, "a.txt")).exists()).toBe(false);
    expect(await client.close()).toBe(0);
  });

  test("progress-tool: the tool is offered, reports each file as progress, and answers with the counts", async () => {
    const { w, client } = await rpc(example("progress-tool"), [
      { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt", "b.txt"] } }] },
      { text: "counted" },
    ], { files: { "a.txt": "one\ntwo\nthree\n", "b.txt": "x" } });
    await client.promptAndWait("count");
    const tools = (w.llm.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
    expect(tools).toContain("count_lines");
    const updates = client.lines.filter((l) => l.type === "tool_execution_update").map((l) => chatText((l as Json).partialResult));
    expect(updates).toEqual(["1/2: a.txt", "2/2: b.txt"]);
    const end = client.lines.find((l) => l.type === "tool_execution_end") as Json;
    expect(end.result.details).toEqual({ counts: { "a.txt": 3, "b.txt": 1 } });
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("a.txt: 3\\nb.txt: 1");
    expect(await client.close()).toBe(0);
  });

  test("progress-tool: an abort cancels the tool while a read blocks; the extension stops and keeps serving", async () => {
    const { w, client } = await rpc(example("progress-tool"), [
      { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt", "pipe"] } }] },
      // The aborted run asks nothing more: the next prompt gets the next answer.
      { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt"] } }] },
      { text: "counted again" },
    ], { files: { "a.txt": "one\n" } });
    // Reading a FIFO blocks until someone writes to it: the tool is stuck there when the user aborts.
    expect(Bun.spawnSync(["mkfifo", join(w.cwd, "pipe")]).exitCode).toBe(0);
    const from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "count" })).toMatchObject({ success: true });
    await client.waitFor((l) => l.type === "tool_execution_update" && chatText((l as Json).partialResult) === "1/2: a.txt", 15_000, from);
    expect(await client.request({ type: "abort" })).toMatchObject({ success: true });
    await client.waitIdle(from);
    const log = join(w.agentDir, "extensions", "logs", "progress-tool.log");
    const deadline = Date.now() + 10_000;
    while (!(await Bun.file(log).exists() && readFileSync(log, "utf8").includes("count_lines cancelled at pipe"))) {
      if (Date.now() > deadline) throw new Error(`the tool did not report its cancellation; log: ${await Bun.file(log).exists() ? readFileSync(log, "utf8") : "none"}`);
      await Bun.sleep(25);
    }
    expect(readFileSync(log, "utf8")).toContain("count_lines cancelled at pipe");
    await client.promptAndWait("count again");
    expect(JSON.stringify(w.llm.requests.at(-1)!.body)).toContain("a.txt: 1");
    expect(await client.close()).toBe(0);
  });

  test("word-count-command: /words counts its argument without the model, or the last answer read from the branch", async () => {
    const { w, client } = await rpc(example("word-count-command"), [{ text: "alpha beta gamma delta" }]);
    expect(await notice(client, "/words one two three")).toMatchObject({ message: "3 words", notifyType: "info" });
    expect(w.llm.requests).toHaveLength(0);
    await client.promptAndWait("say four words");
    expect(await notice(client, "/words")).toMatchObject({ message: "4 words" });
    expect(await notice(client, "/words last")).toMatchObject({ message: "4 words" });
    const commands = dataOf(await client.request({ type: "get_commands" })).commands as Json[];
    expect(commands.find((c) => c.name === "words")).toMatchObject({ source: "extension", description: "Count the words of the text given, or of the last answer" });
    expect(await client.close()).toBe(0);
  });

  test("context-filter: a tool result over 4,000 characters is shortened in the request, whole in the session file", async () => {
    const w = await world(CONTEXT_FILTER_SCRIPT, CONTEXT_FILTER_WORLD);
    await expectContextFiltered(w, example("context-filter"));
  });

  test("prompt-counter: each prompt leaves a count in the session file; /count tells it, also after a restart on resume", async () => {
    const { w, client } = await rpc(example("prompt-counter"));
    await client.promptAndWait("one");
    await client.promptAndWait("two");
    const file = await sessionFile(client);
    const counts = readJsonLines(file).filter((e) => e.type === "custom" && e.customType === "prompt-counter").map((e) => e.data);
    expect(counts).toEqual([{ count: 1 }, { count: 2 }]);
    expect(JSON.stringify(w.llm.requests[1]!.body)).not.toContain("prompt-counter");
    expect(await notice(client, "/count")).toMatchObject({ message: "2 prompts on this branch", notifyType: "info" });
    expect(await client.close()).toBe(0);

    // A new pig on the same session: session_start reads the count back from the branch.
    const resumed = track(new RpcClient({ cwd: w.cwd, env: w.env, args: [...example("prompt-counter"), "--session", file] }));
    expect(await notice(resumed, "/count")).toMatchObject({ message: "2 prompts on this branch" });
    await resumed.promptAndWait("three");
    expect(readJsonLines(file).filter((e) => e.customType === "prompt-counter").map((e) => e.data)).toEqual([{ count: 1 }, { count: 2 }, { count: 3 }]);
    expect(await resumed.close()).toBe(0);
  });

  test("session-reader: GetEntries gives each line of the session file byte for byte, and stays current after later appends", async () => {
    const { client } = await rpc(example("session-reader"), [{ text: "caf\u00e9 \u2028 🐷 <&> \"quoted\"" }, { text: "second answer" }]);
    await client.promptAndWait("first prompt with unicode \u2028 and \\ backslashes");
    const file = await sessionFile(client);
    const out = join(tempDir("pig-export-"), "entries.jsonl");
    expect((await notice(client, `/session-export ${out}`)).message).toBe(`wrote ${entryLines(file).length} entries to ${out}`);
    expect(readFileSync(out, "utf8").split("\n").slice(0, -1)).toEqual(entryLines(file));
    // Appended after the first read: mirrored from session.appended, still exact.
    await client.promptAndWait("second prompt");
    await notice(client, `/session-export ${out}`);
    const lines = entryLines(file);
    expect(readFileSync(out, "utf8").split("\n").slice(0, -1)).toEqual(lines);
    const last = JSON.parse(lines.at(-1)!) as Json;
    const summary = (await notice(client, "/session")).message as string;
    expect(summary).toMatch(new RegExp(`^${lines.length} entries; branch: user → assistant → user → assistant; leaf ${last.id}; `));
    expect(summary.endsWith(file.split("/").at(-1)!)).toBe(true);
    expect(await client.close()).toBe(0);
  });

  test("lazy replication: a Go extension that never reads the log gets no session.* frames; after its first read it does", async () => {
    const { client } = await rpc(["-e", LAZY]);
    await client.promptAndWait("one");
    await client.promptAndWait("two");
    expect((await notice(client, "/frames")).message).toBe("session frames: 0");
    expect((await notice(client, "/read")).message).toMatch(/^read \d+ entries$/);
    // The snapshot is an answer, not a frame of the log stream; the next prompt's entries are.
    expect((await notice(client, "/frames")).message).toBe("session frames: 0");
    await client.promptAndWait("three");
    const frames = Number(/session frames: (\d+)/.exec(String((await notice(client, "/frames")).message))![1]);
    expect(frames).toBeGreaterThan(0);
    expect(await client.close()).toBe(0);
  });

  test("a Go extension exits when its socket closes, also when pig is killed without a shutdown", async () => {
    const { client } = await rpc(example("word-count-command"));
    await notice(client, "/words a b");
    const extensions = dataOf(await client.request({ type: "get_extensions" })).extensions as Json[];
    const pid = Number(extensions.find((e) => String(e.path).includes("word-count-command"))!.pid);
    expect(processAlive(pid)).toBe(true);
    process.kill(client.pid, "SIGKILL");
    const deadline = Date.now() + 10_000;
    while (processAlive(pid)) {
      if (Date.now() > deadline) throw new Error(`extension process ${pid} still runs after pig was killed`);
      await Bun.sleep(25);
    }
    expect(processAlive(pid)).toBe(false);
  });
});
