/** A fake session port, fake extension sources, and a way to wait for host states. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionSource } from "../../../src/extensions/discovery.ts";
import { type ExtensionHost, type ExtensionHostOptions, startExtensionHost } from "../../../src/extensions/host/host.ts";
import type { HostSessionPort, SessionLogChange, SessionLogSnapshot } from "../../../src/extensions/host/session-port.ts";
import { HEADLESS_UI } from "../../../src/extensions/ui.ts";

export const FAKE_EXT = join(import.meta.dir, "../../fixtures/extensions/host/fake_ext.py");

export function fakeSource(id: string, mode = "normal", events: string[] = [], prefix = ""): ExtensionSource {
  return {
    id,
    entry: id,
    runtime: "command",
    command: ["python3", FAKE_EXT, mode, events.join(","), prefix],
    ownProcess: true,
    env: [],
    activation: ["onStartup"],
    tools: [],
    commands: [],
    name: id.replace(/\W+/g, "_"),
    origin: "cli",
  };
}

export class FakePort implements HostSessionPort {
  log: SessionLogSnapshot = { header: '{"type":"session","version":3,"id":"s1"}', entries: [], leafId: null, sessionFile: "/tmp/s1.jsonl" };
  private logListeners = new Set<(c: SessionLogChange) => void>();
  private stateListeners = new Set<() => void>();
  calls: Array<[string, unknown]> = [];

  append(line: string, id: string): void {
    this.log = { ...this.log, entries: [...this.log.entries, line], leafId: id };
    for (const l of this.logListeners) l({ type: "appended", entries: [line], leafId: id });
  }
  replace(snapshot: SessionLogSnapshot): void {
    this.log = snapshot;
    for (const l of this.logListeners) l({ type: "replaced", snapshot });
  }
  get logListenerCount(): number {
    return this.logListeners.size;
  }

  snapshot() {
    return this.log;
  }
  onLog(listener: (c: SessionLogChange) => void) {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }
  state() {
    return {
      cwd: "/tmp",
      sessionId: "s1",
      thinkingLevel: "medium",
      activeTools: [],
      allTools: [],
      commands: [],
      isIdle: true,
      hasPendingMessages: false,
      systemPrompt: "",
    };
  }
  onStateChange(listener: () => void) {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }
  private record = (name: string) => async (...args: unknown[]) => {
    this.calls.push([name, args]);
  };
  sendMessage = this.record("sendMessage");
  sendUserMessage = this.record("sendUserMessage");
  appendEntry = this.record("appendEntry");
  setName = this.record("setName");
  setLabel = this.record("setLabel");
  setActiveTools = (names: string[]) => void this.calls.push(["setActiveTools", names]);
  callTool = async (toolCallId: string, name: string, args: unknown) => {
    this.calls.push(["callTool", [toolCallId, name, args]]);
    return { result: { content: [] }, isError: false, toolCallId: `${toolCallId}/1` };
  };
  setModel = async () => true;
  setThinkingLevel = (level: string) => void this.calls.push(["setThinkingLevel", [level]]);
  compact = this.record("compact");
  abort = () => {};
  shutdown = () => {};
  waitForIdle = async () => {};
  contextUsage = () => undefined;
  systemPromptOptions = () => ({ cwd: "/fake" });
  newSession = async () => ({ cancelled: false });
  fork = async () => ({ cancelled: false });
  navigateTree = async () => ({ cancelled: false });
  switchSession = async () => ({ cancelled: false });
  reload = async () => {};
}

export const FAST_TIMING = {
  pingIntervalMs: 50,
  livenessTimeoutMs: 400,
  partTimeoutMs: 500,
  launchTimeoutMs: 10_000,
  restartBackoffMs: [10, 20, 40],
  maxRestarts: 2,
  restartWindowMs: 60_000,
  shutdownGraceMs: 500,
};

export interface TestHost {
  host: ExtensionHost;
  port: FakePort;
  errors: Array<{ extensionPath: string; event: string; error: string }>;
  dir: string;
  close(): Promise<void>;
}

export async function startTestHost(sources: ExtensionSource[], extra: Partial<ExtensionHostOptions> = {}): Promise<TestHost> {
  const dir = mkdtempSync(join(tmpdir(), "pig-host-test-"));
  const port = new FakePort();
  const errors: TestHost["errors"] = [];
  const host = await startExtensionHost({
    sources,
    port,
    ui: HEADLESS_UI,
    cwd: dir,
    agentDir: join(dir, "agent"),
    mode: "print",
    timing: FAST_TIMING,
    socketBaseDir: dir,
    onError: (r) => errors.push(r),
    ...extra,
  });
  return {
    host,
    port,
    errors,
    dir,
    close: async () => {
      await host.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Re-checks `condition` on every macrotask turn until it holds (fails the test by timeout otherwise). */
export async function waitFor<T>(condition: () => T | undefined | false, what = "condition"): Promise<T> {
  for (;;) {
    const v = condition();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 5));
    void what;
  }
}

export function toolNamed(host: ExtensionHost, name: string) {
  const t = host.tools().find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}; have ${host.tools().map((x) => x.name).join(", ")}`);
  return t;
}

export const ctx = { cwd: "/tmp", agentDir: "/tmp" };
export const noUpdate = () => {};
