/**
 * The Go RPC client (sdk/go/rpc) and its examples (examples/go/) against the built pig binary
 * and the fake model: the package's integration tests (`go test -run Integration`, given the
 * binary and a world through the environment), then each example program run as a user runs
 * it. Needs `go` (Debian's golang-go); the examples are built into examples/go/bin/ (gitignored).
 */
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { extensionWorlds, readJsonLines } from "../helpers/extension-worlds.ts";
import { pigBinary } from "../helpers/binary.ts";
import { describeNeeding } from "../helpers/needs.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const SDK = join(ROOT, "sdk", "go");
const EXAMPLES = join(ROOT, "examples", "go");
const GO = Bun.which("go");

type Json = Record<string, any>;

const { world, track } = extensionWorlds();

/** Runs a program to its end without blocking the fake model, which lives in this process. */
async function run(argv: string[], options: { cwd: string; env: Record<string, string> }): Promise<{ code: number; stdout: string; stderr: string; pid: number }> {
  const proc = Bun.spawn(argv, { cwd: options.cwd, env: options.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr, pid: proc.pid };
}

/** The answers of the integration tests, chosen by the markers their prompts carry. */
const INTEGRATION_SCRIPT: Script = [
  { when: "integration-answer", text: "The answer is 42." },
  // Listed before the prompt's own entry: the request after the tool call has both markers.
  { when: "echoed-by-bash", text: "The tool ran." },
  { when: "integration-tool", toolCalls: [{ name: "bash", arguments: { command: "echo echoed-by-bash" } }] },
  { when: "integration-dangerous", toolCalls: [{ name: "bash", arguments: { command: "rm -rf ./nothing-here" } }] },
  // Before the hanging entry: the request also holds the aborted prompt before it.
  { when: "integration-after-abort", text: "Still here." },
  { when: "integration-hang", hang: true, repeat: 5 },
];

const INTEGRATION_TESTS = [
  "TestIntegrationPromptAndWaitReturnsTheAnswerAndItsEvents",
  "TestIntegrationToolCallsAndUserBashStream",
  "TestIntegrationExtensionUIRequestsReachTheCallbacks",
  "TestIntegrationCancellingThePromptsContextAbortsTheRun",
  "TestIntegrationAPromptPastItsDeadlineIsAbortedWithTheDeadlineError",
  "TestIntegrationARunAbortedBySomeoneElseIsErrAborted",
  "TestIntegrationAKilledPigEndsEveryWaitAndCall",
  "TestIntegrationSIGTERMStopsTheRunThenPigExitsWith143",
  "TestIntegrationSessionModelAndQueueCommands",
];

/** Child processes of `pid` named `name`, read from /proc. */
function childrenNamed(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(" ");
    if (comm === name && Number(ppid) === pid && state !== "Z") found.push(Number(entry));
  }
  return found;
}

describeNeeding("go", GO !== null, "Go RPC client", () => {
  beforeAll(() => {
    const build = Bun.spawnSync([GO!, "build", "-o", "bin/", "./..."], { cwd: EXAMPLES, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`go build in ${EXAMPLES} failed:\n${build.stderr.toString()}`);
  });

  test("sdk/go/rpc's integration tests pass against the built binary, none skipped", async () => {
    // A short tail kept by compaction: the compact command has something to summarise.
    const w = await world(INTEGRATION_SCRIPT, { settings: { compaction: { keepRecentTokens: 1 } } });
    const result = await run([GO!, "test", "-race", "-count=1", "-v", "-run", "Integration", "./rpc"], {
      cwd: SDK,
      env: {
        ...(process.env as Record<string, string>),
        PIG_RPC_TEST_BINARY: pigBinary(),
        PIG_RPC_TEST_ENV: JSON.stringify(w.env),
        PIG_RPC_TEST_CWD: w.cwd,
      },
    });
    const output = `${result.stdout}${result.stderr}`;
    for (const name of INTEGRATION_TESTS) expect(output).toMatch(new RegExp(`^\\s*--- PASS: ${name} `, "m"));
    expect(output).not.toContain("--- SKIP");
    expect(output).not.toContain("--- FAIL");
    expect(result.code).toBe(0);
    // The tool's output reached the model, and the blocked command never ran.
    const bodies = w.llm.requests.map((r) => JSON.stringify(r.body));
    expect(bodies.some((b) => b.includes("echoed-by-bash\\n"))).toBe(true);
    expect(bodies.some((b) => b.includes("Blocked by user"))).toBe(true);
  }, 300_000);

  test("oneshot prints the answer; a failed answer is an error with exit code 1", async () => {
    const w = await world([
      { when: "oneshot-question", text: "Hello from the fake model.\nSecond line." },
      { when: "oneshot-fails", error: { status: 400, message: "the fake model refuses" } },
    ]);
    const ok = await run([join(EXAMPLES, "bin", "oneshot"), "-pig", pigBinary(), "--", "oneshot-question:", "say", "hello"], { cwd: w.cwd, env: w.env });
    expect({ code: ok.code, stdout: ok.stdout }).toEqual({ code: 0, stdout: "Hello from the fake model.\nSecond line.\n" });
    expect(JSON.stringify(w.llm.requests[0]!.body)).toContain("oneshot-question: say hello");

    const failed = await run([join(EXAMPLES, "bin", "oneshot"), "-pig", pigBinary(), "--", "oneshot-fails"], { cwd: w.cwd, env: w.env });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toContain("oneshot: pig rpc prompt:");
    expect(failed.stderr).toContain("the fake model refuses");

    const usage = await run([join(EXAMPLES, "bin", "oneshot"), "-pig", pigBinary()], { cwd: w.cwd, env: w.env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: oneshot");
  }, 60_000);

  test("batch runs a pig per directory, at most -j at once, and sums up answers and failures", async () => {
    const base = tempDir("pig-batch-");
    const dirs = ["alpha", "bravo", "charlie"].map((name) => join(base, name));
    for (const dir of dirs) mkdirSync(dir);
    const missing = join(base, "missing");
    // Each directory gets its own answer: the system prompt names the working directory.
    const w = await world(dirs.map((dir) => ({ when: dir, text: `Answer for ${dir.split("/").at(-1)}.\nMore detail.` })));
    // The model holds its answers until the test has counted the pig processes.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    w.llm.setBeforeAnswer(() => released);
    const proc = Bun.spawn([join(EXAMPLES, "bin", "batch"), "-pig", pigBinary(), "-j", "2", "-prompt", "batch-question", dirs[0]!, dirs[1]!, missing, dirs[2]!], {
      cwd: w.cwd,
      env: w.env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const deadline = Date.now() + 30_000;
    while (w.llm.requests.length < 2) {
      if (Date.now() > deadline) throw new Error(`two pig processes did not ask the model; stderr so far unknown, requests: ${w.llm.requests.length}`);
      await Bun.sleep(20);
    }
    // Two requests wait for their answers: two pigs run, and no third has been started.
    expect(childrenNamed(proc.pid, "pig")).toHaveLength(2);
    expect(w.llm.requests).toHaveLength(2);
    release();
    const [stdout, stderr, code] = await output;
    expect({ code, stderr: stderr.includes("done") }).toEqual({ code: 1, stderr: true });
    expect(stdout.split("\n")).toEqual([
      `ok   ${dirs[0]}: Answer for alpha. …`,
      `ok   ${dirs[1]}: Answer for bravo. …`,
      `FAIL ${missing}: not a directory`,
      `ok   ${dirs[2]}: Answer for charlie. …`,
      "3 ok, 1 failed",
      "",
    ]);
    expect(w.llm.requests).toHaveLength(3);
  }, 60_000);

  test("stats reads a branched session without pig, and pig's get_session_stats agrees", async () => {
    const w = await world(
      [
        { when: "stats-one", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { when: "stats-file-content", text: "Read it." },
      ],
      { files: { "notes.txt": "stats-file-content\n" } },
    );
    const client = track(new RpcClient({ cwd: w.cwd, env: w.env }));
    await client.promptAndWait("stats-one: read notes.txt");
    await client.promptAndWait("stats-two");
    const forks = (await client.request({ type: "get_fork_messages" })).data as { messages: { entryId: string }[] };
    // Back to before the first prompt: the next one starts a second branch.
    expect(await client.request({ type: "navigate_tree", targetId: forks.messages[0]!.entryId })).toMatchObject({ success: true });
    await client.promptAndWait("stats-three");
    const file = String(((await client.request({ type: "get_state" })).data as Json).sessionFile);
    const pigStats = (await client.request({ type: "get_session_stats" })).data as Json;
    expect(await client.close()).toBe(0);

    // What the file holds, counted here.
    const entries = readJsonLines(file).slice(1);
    const messages = entries.filter((e) => e.type === "message").map((e) => e.message as Json);
    const byRole = (role: string) => messages.filter((m) => m.role === role).length;
    const parents = new Set(entries.map((e) => e.parentId));
    const leaves = entries.filter((e) => !parents.has(e.id)).length;
    expect(leaves).toBe(2);
    expect([byRole("user"), byRole("toolResult")]).toEqual([3, 1]);

    const offline = await run([join(EXAMPLES, "bin", "stats"), file], { cwd: w.cwd, env: w.env });
    expect(offline.code).toBe(0);
    const lines = offline.stdout.split("\n");
    expect(lines[0]).toBe(file);
    expect(lines[1]).toMatch(new RegExp(`^  entries: ${entries.length} \\(active branch \\d+, branches 2\\)$`));
    const roles = ["assistant", "system", "toolResult", "user"]
      .map((role) => [role, byRole(role)] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([role, n]) => `${role} ${n}`)
      .join(", ");
    expect(lines[2]).toBe(`  messages: ${messages.length} (${roles})`);
    expect(lines[3]).toBe("  tool calls: 1 (read 1)");
    const t = pigStats.tokens as Json;
    expect(t.total).toBeGreaterThan(0);
    expect(lines[4]).toBe(`  tokens: ${t.total} (input ${t.input}, output ${t.output}, cache read ${t.cacheRead}, cache write ${t.cacheWrite})`);
    expect(lines[5]).toBe(`  cost: $${(pigStats.cost as number).toFixed(4)}`);

    // With -pig, each file is also opened by pig; its counts are the file's, and opening it
    // to ask changes nothing in it.
    const before = readFileSync(file, "utf8");
    const withPig = await run([join(EXAMPLES, "bin", "stats"), "-pig", pigBinary(), join(file, "..")], { cwd: w.cwd, env: w.env });
    expect(withPig.code).toBe(0);
    const pigLine = withPig.stdout.split("\n").find((l) => l.startsWith("  pig: "));
    expect(pigLine).toBe(
      `  pig: messages ${messages.length} (user 3, assistant ${byRole("assistant")}, tool results 1), tool calls 1, tokens ${t.total}, cost $${(pigStats.cost as number).toFixed(4)}`,
    );
    expect(withPig.stdout.startsWith(offline.stdout.trimEnd())).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(before);
  }, 60_000);
});
