/**
 * The checks that need a session: pig starts the extension as a run of its own would (the real
 * host, the real agent, a scripted model in this process, a fresh agent directory and session
 * file), and a script drives it — a prompt whose answer calls each of the extension's tools, each
 * of its commands, a compaction, a dialog held open, a cancelled tool call, a look at its copy of
 * the session log, a shell command, a move in the tree, a fork, a new session, and last a
 * connection dropped without a word. What the host and the process
 * said to each other (FrameLog) and what the session reported decide each check (findings.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PigEvent } from "../../agent/events.ts";
import { createRuntime } from "../../runtime/create.ts";
import type { Runtime } from "../../runtime/runtime.ts";
import { extensionFindings, type RunRecord } from "./findings.ts";
import { FrameLog } from "./observe.ts";
import type { CheckResult } from "./report.ts";
import { argsFor } from "./schema-args.ts";
import { CHECK_MODEL, CHECK_PROMPT, CHECK_PROVIDER, CHECK_PROVIDER_CONFIG, scriptedModel } from "./scripted-model.ts";
import { ScriptedUi } from "./scripted-ui.ts";
import { logsTail } from "./stderr-tail.ts";

export interface SessionCheckInput {
  /** What `-e` would be given: a file, a directory, or a manifest. */
  path: string;
  /** A scratch directory: the run's cwd, agent directory and sessions go under it. */
  scratch: string;
  env: Record<string, string | undefined>;
  /** How long a command, a dialog hold or an exit may take before the check gives up on it. */
  limitMs: number;
}

const PING_MS = 100;

export async function runSessionChecks(input: SessionCheckInput): Promise<CheckResult[]> {
  const results = await sessionChecks(input);
  // The host logs each process's stderr under the check's agent directory, gone once the check ends.
  return withStderr(results, logsTail(join(input.scratch, "agent", "extensions", "logs")));
}

/** The extension's stderr with the first check that failed: what it said as it went wrong. */
export function withStderr(results: CheckResult[], stderr: string | undefined): CheckResult[] {
  const first = results.findIndex((r) => r.status === "fail" && !r.stderr);
  if (!stderr || first < 0) return results;
  return results.map((r, i) => (i === first ? { ...r, stderr } : r));
}

async function sessionChecks(input: SessionCheckInput): Promise<CheckResult[]> {
  const cwd = join(input.scratch, "project");
  const agentDir = join(input.scratch, "agent");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  // A string argument made from a schema is "pig-check": as a path, it names this file.
  writeFileSync(join(cwd, "pig-check"), "a file for pig extension check\nsecond line\n");
  // A project with settings of its own, not trusted yet: the extension is asked (project_trust).
  mkdirSync(join(cwd, ".pig"), { recursive: true });
  writeFileSync(join(cwd, ".pig", "settings.json"), "{}\n");
  const frames = new FrameLog();
  const ui = new ScriptedUi();
  const record: RunRecord = { events: [], errors: [], commandOutcomes: new Map(), toolRuns: new Map(), holdPongs: undefined, mirror: undefined, mirrorFileLines: undefined, exit: undefined };
  let extensionTools = new Set<string>();
  // The first dialog waits until the process has answered two pings while it waits on pig.
  ui.holdFirst(async () => {
    const before = frames.pongs;
    const ok = await frames.until(() => frames.pongs >= before + 2, input.limitMs);
    record.holdPongs = { answered: frames.pongs - before, ok };
  });

  let runtime: Runtime;
  try {
    runtime = await createRuntime({
      cwd,
      env: { ...input.env, PIG_CODING_AGENT_DIR: agentDir },
      interactive: false,
      model: `${CHECK_PROVIDER}/${CHECK_MODEL}`,
      session: { kind: "new" },
      sessionDir: join(input.scratch, "sessions"),
      // A short conversation still has something to compact, so the compaction events are raised.
      settingsOverrides: { compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 1 } },
      extensions: {
        paths: [input.path],
        noExtensions: true,
        mode: "rpc",
        observer: frames,
        // A handler slower than half a step fails its event here (reported within the step), as a late answer fails it in pig.
        timing: { pingIntervalMs: PING_MS, livenessTimeoutMs: Math.max(2_000, PING_MS * 20), eventDeadlineMs: Math.max(1, Math.floor(input.limitMs / 2)) },
      },
      providers: [{ name: CHECK_PROVIDER, config: CHECK_PROVIDER_CONFIG, stream: scriptedModel(() => extensionTools) }],
    });
  } catch (error) {
    return [{ name: "launch", status: "fail", detail: (error as Error).message.split("\n")[0]! }];
  }
  const { session, extensions } = runtime;
  extensions.bindUi(ui);
  const unsubscribe = session.subscribe((event: PigEvent) => {
    record.events.push(event);
    if (event.type === "extension_error") record.errors.push(event);
  });
  for (const report of extensions.drainStartupErrors()) record.errors.push({ type: "extension_error", ...report });
  const host = extensions.host;
  try {
    if (!host) return [{ name: "launch", status: "fail", detail: extensions.loadErrors.join("; ") || "no extension was found there" }];
    const down = host.list().filter((s) => s.state !== "running");
    if (down.length > 0) {
      const detail = [...extensions.loadErrors, ...host.loadErrors, ...down.map((s) => `${s.id}: ${s.state}${s.error ? ` (${s.error})` : ""}`)];
      return [{ name: "launch", status: "fail", detail: [...new Set(detail)].join("; ") }];
    }
    extensionTools = new Set(host.toolsWithOwners().map((t) => t.tool.name));

    // The scripted session: a prompt whose answer calls every tool, then each command.
    await withLimit(session.submit(CHECK_PROMPT, { source: "rpc" }), input.limitMs);
    // The extension's own commands: not pig's built-in ones registered the same way (`/mcp`).
    for (const command of extensions.registries.commands.list().filter((c) => c.source === "extension" && c.sourceInfo.source !== "builtin")) {
      const outcome = await withLimit(session.submit(`/${command.name}`, { source: "rpc" }), input.limitMs).then(
        (r) => (r === "late" ? "late" : "done"),
        (e: unknown) => `failed: ${(e as Error).message}`,
      );
      record.commandOutcomes.set(command.name, outcome);
    }
    await withLimit(session.compact().catch(() => undefined), input.limitMs);

    // Each tool again, outside a run, cancelled at its first progress update.
    for (const name of extensionTools) {
      const tool = session.toolRegistry.get(name)?.tool;
      if (!tool) continue;
      const controller = new AbortController();
      let updates = 0;
      const run = tool.execute(`check_cancel_${name}`, argsFor(tool.parameters), controller.signal, () => {
        updates += 1;
        controller.abort();
      }, { cwd, agentDir });
      const settled = await withLimit(run.then(() => "done", () => "done"), input.limitMs);
      const owner = host.toolsWithOwners().find((t) => t.tool.name === name)?.extension;
      const alive = owner ? await withLimit(host.probe(owner, "ping").then(() => true, () => false), input.limitMs) : false;
      record.toolRuns.set(name, { cancelledAtProgress: updates > 0, settled: settled !== "late", aliveAfter: alive === true });
    }

    // The log copy, after one more entry than it may have seen.
    const first = host.list()[0];
    if (first && frames.indexOf("received", "session.subscribe") >= 0) {
      const sentBefore = frames.count("sent", "session.appended");
      session.store.appendCustomEntry("pig-check", { note: "appended by pig extension check" });
      session.store.flush(true);
      await frames.until(() => frames.count("sent", "session.appended") > sentBefore, input.limitMs);
      record.mirror = await host.probe(first.id, "check.mirror").then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error: error as Error & { code?: number } }),
      );
      // The file as it was then: later steps write more to it.
      const path = session.store.path;
      record.mirrorFileLines = path ? readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0) : undefined;
    }

    // The session operations extensions may cancel: a shell command typed by the person, a move
    // in the tree, a fork and a new session (each one is let through: the check's person says yes).
    await withLimit(session.bash("echo pig-check").catch(() => undefined), input.limitMs);
    try {
      // Only there to raise model_select, thinking_level_select and session_info_changed.
      session.setModel(CHECK_PROVIDER, `${CHECK_MODEL}-2`);
      session.setThinkingLevel("low");
      session.setSessionName("pig extension check");
    } catch {
      // A refused switch leaves those events unraised; their checks say so.
    }
    const firstUser = session.store.getBranch().find((e) => e.type === "message" && (e as { message?: { role?: string } }).message?.role === "user");
    if (firstUser) {
      await withLimit(session.navigateTree(firstUser.id).catch(() => undefined), input.limitMs);
      await withLimit(session.fork(firstUser.id).catch(() => undefined), input.limitMs);
    }
    await withLimit(session.newSession().catch(() => undefined), input.limitMs);

    const findings = extensionFindings({ runtime, frames, ui, record });
    // Last: the socket closes under it, without a word; it must exit on its own.
    if (first) record.exit = await host.disconnect(first.id, input.limitMs);
    return [...findings, exitFinding(record.exit, input.limitMs, first !== undefined)];
  } finally {
    unsubscribe();
    await runtime.close().catch(() => undefined);
  }
}

function exitFinding(code: number | null | undefined, limitMs: number, ran: boolean): CheckResult {
  const name = "shutdown.socket-close";
  if (!ran) return { name, status: "skip", detail: "no process ran" };
  if (code === undefined) return { name, status: "fail", detail: `still running ${limitMs} ms after its socket closed` };
  return { name, status: "pass", detail: `exited on its own when its socket closed${code === null ? " (by a signal)" : ` (code ${code})`}` };
}

/** `work`'s value, or "late" when it has not settled after `ms` (it goes on unwatched). */
function withLimit<T>(work: Promise<T>, ms: number): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([work, new Promise<"late">((r) => (timer = setTimeout(() => r("late"), ms)))]).finally(() => clearTimeout(timer));
}
