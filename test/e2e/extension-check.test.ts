/**
 * `pig extension check`, through the built binary: every example passes (TypeScript, Python, Go,
 * and the Rust one written from the protocol document alone), and the
 * checks that should fail do, naming why — a handler that throws, an answer that is no message
 * list, a command that throws, and a process that will not exit when it should.
 * Fixtures: examples/extensions/, test/fixtures/extensions/check/.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildRustExample, cargoPath, haveDebianCrates, RUST_EXAMPLE_MANIFEST } from "../../examples/extensions/rust/build.ts";
import { pigBinary } from "../helpers/binary.ts";
import { describeNeeding } from "../helpers/needs.ts";

const ROOT = join(import.meta.dir, "..", "..");
const EXAMPLES = join(ROOT, "examples", "extensions");
const FIXTURES = join(ROOT, "test", "fixtures", "extensions", "check");

type Result = { name: string; status: "pass" | "fail" | "skip"; detail: string };

async function check(args: string[]): Promise<{ code: number; results: Result[]; stderr: string }> {
  const proc = Bun.spawn([pigBinary(), "extension", "check", "--json", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const report = JSON.parse(stdout) as { results: Result[] };
  return { code, results: report.results, stderr };
}

const statusOf = (results: Result[]) => Object.fromEntries(results.map((r) => [r.name, r.status]));

describe("the TypeScript examples pass", () => {
  const always = { launch: "pass", "launch.bad-token": "pass", "launch.version": "pass", register: "pass", "replication.lazy": "pass", "shutdown.socket-close": "pass" };
  const cases: Record<string, Record<string, string>> = {
    "progress-tool.ts": { "tools.count_lines": "pass", "tools.count_lines.progress": "pass", "tools.count_lines.cancel": "pass" },
    "permission-gate.ts": { "events.tool_call": "pass", ui: "pass", "liveness.ping-while-waiting": "pass" },
    "word-count-command.ts": { "commands.words": "pass", "replication.mirror": "pass" },
    "context-filter.ts": { "events.context": "pass" },
    "prompt-counter.ts": { "events.session_start": "pass", "events.before_agent_start": "pass", "commands.count": "pass", "replication.mirror": "pass" },
    "status-line.ts": { "events.turn_start": "pass", "events.agent_end": "pass" },
    "custom-compaction.ts": { "events.session_before_compact": "pass" },
    "session-reader.ts": { "commands.session": "pass", "replication.mirror": "pass" },
  };
  for (const [file, expected] of Object.entries(cases)) {
    test(file, async () => {
      const { code, results } = await check([join(EXAMPLES, file)]);
      expect(results.filter((r) => r.status === "fail")).toEqual([]);
      expect(statusOf(results)).toMatchObject({ ...always, ...expected });
      expect(code).toBe(0);
    });
  }
});

describe("the Python examples pass (the SDK answers check.mirror)", () => {
  const always = { launch: "pass", "launch.bad-token": "pass", "launch.version": "pass", register: "pass", "replication.lazy": "pass", "shutdown.socket-close": "pass" };
  const cases: Record<string, Record<string, string>> = {
    "progress-tool.py": { "tools.count_lines.progress": "pass", "tools.count_lines.cancel": "pass" },
    "permission-gate.py": { "events.tool_call": "pass", ui: "pass", "liveness.ping-while-waiting": "pass" },
    "session-reader.py": { "commands.session": "pass", "replication.mirror": "pass" },
    "context-filter.py": { "events.context": "pass" },
    "prompt-counter.py": {},
    "word-count-command.py": {},
  };
  for (const [file, expected] of Object.entries(cases)) {
    test(file, async () => {
      const { code, results } = await check([join(EXAMPLES, "python", file)]);
      expect(results.filter((r) => r.status === "fail")).toEqual([]);
      expect(statusOf(results)).toMatchObject({ ...always, ...expected });
      expect(code).toBe(0);
    });
  }
});

describeNeeding("go", Bun.which("go") !== null, "the Go examples pass (sdk/go answers check.mirror)", () => {
  const always = { launch: "pass", "launch.bad-token": "pass", "launch.version": "pass", register: "pass", "replication.lazy": "pass", "shutdown.socket-close": "pass" };
  const cases: Record<string, Record<string, string>> = {
    "progress-tool": { "tools.count_lines.progress": "pass", "tools.count_lines.cancel": "pass" },
    "permission-gate": { "events.tool_call": "pass", ui: "pass", "liveness.ping-while-waiting": "pass" },
    "session-reader": { "replication.mirror": "pass" },
    "context-filter": { "events.context": "pass" },
    "prompt-counter": {},
    "word-count-command": {},
  };
  const GO_EXAMPLES = join(EXAMPLES, "go");
  beforeAll(() => {
    const build = Bun.spawnSync([Bun.which("go")!, "build", "-o", "bin/", "./..."], { cwd: GO_EXAMPLES, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`go build failed:\n${build.stderr.toString()}`);
  });
  for (const [name, expected] of Object.entries(cases)) {
    test(name, async () => {
      const { code, results } = await check([join(GO_EXAMPLES, name, "pig-extension.json")]);
      expect(results.filter((r) => r.status === "fail")).toEqual([]);
      expect(statusOf(results)).toMatchObject({ ...always, ...expected });
      expect(code).toBe(0);
    });
  }
});

describeNeeding("cargo and librust-serde-json-dev", cargoPath() !== undefined && haveDebianCrates(), "the Rust example (written from the protocol document alone)", () => {
  test("passes every check, its copy of the log included", async () => {
    buildRustExample();
    const { code, results } = await check([RUST_EXAMPLE_MANIFEST]);
    expect(results.filter((r) => r.status !== "pass")).toEqual([]);
    expect(statusOf(results)).toMatchObject({
      "tools.count_lines.cancel": "pass",
      "events.tool_call": "pass",
      "liveness.ping-while-waiting": "pass",
      "replication.mirror": "pass",
      "shutdown.socket-close": "pass",
    });
    expect(code).toBe(0);
  });
});

test("every event the scripted session can raise reaches an extension that subscribes to all of them", async () => {
  const { code, results } = await check([join(FIXTURES, "every-event.ts")]);
  expect(code).toBe(0);
  const events = results.filter((r) => r.name.startsWith("events."));
  const skipped = events.filter((r) => r.status === "skip").map((r) => r.name).sort();
  // What the check cannot raise without the extension's help (dialogs, a failing compaction, an
  // MCP server it registers), and what pig never sends.
  expect(skipped).toEqual(["events.cache_warming_decision", "events.mcp_servers_change", "events.session_compact_failed", "events.ui_prompt_end", "events.ui_prompt_start"]);
  expect(events.filter((r) => r.status === "pass").length).toBe(events.length - skipped.length);
  expect(statusOf(results)).toMatchObject({ "events.project_trust": "pass", "events.user_bash": "pass", "events.session_before_tree": "pass", "events.model_select": "pass" });
});

test("a handler that throws, an invalid context answer and a throwing command fail, each with its reason", async () => {
  const { code, results } = await check([join(FIXTURES, "throwing.ts")]);
  expect(code).toBe(1);
  const failed = Object.fromEntries(results.filter((r) => r.status === "fail").map((r) => [r.name, r.detail]));
  expect(Object.keys(failed).sort()).toEqual(["commands.boom", "events.context", "events.tool_call"]);
  expect(failed["events.tool_call"]).toContain("the gate broke");
  expect(failed["events.context"]).toContain("invalid context result");
  expect(failed["commands.boom"]).toContain("the command broke");
  expect(statusOf(results)).toMatchObject({ launch: "pass", "shutdown.socket-close": "pass" });
});

test("a handler that never answers fails its event after the deadline, naming the safe default pig took", async () => {
  const { code, results } = await check(["--limit", "1500", join(FIXTURES, "slow.ts")]);
  expect(code).toBe(1);
  const failed = results.filter((r) => r.status === "fail");
  expect(failed.map((r) => r.name)).toEqual(["events.tool_call"]);
  expect(failed[0]!.detail).toMatch(/did not answer tool_call within 750 ms; pig took the safe default: blocked$/);
});

test("a process that stays when refused, against another protocol, or after its socket closed fails those checks", async () => {
  const { code, results } = await check(["--limit", "1500", "--", "python3", join(FIXTURES, "stubborn.py")]);
  expect(code).toBe(1);
  expect(statusOf(results)).toMatchObject({
    launch: "pass",
    "launch.bad-token": "fail",
    "launch.version": "fail",
    register: "pass",
    "tools.stubborn_tool": "pass",
    "shutdown.socket-close": "fail",
  });
  expect(results.find((r) => r.name === "shutdown.socket-close")!.detail).toBe("still running 1500 ms after its socket closed");
});

test("usage: no target, two targets and an unknown option are refused with the usage; --help prints it", async () => {
  for (const args of [[], ["a.ts", "b.ts"], ["--frob", "a.ts"], ["--"]]) {
    const proc = Bun.spawn([pigBinary(), "extension", "check", ...args], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(`${args.join(" ")} → ${code}`).toBe(`${args.join(" ")} → 2`);
    expect(stderr).toContain("Usage: pig extension check");
  }
  const help = Bun.spawn([pigBinary(), "extension", "check", "--help"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  expect(await new Response(help.stdout).text()).toContain("-- <command> [args…]");
  expect(await help.exited).toBe(0);
  const other = Bun.spawn([pigBinary(), "extension", "frob"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  expect(await new Response(other.stderr).text()).toContain("unknown subcommand frob");
  expect(await other.exited).toBe(2);
});
