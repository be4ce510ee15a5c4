/**
 * The Rust example extension (examples/extensions/rust/), written against
 * docs/extension-protocol.md alone, built offline with Debian's cargo from Debian's crates, and
 * run by the built binary through its manifest: the tool streams progress and stops on cancel
 * while pings are answered, the bash gate asks and blocks, the commands read the session log it
 * subscribed to on first need (line for line what the file holds), and it exits when pig dies.
 */
import { beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildRustExample, cargoPath, haveDebianCrates, RUST_EXAMPLE_MANIFEST as MANIFEST, testRustExample } from "../../examples/extensions/rust/build.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { describeNeeding } from "../helpers/needs.ts";
import type { PigWorld, WorldOptions } from "../helpers/pig-env.ts";
import { processAlive } from "../helpers/process-state.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";

// Debian's cargo where there is one (the rustup one may come first on PATH), with Debian's crates.
const CARGO = cargoPath();

type Json = Record<string, any>;
const { world, track } = extensionWorlds();
const uiRequest = (method: string) => (l: Line) => l.type === "extension_ui_request" && l.method === method;

/** The extension's standard error, which pig appends to a log in the agent dir. */
function extensionLog(w: PigWorld): string {
  const dir = join(w.agentDir, "extensions", "logs");
  if (!existsSync(dir)) return "";
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
}

/** Waits until the extension's log matches (the log is a state the extension leaves). */
async function waitForLog(w: PigWorld, pattern: RegExp, count = 1, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = extensionLog(w);
    const found = log.match(new RegExp(pattern.source, "g")) ?? [];
    if (found.length >= count) {
      expect(found.length).toBeGreaterThanOrEqual(count);
      return log;
    }
    if (Date.now() > deadline) throw new Error(`extension log never matched ${pattern} ×${count}:\n${log.slice(-3000)}`);
    await Bun.sleep(25);
  }
}

async function rpc(script?: Script, options: WorldOptions = {}, env: Record<string, string> = {}) {
  const w = await world(script, options);
  const client = track(new RpcClient({ cwd: w.cwd, env: { ...w.env, ...env }, args: ["-e", MANIFEST] }));
  return { w, client };
}

describeNeeding("cargo and librust-serde-json-dev", CARGO !== undefined && haveDebianCrates(), "the Rust example extension", () => {
  // Into the example's gitignored target/, kept between runs: with nothing changed, a no-op.
  beforeAll(() => void buildRustExample(), 300_000);

  test("its own unit tests pass: lines split on LF only, oversized frames, $/part both ways, id first", () => {
    const run = testRustExample();
    expect(run.stderr).not.toContain("error[");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/test result: ok\. [1-9]\d* passed; 0 failed/);
  });

  test("print mode: the tool is offered and runs in the Rust process; the gate blocks bash without a UI", async () => {
    const w = await world(
      {
        responses: [
          { toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt", "b.txt"] } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "rm ./a.txt" } }] },
          { text: "done" },
        ],
      },
      { files: { "a.txt": "one\ntwo\nthree\n", "b.txt": "no newline at the end" } },
    );
    const run = await w.run(["-e", MANIFEST, "-p", "count the lines"]);
    expect(run.stderr).not.toContain("Failed to load extension");
    expect(run.code).toBe(0);
    const first = w.llm.requests[0]!.body as { tools: { function: { name: string; description: string } }[] };
    expect(first.tools.find((t) => t.function.name === "count_lines")?.function.description).toBe("Counts the lines of each of the given files.");
    const texts = w.llm.requests.map((r) => JSON.stringify(r.body));
    expect(texts[1]).toContain("a.txt: 3\\nb.txt: 1");
    expect(texts[2]).toContain("Blocked without confirmation: rm ./a.txt");
    expect(existsSync(join(w.cwd, "a.txt"))).toBe(true);
    // The handshake: the host's id for it, and no UI in print mode.
    expect(extensionLog(w)).toContain(`extension ${JSON.stringify(MANIFEST)}, hasUI false`);
  });

  test("the gate asks before bash: declined, the command is blocked; confirmed, it runs", async () => {
    const { w, client } = await rpc({
      responses: [
        { toolCalls: [{ name: "bash", arguments: { command: "touch declined.txt" } }] },
        { text: "blocked" },
        { toolCalls: [{ name: "bash", arguments: { command: "touch allowed.txt" } }] },
        { text: "ran" },
      ],
    });
    let from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "one" })).toMatchObject({ success: true });
    let confirm = await client.waitFor(uiRequest("confirm"), 15_000, from);
    expect(confirm).toMatchObject({ title: "Run this command?", message: "touch declined.txt" });
    client.send({ type: "extension_ui_response", id: confirm.id, confirmed: false });
    await client.waitIdle(from);
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("The user declined this command.");
    expect(existsSync(join(w.cwd, "declined.txt"))).toBe(false);

    from = client.lines.length;
    expect(await client.request({ type: "prompt", message: "two" })).toMatchObject({ success: true });
    confirm = await client.waitFor(uiRequest("confirm"), 15_000, from);
    expect(confirm.message).toBe("touch allowed.txt");
    client.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
    await client.waitIdle(from);
    expect(existsSync(join(w.cwd, "allowed.txt"))).toBe(true);
    expect(await client.close()).toBe(0);
  });

  test("count_lines streams one update per file, then its counts", async () => {
    const { w, client } = await rpc(
      { responses: [{ toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt", "b.txt", "empty.txt"] } }] }, { text: "counted" }] },
      { files: { "a.txt": "1\n2\n3\n", "b.txt": "x\ny", "empty.txt": "" } },
    );
    await client.promptAndWait("count");
    const updates = client.lines.filter((l) => l.type === "tool_execution_update").map((l) => (l.partialResult as Json).content[0].text);
    expect(updates).toEqual(["1/3: a.txt", "2/3: b.txt", "3/3: empty.txt"]);
    const end = client.lines.find((l) => l.type === "tool_execution_end") as Json;
    expect(end.isError).toBe(false);
    expect(end.result.content[0].text).toBe("a.txt: 3\nb.txt: 2\nempty.txt: 0");
    expect(end.result.details).toEqual({ counts: { "a.txt": 3, "b.txt": 2, "empty.txt": 0 } });
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("a.txt: 3\\nb.txt: 2\\nempty.txt: 0");
    expect(await client.close()).toBe(0);
  });

  test("a busy tool answers pings, and an abort cancels it in the extension", async () => {
    const { w, client } = await rpc(
      { responses: [{ toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt", "b.txt", "c.txt"] } }] }, { text: "never" }] },
      { files: { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" } },
      // A minute between files: only a cancellation ends the call within the test.
      { PIG_RUST_EXAMPLE_PACE_MS: "60000", PIG_RUST_EXAMPLE_TRACE: "1" },
    );
    expect(await client.request({ type: "prompt", message: "count" })).toMatchObject({ success: true });
    const update = await client.waitFor((l) => l.type === "tool_execution_update");
    expect((update.partialResult as Json).content[0].text).toBe("1/3: a.txt");
    // pig pings a process with work in flight every second and gives up after 3 s of silence:
    // four answered pings while the call is open outlast that.
    await waitForLog(w, /ping answered with 1 request\(s\) in flight/, 4);
    const from = client.lines.length;
    expect(await client.request({ type: "abort" })).toMatchObject({ success: true });
    await waitForLog(w, /count_lines cancelled after 1 of 3 files/);
    await client.waitIdle(from);
    const end = client.lines.find((l) => l.type === "tool_execution_end") as Json;
    expect(end.isError).toBe(true);
    const log = extensionLog(w);
    // pig sent $/cancel for the tool call, and the extension answered it with -32800.
    expect(log).toMatch(/<- \{[^\n]*"method":"\$\/cancel"/);
    expect(log).toMatch(/-> \{[^\n]*"code":-32800/);
    expect(JSON.stringify(client.lines)).not.toContain("is not responding");
    // One process all along: it was neither declared hung nor restarted.
    expect(log.match(/: pid \d+,/g)).toHaveLength(1);
    expect(w.llm.requests).toHaveLength(1);
    expect(await client.close()).toBe(0);
  });

  test("the commands read the session log, subscribed on first need, byte for byte the file's lines", async () => {
    const { w, client } = await rpc({ responses: [{ text: "alpha beta gamma delta" }, { text: "epsilon" }] }, {}, { PIG_RUST_EXAMPLE_TRACE: "1" });
    const notice = async (message: string): Promise<string> => {
      const from = client.lines.length;
      expect(await client.request({ type: "prompt", message })).toMatchObject({ success: true });
      return String((await client.waitFor(uiRequest("notify"), 15_000, from)).message);
    };
    const sessionFile = async () => String(((await client.request({ type: "get_state" })).data as Json).sessionFile);
    const fileStats = (file: string) => {
      const text = readFileSync(file, "utf8");
      return `session log: ${text.split("\n").length - 1} lines, ${statSync(file).size} bytes`;
    };

    expect(await notice("/words one two three")).toBe("3 words");
    await client.promptAndWait("say four words");
    // Nothing of the log has crossed the socket yet: no command needed it.
    expect(extensionLog(w)).not.toContain("session.subscribe");
    expect(await notice("/words")).toBe("4 words");
    const file = await sessionFile();
    expect(await notice("/log-size")).toBe(fileStats(file));
    // Appended lines arrive as they are written, and the copy stays exact.
    await client.promptAndWait("one more");
    expect(await notice("/log-size")).toBe(fileStats(file));
    expect(await notice("/words")).toBe("1 word");
    expect(extensionLog(w).match(/"method":"session\.subscribe"/g)).toHaveLength(1);
    expect(await client.close()).toBe(0);
  });

  // Two things end it, whichever comes first: the extension noticing its socket close, and the
  // guard of its process group, which kills the group when pig is gone (so the log line the
  // extension writes on a close may never be written).
  test("when pig is killed the extension ends too", async () => {
    const { w, client } = await rpc();
    const log = await waitForLog(w, /: pid \d+,/);
    const pid = Number(/: pid (\d+),/.exec(log)![1]);
    expect(processAlive(pid)).toBe(true);
    process.kill(client.pid, "SIGKILL");
    const deadline = Date.now() + 15_000;
    while (processAlive(pid) && Date.now() < deadline) await Bun.sleep(25);
    expect(processAlive(pid)).toBe(false);
  });
});
