/**
 * What the extension benchmarks share: a host session port that hands out a session log and
 * does nothing else, starting and stopping hosts, timing of repeated calls, and a running
 * process's memory from /proc.
 */
import { readFileSync } from "node:fs";
import { discoverExtensions, type ExtensionSource } from "../../src/extensions/discovery.ts";
import { type ExtensionHost, startExtensionHost } from "../../src/extensions/host/host.ts";
import { RUNNER_SUBCOMMAND } from "../../src/extensions/host/runner-command.ts";
import type { HostSessionPort, SessionLogChange, SessionLogSnapshot, SessionState } from "../../src/extensions/host/session-port.ts";
import { HEADLESS_UI } from "../../src/extensions/ui.ts";

/** The least a host needs: a session log to hand out, a fixed state, and actions that do nothing. */
export class BenchPort implements HostSessionPort {
  snapshotMs = 0;
  constructor(
    private readonly make: () => SessionLogSnapshot,
    private readonly makeFile?: () => SessionLogSnapshot,
    private readonly cwd = "/tmp",
  ) {}
  snapshot(): SessionLogSnapshot {
    const start = performance.now();
    const s = this.make();
    this.snapshotMs += performance.now() - start;
    return s;
  }
  fileSnapshot(): SessionLogSnapshot {
    if (!this.makeFile) return this.snapshot();
    const start = performance.now();
    const s = this.makeFile();
    this.snapshotMs += performance.now() - start;
    return s;
  }
  onLog(_listener: (c: SessionLogChange) => void) {
    return () => {};
  }
  state(): SessionState {
    return { cwd: this.cwd, sessionId: "bench", thinkingLevel: "off", activeTools: [], allTools: [], commands: [], isIdle: true, hasPendingMessages: false, systemPrompt: "" };
  }
  onStateChange(_listener: () => void) {
    return () => {};
  }
  sendMessage = async () => {};
  sendUserMessage = async () => {};
  appendEntry = async () => {};
  setName = async () => {};
  setLabel = async () => {};
  setActiveTools = () => {};
  callTool = async (toolCallId: string) => ({ result: { content: [] }, isError: false, toolCallId: `${toolCallId}/1` });
  setModel = async () => true;
  setThinkingLevel = () => {};
  compact = async () => {};
  abort = () => {};
  shutdown = () => {};
  waitForIdle = async () => {};
  contextUsage = () => undefined;
  newSession = async () => ({ cancelled: false });
  fork = async () => ({ cancelled: false });
  navigateTree = async () => ({ cancelled: false });
  switchSession = async () => ({ cancelled: false });
  reload = async () => {};
}

/** VmHWM and RssAnon of a running process, in bytes. */
export function readStatus(pid: number): { hwm: number; anon: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (f: string) => Number(new RegExp(`${f}:\\s+(\\d+) kB`).exec(text)?.[1] ?? Number.NaN) * 1024;
    return { hwm: kb("VmHWM"), anon: kb("RssAnon") };
  } catch {
    return undefined;
  }
}

/** Times each call, `warmup` unmeasured first; milliseconds. */
export async function timeCalls(warmup: number, n: number, call: (i: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await call(i);
    out.push(performance.now() - start);
  }
  return out;
}

export function emptySnapshot(): () => SessionLogSnapshot {
  return () => ({ header: '{"type":"session","version":3,"id":"bench"}', entries: [], leafId: null });
}

/**
 * Starting and stopping extension hosts the way the benchmarks do: the extensions at `paths`
 * found as `-e` would find them, run headless in print mode with `pig`'s runner, a load error or
 * a handler error failing the run. `stopAll` ends whatever is still up (after a failure).
 */
export class BenchHosts {
  private readonly hosts: ExtensionHost[] = [];

  constructor(private readonly at: { pig: string; cwd: string; agentDir: string; socketBaseDir: string }) {}

  sourcesOf(paths: readonly string[]): ExtensionSource[] {
    const found = discoverExtensions({ cwd: this.at.cwd, agentDir: this.at.agentDir, projectTrusted: false, cliPaths: paths, noExtensions: true });
    if (found.errors.length > 0) throw new Error(found.errors.join("\n"));
    return found.sources;
  }

  async start(paths: readonly string[], port: HostSessionPort): Promise<ExtensionHost> {
    const errors: string[] = [];
    const host = await startExtensionHost({
      sources: this.sourcesOf(paths),
      port,
      ui: HEADLESS_UI,
      cwd: this.at.cwd,
      agentDir: this.at.agentDir,
      mode: "print",
      runnerCommand: [this.at.pig, RUNNER_SUBCOMMAND],
      socketBaseDir: this.at.socketBaseDir,
      onError: (r) => errors.push(`${r.event}: ${r.error}`),
    });
    this.hosts.push(host);
    if (host.loadErrors.length > 0 || errors.length > 0) throw new Error([...host.loadErrors, ...errors].join("\n"));
    return host;
  }

  async stop(host: ExtensionHost): Promise<void> {
    await host.shutdown();
    this.hosts.splice(this.hosts.indexOf(host), 1);
  }

  async stopAll(): Promise<void> {
    for (const host of this.hosts.splice(0)) await host.shutdown().catch(() => {});
  }
}
