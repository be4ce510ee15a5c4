// A Go extension (sdk/go) behind pig's real extension host, in this process, beside the same
// work done by a TypeScript extension in pig's runner (the built binary):
//   1. spawn → registered: from starting the host until the extension's `ready`, and the
//      process's memory then (VmHWM, RssAnon);
//   2. a tool round trip: median and p95 of 2,000 calls after 200 unmeasured;
//   3. the first `GetEntries()` of a 50 MB session (gen-sessions.ts, seed 1), timed inside the
//      Go process, from a fresh process each time: with the snapshot naming the lines on disk
//      (`session.subscribe {file: true}`, what pig answers) and with every line sent as text
//      (the plain form); then the first `GetBranch()` on top.
// Needs `go` (Debian's golang-go) and `npm run build`.
//
//   node_modules/.bin/bun scripts/bench/ext-go.ts [--runs N] [--warmup N] [--keep]
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SessionLogSnapshot } from "../../src/extensions/host/session-port.ts";
import { storeSnapshot } from "../../src/runtime/extension-port.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { BenchHosts, BenchPort, emptySnapshot, readStatus, timeCalls } from "./ext-host.ts";
import { writeSession } from "./gen-sessions.ts";
import { cleanup, interleave, median, percentile, requirePig } from "./measure.ts";
import { commonArgs } from "./options.ts";
import { fmtMB, fmtMs } from "./report.ts";

const TOOL_CALLS = 2000;
const TOOL_WARMUP = 200;
const SESSION_MB = 50;
const SESSION_ENTRIES = 20_000;
const SDK = resolve(import.meta.dir, "..", "..", "sdk", "go");

const GO_SOURCE = `package main

import (
	"encoding/json"
	"log"
	"time"

	sdk "github.com/pig-coding-agent/pig/sdk/go"
)

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.RegisterTool(sdk.Tool{Name: "echo_go", Description: "answers ok",
			Parameters: json.RawMessage(\`{"type":"object","properties":{"path":{"type":"string"},"count":{"type":"number"}},"required":["path"]}\`),
			Execute: func(c *sdk.ToolContext, _ json.RawMessage) (sdk.ToolResult, error) {
				return sdk.ToolResult{Content: []sdk.Content{sdk.Text("ok")}}, nil
			}})
		x.RegisterTool(sdk.Tool{Name: "session_read", Description: "times the first session reads",
			Execute: func(c *sdk.ToolContext, _ json.RawMessage) (sdk.ToolResult, error) {
				t0 := time.Now()
				entries := c.GetEntries()
				t1 := time.Now()
				branch := c.GetBranch()
				t2 := time.Now()
				if err := c.Err(); err != nil {
					return sdk.ToolResult{}, err
				}
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
				return sdk.ToolResult{Content: []sdk.Content{sdk.Text("ok")}, Details: map[string]any{
					"entriesMs": ms(t1.Sub(t0)), "branchMs": ms(t2.Sub(t1)), "count": len(entries), "branch": len(branch)}}, nil
			}})
	})
	if err != nil {
		log.Fatal(err)
	}
}
`;

const TS_SOURCE = `import { Type } from "typebox";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "echo_ts",
    label: "Echo",
    description: "answers ok",
    parameters: Type.Object({ path: Type.String(), count: Type.Optional(Type.Number()) }),
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
  });
}
`;

const args = commonArgs({ runs: 7, warmup: 1 });
const pig = requirePig(args);
const go = Bun.which("go");
if (!go) throw new Error("ext-go.ts needs go (apt-get install golang-go)");
const work = mkdtempSync(join(tmpdir(), "pig-bench-go-"));
const hosts = new BenchHosts({ pig, cwd: work, agentDir: join(work, "agent"), socketBaseDir: work });

try {
  // The Go extension: its own module, the SDK taken from this checkout.
  const goDir = join(work, "go-ext");
  mkdirSync(goDir);
  writeFileSync(join(goDir, "go.mod"), `module bench/goext\n\ngo 1.19\n\nrequire github.com/pig-coding-agent/pig/sdk/go v0.0.0\n\nreplace github.com/pig-coding-agent/pig/sdk/go => ${SDK}\n`);
  writeFileSync(join(goDir, "main.go"), GO_SOURCE);
  const build = Bun.spawnSync([go, "build", "-o", "bench-go", "."], { cwd: goDir, stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`go build failed:\n${build.stderr.toString()}`);
  writeFileSync(join(goDir, "pig-extension.json"), `${JSON.stringify({ name: "bench-go", protocol: "pig-ext/1", command: ["./bench-go"] })}\n`);
  const tsFile = join(work, "echo.ts");
  writeFileSync(tsFile, TS_SOURCE);

  const cwd = work;
  const agentDir = join(work, "agent");
  const signal = new AbortController().signal;
  const toolCtx = { cwd, agentDir } as unknown as Parameters<AnyTool["execute"]>[4];
  const kinds = { go: { paths: [goDir], tool: "echo_go" }, ts: { paths: [tsFile], tool: "echo_ts" } } as const;
  type Kind = keyof typeof kinds;

  // 1. spawn → registered, and memory once ready.
  const starts = await interleave("spawn → registered", ["go", "ts"] as Kind[], args.runs, args.warmup, async (kind) => {
    Bun.gc(true);
    const start = performance.now();
    const h = await hosts.start([...kinds[kind].paths], new BenchPort(emptySnapshot()));
    const ms = performance.now() - start;
    const pid = h.list()[0]?.pid;
    const mem = pid === undefined ? undefined : readStatus(pid);
    await hosts.stop(h);
    return { ms, hwm: mem?.hwm ?? Number.NaN, anon: mem?.anon ?? Number.NaN };
  });

  // 2. Tool round trips, each kind in its own host.
  const trips = new Map<Kind, number[]>();
  for (const kind of ["go", "ts"] as Kind[]) {
    process.stderr.write(`[bench] tool round trip (${kind}) `);
    const h = await hosts.start([...kinds[kind].paths], new BenchPort(emptySnapshot()));
    const tool = h.tools().find((t) => t.name === kinds[kind].tool);
    if (!tool) throw new Error(`${kinds[kind].tool} not registered`);
    trips.set(
      kind,
      await timeCalls(TOOL_WARMUP, TOOL_CALLS, async (i) => {
        const r = await tool.execute(`call_${i}`, { path: "src/a.ts", count: i }, signal, () => {}, toolCtx);
        if (r.content[0]?.type !== "text") throw new Error(`${tool.name} answered ${JSON.stringify(r.content)}`);
      }),
    );
    await hosts.stop(h);
    process.stderr.write("done\n");
  }

  // 3. The first GetEntries of a 50 MB session, a fresh process each time.
  const sessionFile = join(work, "session.jsonl");
  const gen = await writeSession(sessionFile, { targetBytes: SESSION_MB * 1024 * 1024, entries: SESSION_ENTRIES, seed: 1 });
  const store = SessionStore.open(sessionFile);
  const plain = (): SessionLogSnapshot => storeSnapshot(store, false);
  const onDisk = (): SessionLogSnapshot => storeSnapshot(store, true);
  interface Read {
    entriesMs: number;
    branchMs: number;
    toolMs: number;
    snapshotMs: number;
  }
  const reads = await interleave(`first GetEntries, ${SESSION_MB} MB`, ["file", "plain"] as const, 5, 1, async (form): Promise<Read> => {
    // Without a file form the port answers `file: true` with the plain snapshot.
    const port = form === "file" ? new BenchPort(plain, onDisk) : new BenchPort(plain);
    const h = await hosts.start([goDir], port);
    const read = h.tools().find((t) => t.name === "session_read")!;
    const start = performance.now();
    const r = await read.execute("read_1", {}, signal, () => {}, toolCtx);
    const toolMs = performance.now() - start;
    await hosts.stop(h);
    const d = r.details as { entriesMs: number; branchMs: number; count: number; branch: number };
    if (d.count !== gen.lines - 1) throw new Error(`session_read saw ${d.count} entries, the file has ${gen.lines - 1}`);
    return { entriesMs: d.entriesMs, branchMs: d.branchMs, toolMs, snapshotMs: port.snapshotMs };
  });

  const stat = <S>(xs: readonly S[], pick: (s: S) => number) => median(xs.map(pick));
  const rows: [string, string, string][] = [
    ["spawn → registered (host start until `ready`), median", fmtMs(stat(starts.get("go")!, (s) => s.ms)), fmtMs(stat(starts.get("ts")!, (s) => s.ms))],
    ["extension process once ready: VmHWM", fmtMB(stat(starts.get("go")!, (s) => s.hwm)), fmtMB(stat(starts.get("ts")!, (s) => s.hwm))],
    ["extension process once ready: RssAnon", fmtMB(stat(starts.get("go")!, (s) => s.anon)), fmtMB(stat(starts.get("ts")!, (s) => s.anon))],
    [`tool round trip, median of ${TOOL_CALLS}`, fmtUs(median(trips.get("go")!)), fmtUs(median(trips.get("ts")!))],
    [`tool round trip, p95 of ${TOOL_CALLS}`, fmtUs(percentile(trips.get("go")!, 95)), fmtUs(percentile(trips.get("ts")!, 95))],
  ];
  const file = reads.get("file")!;
  const text = reads.get("plain")!;
  console.log(`\nGo extension (sdk/go) vs TypeScript extension (pig's runner), pig ${pig}\n`);
  console.log("| metric | Go | TypeScript |\n| --- | --- | --- |");
  for (const [metric, g, t] of rows) console.log(`| ${metric} | ${g} | ${t} |`);
  console.log(`\nfirst GetEntries() of a ${fmtMB(gen.bytes)} session (${gen.lines - 1} entries), inside the Go process, median of 5 fresh processes\n`);
  console.log("| snapshot | GetEntries | then GetBranch | whole tool call | host's snapshot |\n| --- | --- | --- | --- | --- |");
  for (const [name, xs] of [["lines on disk named by byte range (`file: true`, what pig answers)", file], ["every line as text over the socket (plain form)", text]] as const) {
    console.log(`| ${name} | ${fmtMs(stat(xs, (r) => r.entriesMs))} | ${fmtMs(stat(xs, (r) => r.branchMs))} | ${fmtMs(stat(xs, (r) => r.toolMs))} | ${fmtMs(stat(xs, (r) => r.snapshotMs))} |`);
  }
} finally {
  await hosts.stopAll();
  cleanup(work, args.keep);
}

function fmtUs(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : fmtMs(ms);
}
