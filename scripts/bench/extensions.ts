// Extensions: what 30 small TypeScript extensions cost pig and Pi, and what one call through
// pig's extension host costs, in the same run:
//   1. `-p hello` (one turn, fake LLM in this process): wall time and peak RSS of the whole
//      process tree, for pig without extensions, pig with 30 generated extensions packed in one
//      runner process (the default), the same 30 with a process each (`"process": "own"`
//      manifests), and each Pi release without and with the same 30 files (loaded in-process);
//   2. one extension tool call through the real host and runner (built binary), in this process:
//      median and p95 of 2,000 calls after warm-up;
//   3. `tool_call` interception: `host.hooks().toolCall(…)` with one subscribed extension vs
//      `NO_HOOKS`;
//   4. an extension's first synchronous session read (`ctx.sessionManager.getEntries()`) of a
//      50 MB session, timed inside the runner, from a fresh runner each time.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type FakeLlm, type Script, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { type AgentHooks, NO_HOOKS, type ToolCallHookEvent } from "../../src/agent/hooks.ts";
import { discoverExtensions, type ExtensionSource } from "../../src/extensions/discovery.ts";
import { encodeFrames } from "../../src/extensions/framing.ts";
import { ExtensionHost, startExtensionHost } from "../../src/extensions/host/host.ts";
import { RUNNER_SUBCOMMAND } from "../../src/extensions/host/runner-command.ts";
import type { HostSessionPort, SessionLogSnapshot } from "../../src/extensions/host/session-port.ts";
import { BenchPort, emptySnapshot, readStatus, timeCalls } from "./ext-host.ts";
import { DEFAULT_MAX_FRAME_BYTES } from "../../src/extensions/protocol.ts";
import { HEADLESS_UI } from "../../src/extensions/ui.ts";
import { SessionStore } from "../../src/session/store.ts";
import { storeSnapshot as storeSnapshotOf } from "../../src/runtime/extension-port.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { writeSession } from "./gen-sessions.ts";
import { type CacheKind, firstStartEnv, withEmptyCaches } from "./first-start.ts";
import { writeFakeAgentDir } from "./fake-agent.ts";
import { extensionSource, smallBase } from "./ext-files.ts";
import { commonArgs, piReleases } from "./options.ts";
import { ensurePis, PI_QUIET_ENV, piEnv, type PiInstall, type PiRelease } from "./pi-install.ts";
import { cleanup, dropPageCache, interleave, median, percentile, pigEnv, requirePig, runOnce } from "./measure.ts";
import { fmtMB, fmtMs, printReport, type Row, shellLine } from "./report.ts";
import { runTree, SAMPLE_INTERVAL_MS, type TreeSample } from "./tree-rss.ts";

const EXTENSIONS = 30;
const PROMPT = "hello";
const ONE_TURN: Script = { responses: [{ text: "ok" }] };
const TOOL_CALLS = 2000;
const TOOL_WARMUP = 200;
const SESSION_MB = 50;
const SESSION_ENTRIES = 20_000;
const SESSION_RUNS = 5;

// Times the first synchronous read of the session log from inside the runner.
const SESSION_READ_SOURCE = `import { Type } from "typebox";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "session_read",
    label: "Session read",
    description: "Times the first synchronous session read",
    parameters: Type.Object({ mode: Type.String() }),
    async execute(_id, params, _signal, _onUpdate, ctx) {
      const sm = ctx.sessionManager;
      const t0 = performance.now();
      let subscribeMs;
      if (params.mode === "leaf-first") {
        sm.getLeafId();
        subscribeMs = performance.now() - t0;
      }
      const t1 = performance.now();
      const entries = sm.getEntries();
      const t2 = performance.now();
      sm.getEntries();
      const t3 = performance.now();
      const details = { firstMs: t2 - t0, subscribeMs, parseMs: subscribeMs === undefined ? undefined : t2 - t1, againMs: t3 - t2, count: entries.length };
      return { content: [{ type: "text", text: "ok" }], details };
    },
  });
}
`;

// Marks when its factory runs and when its process began, both on the shared wall clock.
const PROBE_SOURCE = `import { Type } from "typebox";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  const loadedAt = performance.timeOrigin + performance.now();
  const origin = performance.timeOrigin;
  pi.registerTool({
    name: "probe",
    label: "Probe",
    description: "When this extension was loaded",
    parameters: Type.Object({}),
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: { loadedAt, origin } }),
  });
}
`;

/**
 * Called with the runner's pid when its `initialize` reaches the host (for the start-up
 * breakdown): the host's private `owner()` is wrapped here, in the benchmark only.
 */
let onInitialize: ((pid: number) => void) | undefined;
{
  const proto = ExtensionHost.prototype as unknown as { owner(): { initializeResult(proc: unknown, params: { pid?: number }): unknown } };
  const owner = proto.owner;
  proto.owner = function (this: unknown) {
    const o = owner.call(this);
    const initializeResult = o.initializeResult;
    o.initializeResult = (proc, params) => {
      if (params.pid !== undefined) onInitialize?.(params.pid);
      return initializeResult(proc, params);
    };
    return o;
  };
}

const args = commonArgs({ runs: 7, warmup: 1 });
// Pi 0.87.1 and the latest unless --pi says otherwise (0.73.1 loads the same files too).
const releases: PiRelease[] = Bun.argv.includes("--pi") ? args.pi : piReleases("0.87.1,latest");
if (args.piOnly) {
  console.log("extensions.ts measures pig's extension host against Pi; skipped with --pi-only");
  process.exit(0);
}
const pig = requirePig(args);
const pis = ensurePis(releases);
// Bun's module resolver lists every parent directory of an extension file it imports, so the
// files live where extensions usually do, under a directory with few entries (~/.cache, or
// PIG_BENCH_EXT_BASE), not under a temp dir that may hold many thousands. The same 30 files are
// also measured once from $TMPDIR, with its entry count, to show what such a directory costs.
const base = process.env.PIG_BENCH_EXT_BASE ?? smallBase();
const work = mkdtempSync(join(base, "pig-bench-ext-"));
const tmpWork = mkdtempSync(join(tmpdir(), "pig-bench-ext-"));

let llm: FakeLlm | undefined;
const hosts: ExtensionHost[] = [];
try {
  // ------------------------------------------------------------------------------------------
  // The 30 extensions: one .ts file each, and for pig's one-process-each case a manifest per
  // file that points at it (Pi reads only the .ts files).
  const tsDir = join(work, "ext");
  const ownDir = join(work, "ext-own");
  mkdirSync(tsDir);
  const tsFiles: string[] = [];
  const manifests: string[] = [];
  for (let i = 0; i < EXTENSIONS; i++) {
    const file = join(tsDir, `ext_${i}.ts`);
    writeFileSync(file, extensionSource(i));
    tsFiles.push(file);
    const dir = join(ownDir, `ext_${i}`);
    mkdirSync(dir, { recursive: true });
    const manifest = join(dir, "pig-extension.json");
    writeFileSync(manifest, `${JSON.stringify({ name: `ext_${i}`, runtime: "typescript", main: file, process: "own" }, null, 2)}\n`);
    manifests.push(manifest);
  }
  const eArgs = (paths: readonly string[]) => paths.flatMap((p) => ["-e", p]);
  const tmpFiles = tsFiles.map((f, i) => {
    const copy = join(tmpWork, `ext_${i}.ts`);
    writeFileSync(copy, readFileSync(f));
    return copy;
  });
  const parentEntries = (file: string) =>
    parents(file).map((d) => `${d} ${readdirSync(d).length.toLocaleString("en")}`).join(", ");

  // The server runs in this process, so a request is timestamped on the same clock as the spawn.
  let arrivals: number[] = [];
  llm = await startFakeLlm({ script: ONE_TURN, onRequest: () => void arrivals.push(performance.now()) });
  const server = llm;
  const cwd = join(work, "cwd");
  mkdirSync(cwd);

  type Key = string;
  interface Side {
    key: Key;
    cmd: string[];
    env: Record<string, string | undefined>;
    agentDir: string;
    line: string;
    /** Tool names the model must be offered. */
    tools: number;
    /** A first start: these caches empty, in a fresh directory each run (first-start.ts). */
    firstStart?: CacheKind;
  }
  const sides: Side[] = [];
  // pig's host makes its socket's directory in $XDG_RUNTIME_DIR, else in the temp dir, and first
  // lists that directory for stale ones. Unset here unless the environment sets it; one side
  // sets it to an empty directory of its own, as a desktop session does.
  const xdgDir = join(work, "xdg-runtime");
  mkdirSync(xdgDir, { mode: 0o700 });
  const pigSide = (key: Key, extra: string[], tools: number, env: Record<string, string> = {}, firstStart?: CacheKind) => {
    const agentDir = join(work, `agent-${key}`);
    writeFakeAgentDir(agentDir, `${server.url}/v1`);
    const cmd = [pig, "-p", ...extra, PROMPT];
    const shown = { ...(firstStart ? firstStartEnv(firstStart, "EMPTY_DIR") : {}), ...env, PIG_CODING_AGENT_DIR: agentDir };
    sides.push({ key, cmd, env: { ...pigEnv(agentDir), ...env }, agentDir, line: shellLine(cmd, shown), tools, ...(firstStart ? { firstStart } : {}) });
  };
  pigSide("pig", [], 0);
  pigSide("pig-one", eArgs([tsFiles[0]!]), 1);
  pigSide("pig-packed", eArgs(tsFiles), EXTENSIONS);
  pigSide("pig-packed-first", eArgs(tsFiles), EXTENSIONS, {}, "pig");
  pigSide("pig-own", eArgs(manifests), EXTENSIONS);
  pigSide("pig-packed-tmp", eArgs(tmpFiles), EXTENSIONS);
  pigSide("pig-packed-xdg", eArgs(tsFiles), EXTENSIONS, { XDG_RUNTIME_DIR: xdgDir });
  const piSide = (p: PiInstall, withExt: boolean, first: boolean) => {
    const key = `${p.release}${withExt ? "-ext" : ""}${first ? "-first" : ""}`;
    const agentDir = join(work, `agent-pi-${key}`);
    writeFakeAgentDir(agentDir, `${server.url}/v1`);
    const cmd = [...p.cmd, "-p", ...(withExt ? eArgs(tsFiles) : []), PROMPT];
    const shown = { ...(first ? firstStartEnv("pi", "EMPTY_DIR") : {}), ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir };
    sides.push({ key, cmd, env: piEnv(p, agentDir), agentDir, line: shellLine(cmd, shown), tools: withExt ? EXTENSIONS : 0, ...(first ? { firstStart: "pi" as const } : {}) });
  };
  for (const p of pis) {
    piSide(p, false, false);
    piSide(p, true, false);
    // A first start only against the latest: each one costs Pi its whole compile.
    if (p.release === "latest") {
      piSide(p, false, true);
      piSide(p, true, true);
    }
  }
  const byKey = new Map(sides.map((s) => [s.key, s]));
  // A first-start side runs with its caches in a fresh directory each time; the others as they are.
  const inCaches = <T>(side: Side, run: (env: Record<string, string | undefined>) => Promise<T>): Promise<T> =>
    side.firstStart ? withEmptyCaches(side.firstStart, work, (extra) => run({ ...side.env, ...extra })) : run(side.env);
  const keys = sides.map((s) => s.key);

  // Untimed: everyone prints the answer, and the model is offered all 30 extension tools.
  for (const side of sides) {
    server.setScript(ONE_TURN);
    server.requests.splice(0);
    const [out, err, code] = await inCaches(side, async (env) => {
      const proc = Bun.spawn(side.cmd, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      return Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    });
    if (code !== 0 || out.trim() !== "ok") throw new Error(`${side.line} printed ${JSON.stringify(out.trim())} (exit ${code}):\n${err.slice(-2000)}`);
    const offered = ((server.requests[0]?.body as { tools?: { function?: { name?: string } }[] } | undefined)?.tools ?? [])
      .map((t) => t.function?.name ?? "")
      .filter((n) => /^tool_\d+$/.test(n));
    if (offered.length !== side.tools) throw new Error(`${side.line}: the model was offered ${offered.length} extension tools, want ${side.tools}`);
    rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
  }
  dropPageCache([pig, ...new Set(pis.map((p) => p.node))]);

  const gnuPig: number[] = [];
  const oneRun = async (key: Key, rss: boolean) => {
    const side = byKey.get(key)!;
    server.setScript(ONE_TURN);
    server.requests.splice(0);
    Bun.gc(true);
    arrivals = [];
    let start = Number.NaN;
    // The spawn's clock starts once the empty caches are made, as the arrivals' does.
    const started = <T>(run: () => Promise<T>): Promise<T> => {
      start = performance.now();
      return run();
    };
    const sample: TreeSample & { firstMs?: number } = rss
      ? await inCaches(side, (env) => started(() => runTree(side.cmd, { env, cwd })))
      : { ...(await inCaches(side, (env) => started(() => runOnce(side.cmd, { env, cwd })))), totalBytes: Number.NaN, rootBytes: Number.NaN, anonBytes: Number.NaN, pssBytes: Number.NaN, processes: [], sweeps: 0 };
    sample.firstMs = (arrivals[0] ?? Number.NaN) - start;
    if (server.requests.length !== 1) throw new Error(`${side.line}: expected 1 model request, the server got ${server.requests.length}`);
    rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
    if (rss && key === "pig") {
      // Cross-check of the sampling on the one case that is a single process: GNU time's %M.
      server.setScript(ONE_TURN);
      gnuPig.push((await runOnce(side.cmd, { env: side.env, cwd, rss: true })).maxRssBytes);
      rmSync(join(side.agentDir, "sessions"), { recursive: true, force: true });
    }
    return sample;
  };
  const timed = await interleave("-p hello: wall time", keys, args.runs, args.warmup, (k) => oneRun(k, false));
  const treed = await interleave("-p hello: process-tree peak RSS", keys, args.runs, args.warmup, (k) => oneRun(k, true));
  await server.close();
  llm = undefined;

  const t = (k: Key) => median(timed.get(k)!.map((s) => s.ms));
  const first = (k: Key) => median(timed.get(k)!.map((s) => s.firstMs!));
  const afterFirst = (k: Key) => median(timed.get(k)!.map((s) => s.ms - s.firstMs!));
  const rssOf = (k: Key, pick: (s: TreeSample) => number) => median(treed.get(k)!.map(pick));
  const total = (k: Key) => rssOf(k, (s) => s.totalBytes);
  const rootOnly = (k: Key) => rssOf(k, (s) => s.rootBytes);
  const anon = (k: Key) => rssOf(k, (s) => s.anonBytes);
  const pss = (k: Key) => rssOf(k, (s) => s.pssBytes);
  const procCount = (k: Key) => Math.max(...treed.get(k)!.map((s) => s.processes.length));
  const outlived = (k: Key) => Math.max(0, ...treed.get(k)!.flatMap((s) => s.processes.map((p) => p.outlivedMs)));
  const sweeps = median([...treed.values()].flat().map((s) => s.sweeps));

  // ------------------------------------------------------------------------------------------
  // 2 and 3: one extension (tool_0, which also subscribes to tool_call) behind the real host,
  // with the runner started from the built binary.
  const runner = [pig, RUNNER_SUBCOMMAND];
  const sourcesOf = (paths: string[]): ExtensionSource[] => {
    const found = discoverExtensions({ cwd, agentDir: join(work, "agent-host"), projectTrusted: false, cliPaths: paths, noExtensions: true });
    if (found.errors.length > 0) throw new Error(found.errors.join("\n"));
    return found.sources;
  };
  const startHost = async (paths: string[], port: HostSessionPort): Promise<ExtensionHost> => {
    const errors: string[] = [];
    const host = await startExtensionHost({
      sources: sourcesOf(paths),
      port,
      ui: HEADLESS_UI,
      cwd,
      agentDir: join(work, "agent-host"),
      mode: "print",
      runnerCommand: runner,
      socketBaseDir: work,
      onError: (r) => errors.push(`${r.event}: ${r.error}`),
    });
    hosts.push(host);
    if (host.loadErrors.length > 0 || errors.length > 0) throw new Error([...host.loadErrors, ...errors].join("\n"));
    return host;
  };
  const stopHost = async (host: ExtensionHost) => {
    await host.shutdown();
    hosts.splice(hosts.indexOf(host), 1);
  };

  process.stderr.write("[bench] tool round trip and tool_call hook: measuring ");
  const host = await startHost([tsFiles[0]!], new BenchPort(emptySnapshot()));
  const tool = host.tools().find((x) => x.name === "tool_0");
  if (!tool) throw new Error(`tool_0 not registered; have ${host.tools().map((x) => x.name).join(", ")}`);
  const signal = new AbortController().signal;
  const toolCtx = { cwd, agentDir: join(work, "agent-host") } as unknown as Parameters<AnyTool["execute"]>[4];
  const callTool = async (i: number) => {
    const r = await tool.execute(`call_${i}`, { path: "src/a.ts", count: i }, signal, () => {}, toolCtx);
    const first = r.content[0];
    if (first?.type !== "text" || first.text !== "ok") throw new Error(`tool_0 answered ${JSON.stringify(r.content)}`);
  };
  const toolMs = await timeCalls(TOOL_WARMUP, TOOL_CALLS, callTool);
  process.stderr.write(".");

  const hooks = host.hooks();
  const event = (i: number): ToolCallHookEvent => ({ toolCallId: `call_${i}`, toolName: "bash", input: { command: "true" } });
  const hookCall = (h: AgentHooks) => async (i: number) => {
    const r = await h.toolCall(event(i));
    if (r?.block) throw new Error("tool_call blocked");
  };
  // Alternating blocks of 200, so a change in background load hits both alike.
  const hookMs: number[] = [];
  const noHookMs: number[] = [];
  await timeCalls(TOOL_WARMUP, TOOL_WARMUP, hookCall(hooks));
  for (let b = 0; b < TOOL_CALLS / 200; b++) {
    hookMs.push(...(await timeCalls(0, 200, hookCall(hooks))));
    noHookMs.push(...(await timeCalls(0, 200, hookCall(NO_HOOKS))));
  }
  process.stderr.write(".");
  // What the round trip is made of: the host's own statistics of the same process.
  const status = host.list();
  await stopHost(host);
  process.stderr.write("\n");

  // ------------------------------------------------------------------------------------------
  // What the packed runner's cost is made of: the host started in this process with a probe
  // extension alone, after one of the 30, and after all 30 (loaded last, its factory marks when
  // the others are loaded): time until every extension is ready, cut where the runner process
  // begins (its performance.timeOrigin) and where the probe's factory runs; the runner's
  // memory once ready; and the runner executable up to its connect, under GNU time.
  const probeExt = join(work, "probe.ts");
  writeFileSync(probeExt, PROBE_SOURCE);
  const tmpProbe = join(tmpWork, "probe.ts");
  writeFileSync(tmpProbe, PROBE_SOURCE);
  const startKinds = { probe: [probeExt], one: [tsFiles[0]!, probeExt], all: [...tsFiles, probeExt], allTmp: [...tmpFiles, tmpProbe] } as const;
  type StartKind = keyof typeof startKinds;
  interface StartSample {
    startMs: number;
    toOriginMs: number;
    toInitializeMs: number;
    initializeToFactoryMs: number;
    initAnon: number;
    toFactoryMs: number;
    toReadyMs: number;
    stopMs: number;
    hwm: number;
    anon: number;
  }
  const wall = () => performance.timeOrigin + performance.now();
  const starts = await interleave("runner start-up, in this process", Object.keys(startKinds) as StartKind[], args.runs, args.warmup, async (kind): Promise<StartSample> => {
    Bun.gc(true);
    let init: { at: number; anon: number } | undefined;
    onInitialize = (pid) => {
      init = { at: wall(), anon: readStatus(pid)?.anon ?? Number.NaN };
    };
    const start = wall();
    const h = await startHost([...startKinds[kind]], new BenchPort(emptySnapshot()));
    const ready = wall();
    onInitialize = undefined;
    const pid = h.list()[0]?.pid;
    const mem = pid === undefined ? undefined : readStatus(pid);
    const probe = h.tools().find((x) => x.name === "probe")!;
    const d = (await probe.execute("probe_1", {}, signal, () => {}, toolCtx)).details as { origin: number; loadedAt: number };
    const stop = performance.now();
    await stopHost(h);
    return {
      startMs: ready - start,
      toOriginMs: d.origin - start,
      toInitializeMs: (init?.at ?? Number.NaN) - d.origin,
      initializeToFactoryMs: d.loadedAt - (init?.at ?? Number.NaN),
      initAnon: init?.anon ?? Number.NaN,
      toFactoryMs: d.loadedAt - d.origin,
      toReadyMs: ready - d.loadedAt,
      stopMs: performance.now() - stop,
      hwm: mem?.hwm ?? Number.NaN,
      anon: mem?.anon ?? Number.NaN,
    };
  });
  const floorCmds = {
    version: [pig, "--version"],
    // No pig to connect to: the runner starts, loads its modules, fails to
    // connect and exits 1 (through sh, which GNU time's %M then includes: the larger of the two).
    unconnected: ["/bin/sh", "-c", `"$0" ${RUNNER_SUBCOMMAND}; exit 0`, pig],
  } as const;
  const floorEnv = { ...process.env, PIG_EXT_SOCKET: join(work, "no-such.sock"), PIG_EXT_TOKEN: "none" };
  const floors = await interleave("runner executable floor", Object.keys(floorCmds) as (keyof typeof floorCmds)[], args.runs, args.warmup, (k) =>
    runOnce(floorCmds[k], { env: floorEnv, cwd, rss: true }),
  );
  const startStat = (k: StartKind, pick: (x: StartSample) => number) => median(starts.get(k)!.map(pick));
  const floorStat = (k: keyof typeof floorCmds, pick: (x: { ms: number; maxRssBytes: number }) => number) => median(floors.get(k)!.map(pick));

  // ------------------------------------------------------------------------------------------
  // 4. First synchronous session read of a 50 MB session: a fresh runner each time (the mirror
  // subscribes once per process). The port is what pig's runtime port does: a session store
  // opened on the file, every record's stored line.
  const sessionFile = join(work, "session.jsonl");
  const gen = await writeSession(sessionFile, { targetBytes: SESSION_MB * 1024 * 1024, entries: SESSION_ENTRIES, seed: 1 });
  const store = SessionStore.open(sessionFile);
  // What pig's runtime port answers: the runner asks with `file: true`, so the lines on disk are
  // named by their place in the file and it reads them itself.
  const storeSnapshot = (): SessionLogSnapshot => storeSnapshotOf(store, true);
  const readExt = join(work, "session_read.ts");
  writeFileSync(readExt, SESSION_READ_SOURCE);
  interface ReadDetails {
    firstMs: number;
    subscribeMs?: number;
    parseMs?: number;
    againMs: number;
    count: number;
  }
  const readOnce = async (mode: "entries" | "leaf-first"): Promise<ReadDetails & { toolMs: number; snapshotMs: number }> => {
    const port = new BenchPort(() => storeSnapshotOf(store, false), storeSnapshot);
    const h = await startHost([readExt], port);
    const read = h.tools().find((x) => x.name === "session_read")!;
    Bun.gc(true);
    const start = performance.now();
    const r = await read.execute("read_1", { mode }, signal, () => {}, toolCtx);
    const toolMs = performance.now() - start;
    await stopHost(h);
    const d = r.details as ReadDetails;
    if (d.count !== gen.lines - 1) throw new Error(`session_read saw ${d.count} entries, the file has ${gen.lines - 1}`);
    return { ...d, toolMs, snapshotMs: port.snapshotMs };
  };
  const reads = await interleave(`first session read, ${SESSION_MB} MB`, ["entries", "leaf-first"] as const, SESSION_RUNS, 1, readOnce);
  const firstReads = reads.get("entries")!;
  const leafFirst = reads.get("leaf-first")!;
  // The host's side of the answer on its own: the snapshot as one JSON-RPC result, cut into frames.
  const encode: number[] = [];
  let wireBytes = 0;
  let frames = 0;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const out = encodeFrames({ jsonrpc: "2.0", id: 1, result: storeSnapshot() }, DEFAULT_MAX_FRAME_BYTES, () => "s");
    encode.push(performance.now() - start);
    wireBytes = out.reduce((a, f) => a + f.length, 0);
    frames = out.length;
  }

  // ------------------------------------------------------------------------------------------
  const latest = pis.find((p) => p.release === "latest");
  const piVal = (f: (release: PiRelease) => number) => Object.fromEntries(pis.map((p) => [p.release, f(p.release)])) as Partial<Record<PiRelease, number>>;
  // First starts are measured against the latest Pi only.
  const latestVal = (f: (release: PiRelease) => number) => (latest ? { latest: f("latest") } : {}) as Partial<Record<PiRelease, number>>;
  const onlyPig = (text: string) => Object.fromEntries(pis.map((p) => [p.release, text])) as Partial<Record<PiRelease, string>>;
  const ms = (v: number) => fmtMs(v);
  const us = (v: number) => (v < 1 ? `${(v * 1000).toFixed(0)} µs` : fmtMs(v));
  const rows: Row[] = [
    { metric: "`-p hello`, no extensions: wall time", pig: t("pig"), pi: piVal((r) => t(r)), format: ms, ratio: "speed" },
    { metric: "`-p hello`, 1 extension: wall time", pig: t("pig-one"), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    {
      metric: `\`-p hello\`, ${EXTENSIONS} extensions (pig: packed in one runner, the default): wall time`,
      pig: t("pig-packed"),
      pi: piVal((r) => t(`${r}-ext`)),
      format: ms,
      ratio: "speed",
      target: { kind: "speed", factor: 5, word: "faster" },
    },
    {
      metric: `\`-p hello\`, the same ${EXTENSIONS} packed, XDG_RUNTIME_DIR an empty dir: wall time`,
      pig: t("pig-packed-xdg"),
      pi: {},
      piNote: onlyPig("—"),
      format: ms,
      ratio: "none",
    },
    {
      metric: `added by ${EXTENSIONS} extensions (packed), XDG_RUNTIME_DIR an empty dir: wall time`,
      pig: t("pig-packed-xdg") - t("pig"),
      pi: {},
      piNote: onlyPig("—"),
      format: ms,
      ratio: "none",
    },
    {
      metric: `\`-p hello\`, the same ${EXTENSIONS} packed, their files in $TMPDIR: wall time`,
      pig: t("pig-packed-tmp"),
      pi: {},
      piNote: onlyPig("—"),
      format: ms,
      ratio: "none",
    },
    {
      metric: `\`-p hello\`, ${EXTENSIONS} extensions, one process each: wall time`,
      pig: t("pig-own"),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: ms,
      ratio: "none",
    },
    {
      metric: `added by ${EXTENSIONS} extensions (packed): wall time`,
      pig: t("pig-packed") - t("pig"),
      pi: piVal((r) => t(`${r}-ext`) - t(r)),
      format: ms,
      ratio: "none",
      target: { kind: "absolute", max: 40, text: "< 40 ms" },
    },
    {
      metric: `first start after install (empty caches): \`-p hello\`, ${EXTENSIONS} extensions (packed): wall time`,
      pig: t("pig-packed-first"),
      pi: latestVal((r) => t(`${r}-ext-first`)),
      format: ms,
      ratio: "speed",
    },
    { metric: "first start: `-p hello`, no extensions: wall time (pig keeps no cache without extensions)", pig: t("pig"), pi: latestVal((r) => t(`${r}-first`)), format: ms, ratio: "speed" },
    {
      metric: `first start: added by ${EXTENSIONS} extensions (packed): wall time`,
      pig: t("pig-packed-first") - t("pig"),
      pi: latestVal((r) => t(`${r}-ext-first`) - t(`${r}-first`)),
      format: ms,
      ratio: "none",
    },
    {
      metric: `first start: ${EXTENSIONS} extensions (packed): spawn → first model request`,
      pig: first("pig-packed-first"),
      pi: latestVal((r) => first(`${r}-ext-first`)),
      format: ms,
      ratio: "speed",
    },
    {
      metric: `first start: added by ${EXTENSIONS} extensions (packed): peak RSS, process tree`,
      pig: total("pig-packed-first") - total("pig"),
      pi: latestVal((r) => total(`${r}-ext-first`) - total(`${r}-first`)),
      format: fmtMB,
      ratio: "none",
    },
    { metric: "no extensions: spawn → first model request", pig: first("pig"), pi: piVal((r) => first(r)), format: ms, ratio: "speed" },
    { metric: `${EXTENSIONS} extensions (packed): spawn → first model request`, pig: first("pig-packed"), pi: piVal((r) => first(`${r}-ext`)), format: ms, ratio: "speed" },
    { metric: "no extensions: first request → exit", pig: afterFirst("pig"), pi: piVal((r) => afterFirst(r)), format: ms, ratio: "speed" },
    { metric: `${EXTENSIONS} extensions (packed): first request → exit`, pig: afterFirst("pig-packed"), pi: piVal((r) => afterFirst(`${r}-ext`)), format: ms, ratio: "speed" },
    {
      metric: `added by ${EXTENSIONS} extensions, one process each: wall time`,
      pig: t("pig-own") - t("pig"),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: ms,
      ratio: "none",
    },
    { metric: "`-p hello`, no extensions: peak RSS, process tree", pig: total("pig"), pi: piVal((r) => total(r)), format: fmtMB, ratio: "share" },
    { metric: "`-p hello`, 1 extension: peak RSS, process tree", pig: total("pig-one"), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    {
      metric: `\`-p hello\`, ${EXTENSIONS} extensions (packed): peak RSS, process tree`,
      pig: total("pig-packed"),
      pi: piVal((r) => total(`${r}-ext`)),
      format: fmtMB,
      ratio: "share",
    },
    {
      metric: `added by ${EXTENSIONS} extensions (packed), XDG_RUNTIME_DIR an empty dir: peak RSS, process tree`,
      pig: total("pig-packed-xdg") - total("pig"),
      pi: {},
      piNote: onlyPig("—"),
      format: fmtMB,
      ratio: "none",
    },
    {
      metric: `\`-p hello\`, the same ${EXTENSIONS} packed, their files in $TMPDIR: peak RSS, process tree`,
      pig: total("pig-packed-tmp"),
      pi: {},
      piNote: onlyPig("—"),
      format: fmtMB,
      ratio: "none",
    },
    {
      metric: `\`-p hello\`, ${EXTENSIONS} extensions, one process each: peak RSS, process tree`,
      pig: total("pig-own"),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: fmtMB,
      ratio: "none",
    },
    {
      metric: `added by ${EXTENSIONS} extensions (packed): peak RSS, process tree`,
      pig: total("pig-packed") - total("pig"),
      pi: piVal((r) => total(`${r}-ext`) - total(r)),
      format: fmtMB,
      ratio: "none",
      target: { kind: "absolute", max: 50 * 1024 * 1024, text: "< 50 MB" },
    },
    {
      metric: `added by ${EXTENSIONS} extensions, one process each: peak RSS, process tree`,
      pig: total("pig-own") - total("pig"),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: fmtMB,
      ratio: "none",
    },
    {
      metric: `${EXTENSIONS} extensions (packed): peak RSS of pig's own process (Pi: its only one)`,
      pig: rootOnly("pig-packed"),
      pi: piVal((r) => rootOnly(`${r}-ext`)),
      format: fmtMB,
      ratio: "share",
    },
    { metric: "no extensions: peak RSS of pig's own process", pig: rootOnly("pig"), pi: piVal((r) => rootOnly(r)), format: fmtMB, ratio: "share" },
    { metric: "1 extension: peak RSS of pig's own process", pig: rootOnly("pig-one"), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: `${EXTENSIONS} extensions (packed), XDG_RUNTIME_DIR an empty dir: peak RSS of pig's own process`, pig: rootOnly("pig-packed-xdg"), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: "no extensions: the same under GNU time (%M), a check of the sampling", pig: median(gnuPig), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: "no extensions: Pss of the tree (highest sum at one sweep)", pig: pss("pig"), pi: piVal((r) => pss(r)), format: fmtMB, ratio: "share" },
    { metric: `${EXTENSIONS} extensions (packed): Pss of the tree (highest sum at one sweep)`, pig: pss("pig-packed"), pi: piVal((r) => pss(`${r}-ext`)), format: fmtMB, ratio: "share" },
    { metric: `added by ${EXTENSIONS} extensions (packed): Pss`, pig: pss("pig-packed") - pss("pig"), pi: piVal((r) => pss(`${r}-ext`) - pss(r)), format: fmtMB, ratio: "none" },
    { metric: `${EXTENSIONS} extensions, one process each: Pss of the tree (highest sum at one sweep)`, pig: pss("pig-own"), pi: {}, piNote: onlyPig("(in-process)"), format: fmtMB, ratio: "none" },
    { metric: "no extensions: private memory (RssAnon) summed over the tree", pig: anon("pig"), pi: piVal((r) => anon(r)), format: fmtMB, ratio: "share" },
    { metric: `added by ${EXTENSIONS} extensions (packed): private memory (RssAnon)`, pig: anon("pig-packed") - anon("pig"), pi: piVal((r) => anon(`${r}-ext`) - anon(r)), format: fmtMB, ratio: "none" },
    { metric: `added by ${EXTENSIONS} extensions, one process each: private memory (RssAnon)`, pig: anon("pig-own") - anon("pig"), pi: {}, piNote: onlyPig("(in-process)"), format: fmtMB, ratio: "none" },
    { metric: "runner start, host in this process: probe extension alone, host start → every extension ready", pig: startStat("probe", (x) => x.startMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "of which: host start → runner process begins (spawn, exec)", pig: startStat("probe", (x) => x.toOriginMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "of which: runner begins → the extension's factory runs", pig: startStat("probe", (x) => x.toFactoryMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "… runner begins → its `initialize` reaches the host (runtime, modules, connect)", pig: startStat("probe", (x) => x.toInitializeMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "… `initialize` → the factory runs (host modules registered, the file imported)", pig: startStat("probe", (x) => x.initializeToFactoryMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "of which: factory → the host has every `ready`", pig: startStat("probe", (x) => x.toReadyMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "runner start: 1 of the 30 extensions, then the probe", pig: startStat("one", (x) => x.startMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: `runner start: all ${EXTENSIONS}, then the probe`, pig: startStat("all", (x) => x.startMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: `of which: runner begins → the probe's factory runs (after the ${EXTENSIONS})`, pig: startStat("all", (x) => x.toFactoryMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: `runner start: all ${EXTENSIONS} and the probe, their files in $TMPDIR`, pig: startStat("allTmp", (x) => x.startMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: `runner shutdown, all ${EXTENSIONS}`, pig: startStat("all", (x) => x.stopMs), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
    { metric: "runner peak RSS once ready: probe alone", pig: startStat("probe", (x) => x.hwm), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: `runner peak RSS once ready: all ${EXTENSIONS} and the probe`, pig: startStat("all", (x) => x.hwm), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: `runner peak RSS once ready: all ${EXTENSIONS} and the probe, their files in $TMPDIR`, pig: startStat("allTmp", (x) => x.hwm), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: "runner private memory (RssAnon) at `initialize`: probe alone", pig: startStat("probe", (x) => x.initAnon), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: "runner private memory (RssAnon) once ready: probe alone", pig: startStat("probe", (x) => x.anon), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    {
      metric: "`pig __extension-runner` with no pig to connect to (its modules, a failed connect): wall time",
      pig: floorStat("unconnected", (x) => x.ms),
      pi: {},
      piNote: onlyPig("—"),
      format: ms,
      ratio: "none",
    },
    { metric: "the same: peak RSS (GNU time)", pig: floorStat("unconnected", (x) => x.maxRssBytes), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    { metric: "`pig --version`: peak RSS (GNU time)", pig: floorStat("version", (x) => x.maxRssBytes), pi: {}, piNote: onlyPig("—"), format: fmtMB, ratio: "none" },
    {
      metric: "one extension tool call through host and runner: median",
      pig: median(toolMs),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: us,
      ratio: "none",
      target: { kind: "absolute", max: 0.5, text: "< 0.5 ms" },
    },
    { metric: "one extension tool call: p95", pig: percentile(toolMs, 95), pi: {}, piNote: onlyPig("(in-process)"), format: us, ratio: "none" },
    { metric: "`tool_call` hook, one subscribed extension: median", pig: median(hookMs), pi: {}, piNote: onlyPig("(in-process)"), format: us, ratio: "none" },
    { metric: "`tool_call` hook, `NO_HOOKS`: median", pig: median(noHookMs), pi: {}, piNote: onlyPig("—"), format: us, ratio: "none" },
    {
      metric: "`tool_call` interception overhead per call (median difference)",
      pig: median(hookMs) - median(noHookMs),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: us,
      ratio: "none",
    },
    {
      metric: `first \`ctx.sessionManager.getEntries()\` of a ${SESSION_MB} MB session (inside the runner): median`,
      pig: median(firstReads.map((r) => r.firstMs)),
      pi: {},
      piNote: onlyPig("(in-process)"),
      format: ms,
      ratio: "none",
    },
    {
      metric: "of which: the copy arriving (first `getLeafId()`, in separate runs)",
      pig: median(leafFirst.map((r) => r.subscribeMs!)),
      pi: {},
      piNote: onlyPig("—"),
      format: ms,
      ratio: "none",
    },
    {
      metric: "of which: parsing every entry (the `getEntries()` after it)",
      pig: median(leafFirst.map((r) => r.parseMs!)),
      pi: {},
      piNote: onlyPig("—"),
      format: ms,
      ratio: "none",
    },
    { metric: "a second `getEntries()` (entries already parsed)", pig: median(firstReads.map((r) => r.againMs)), pi: {}, piNote: onlyPig("—"), format: ms, ratio: "none" },
  ];
  const agentLine = (k: Key) => byKey.get(k)!.line.replace(/( -e \S+)+/, ` -e ${join(tsDir, "ext_0.ts")} … -e ${join(tsDir, `ext_${EXTENSIONS - 1}.ts`)}`);
  const ownLine = byKey.get("pig-own")!.line.replace(/( -e \S+)+/, ` -e ${manifests[0]} … -e ${manifests.at(-1)}`);
  const runnerStat = status[0];
  printReport(
    {
      title: `extensions: fake LLM in-process, median of ${args.runs} rounds after ${args.warmup} warm-up`,
      releases: pis,
      rows,
      commands: {
        pig: `${byKey.get("pig")!.line}; first start with ${EXTENSIONS} extensions: ${agentLine("pig-packed-first")}; 1 extension: ${byKey.get("pig-one")!.line}; ${EXTENSIONS} extensions: ${agentLine("pig-packed")}; one process each: ${ownLine}; XDG_RUNTIME_DIR an empty dir: ${agentLine("pig-packed-xdg")}; from $TMPDIR: ${byKey.get("pig-packed-tmp")!.line.replace(/( -e \S+)+/, ` -e ${tmpFiles[0]} … -e ${tmpFiles.at(-1)}`)}`,
        pi: Object.fromEntries(
          pis.map((p) => [
            p.release,
            `${byKey.get(p.release)!.line}; with extensions: ${agentLine(`${p.release}-ext`)}${
              byKey.has(`${p.release}-first`) ? `; first start: ${byKey.get(`${p.release}-first`)!.line}; first start with extensions: ${agentLine(`${p.release}-ext-first`)}` : ""
            }`,
          ]),
        ),
      },
      notes: [
        `socket directory: XDG_RUNTIME_DIR is ${process.env.XDG_RUNTIME_DIR ? `set (${process.env.XDG_RUNTIME_DIR}, ${readdirSync(process.env.XDG_RUNTIME_DIR).length.toLocaleString("en")} entries)` : `unset, so pig's host makes its socket directory under ${tmpdir()} (${readdirSync(tmpdir()).length.toLocaleString("en")} entries; only its own per-user parent is listed for stale ones)`}; the "XDG_RUNTIME_DIR an empty dir" side sets it to ${xdgDir}`,
        `extension files: ${tsDir} (entries in each directory above them: ${parentEntries(tsFiles[0]!)}); the $TMPDIR copies: ${tmpWork} (${parentEntries(tmpFiles[0]!)}). Bun's resolver lists each directory above a module it imports`,
        `each extension (${tsFiles[0]}): ${JSON.stringify(extensionSource(0))}`,
        `one process each: a pig-extension.json per file, {"name":"ext_N","runtime":"typescript","main":"<the same .ts>","process":"own"}; processes in pig's tree: ${procCount("pig")} without extensions, ${procCount("pig-packed")} packed, ${procCount("pig-own")} one each; Pi: ${pis.map((p) => `${p.version} ${procCount(p.release)} / ${procCount(`${p.release}-ext`)}`).join(", ")}`,
        `first start after install: every cache a contender keeps between runs in a fresh empty directory (EMPTY_DIR) each run — pig: BUN_RUNTIME_TRANSPILER_CACHE_PATH (Bun caches only files of a few hundred KB, so pig transpiles small extensions on every start); Pi: NODE_COMPILE_CACHE (its bin calls module.enableCompileCache()) and TMPDIR (jiti's cache of transpiled extensions, <tmp>/jiti). The other rows are warm starts: the caches as the earlier runs left them. Files stay in the page cache either way`,
        `before timing, every side answered "ok" and the model was offered all ${EXTENSIONS} extension tools (none without extensions)`,
        `peak RSS of a process tree: the command and every descendant (from /proc/*/stat ppid, followed after re-parenting), /proc/<pid>/status VmHWM of each read every ${SAMPLE_INTERVAL_MS} ms while any of them runs (median ${sweeps} sweeps a run), the last value seen of each process summed; median of the rounds. Separate rounds from the wall-time ones, as the sampling costs CPU. A sum of per-process peaks is an upper bound: pages shared between processes (the pig executable mapped by pig and by every runner) count once per process. So the same sweeps also read RssAnon (private memory; highest per process, summed) and /proc/<pid>/smaps_rollup Pss (each shared page split among its mappers; summed over the tree at each sweep, highest sum kept)`,
        `processes that outlived pig's exit: at most ${outlived("pig-packed").toFixed(0)} ms (packed), ${outlived("pig-own").toFixed(0)} ms (one each)`,
        `tool call: ${TOOL_CALLS} calls of tool_0 after ${TOOL_WARMUP}, each \`tool.execute\` of the proxy from \`host.tools()\` (host in this process, runner \`${runner.join(" ")}\`) awaited before the next; the host's own median for that runner: ${runnerStat?.medianLatencyMs?.toFixed(3) ?? "n/a"} ms over ${runnerStat?.calls ?? 0} calls`,
        `tool_call hook: \`{toolName: "bash", input: {command: "true"}}\`, ${hookMs.length} calls each, in alternating blocks of 200 with \`NO_HOOKS\``,
        `session read: ${fmtMB(gen.bytes)}, ${gen.lines - 1} entries (gen-sessions.ts, seed 1); the port answers \`session.subscribe {file: true}\` from a SessionStore opened on the file as pig's runtime port does, naming the lines on disk by their byte range, which the runner reads from the file itself (median ${fmtMs(median(firstReads.map((r) => r.snapshotMs)))} for that in the host); the answer is ${fmtMB(wireBytes)} on the wire in ${frames} frames, ${fmtMs(median(encode))} to encode in the host; the whole tool call took ${fmtMs(median(firstReads.map((r) => r.toolMs)))} (median of ${SESSION_RUNS}), a fresh runner each time`,
        latest ? `targets: packed adds < 40 ms and < 50 MB over pig without extensions; pig with ${EXTENSIONS} packed ≥ 5× faster than Pi ${latest.version} with the same ${EXTENSIONS}` : "latest Pi not run",
      ],
    },
    args.check,
  );
} finally {
  for (const h of hosts) await h.shutdown().catch(() => {});
  await llm?.close();
  cleanup(work, args.keep);
  cleanup(tmpWork, args.keep);
}

/** Every directory above `file`, from the root down. */
function parents(file: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); ; d = dirname(d)) {
    out.unshift(d);
    if (dirname(d) === d) return out;
  }
}
