/**
 * From what happened in the scripted session to one result per check: launch and registration,
 * each subscribed event, each tool (its run, progress and cancellation), each command, dialogs,
 * pings while waiting, and the session log (lazily asked for, copied exactly).
 */
import type { PigEvent } from "../../agent/events.ts";
import { EVENTS, NEVER_SENT } from "../../extensions/protocol-events.ts";
import { ErrorCode } from "../../extensions/protocol.ts";
import type { Runtime } from "../../runtime/runtime.ts";
import type { FrameLog } from "./observe.ts";
import type { CheckResult } from "./report.ts";
import type { ScriptedUi } from "./scripted-ui.ts";

type ErrorEvent = Extract<PigEvent, { type: "extension_error" }>;

export interface RunRecord {
  events: PigEvent[];
  errors: ErrorEvent[];
  /** Each command's outcome: "done", "late", or "failed: …". */
  commandOutcomes: Map<string, string>;
  /** Each tool's second call, cancelled at its first progress update. */
  toolRuns: Map<string, { cancelledAtProgress: boolean; settled: boolean; aliveAfter: boolean }>;
  /** Pings answered while the first dialog was held open; ok when enough were. */
  holdPongs: { answered: number; ok: boolean } | undefined;
  mirror: { ok: true; value: unknown } | { ok: false; error: Error & { code?: number } } | undefined;
  /** The session file's lines when the copy was asked for (later steps write more). */
  mirrorFileLines: string[] | undefined;
  exit: number | null | undefined;
}

export interface FindingsInput {
  runtime: Runtime;
  frames: FrameLog;
  ui: ScriptedUi;
  record: RunRecord;
}

const LOG_FRAMES = ["session.appended", "session.leaf", "session.replaced"];

/** How pig words a call that failed because the process went away (not an answer of the tool). */
const PROCESS_GONE = /^Extension ".*" (exited|was killed|is not responding|is restarting|failed to|is disabled|has been shut down|closed its connection|did not start|could not be started)/;

function resultText(end: Extract<PigEvent, { type: "tool_execution_end" }>): string {
  return end.result.content.map((b) => (b.type === "text" ? b.text : "[image]")).join(" ");
}

export function extensionFindings(input: FindingsInput): CheckResult[] {
  return [
    ...launchFindings(input),
    ...eventFindings(input),
    ...toolFindings(input),
    ...commandFindings(input),
    uiFinding(input),
    livenessFinding(input),
    ...replicationFindings(input),
  ];
}

function launchFindings({ runtime, frames }: FindingsInput): CheckResult[] {
  const host = runtime.extensions.host!;
  const statuses = host.list();
  const down = statuses.filter((s) => s.state !== "running");
  const launch: CheckResult =
    down.length === 0 && runtime.extensions.loadErrors.length === 0
      ? { name: "launch", status: "pass", detail: `handshake done, ${statuses.length} extension${statuses.length === 1 ? "" : "s"} ready (pid ${[...new Set(statuses.map((s) => s.pid))].join(", ")})` }
      : { name: "launch", status: "fail", detail: [...runtime.extensions.loadErrors, ...down.map((s) => `${s.id}: ${s.state}${s.error ? ` (${s.error})` : ""}`)].join("; ") };
  const registries = runtime.extensions.registries;
  const kinds = [
    `${host.toolsWithOwners().length} tools`,
    `${registries.commands.list().filter((c) => c.source === "extension").length} commands`,
    `${registries.flags.list().length} flags`,
    `${registries.shortcuts.registered().length} shortcuts`,
    `${new Set(statuses.flatMap((s) => s.events)).size} events`,
  ];
  const problems = runtime.extensions.warnings;
  const registered = frames.count("received", "register");
  const register: CheckResult =
    registered === 0
      ? { name: "register", status: "fail", detail: "it never sent register" }
      : { name: "register", status: problems.length > 0 ? "fail" : "pass", detail: `${kinds.join(", ")}${problems.length > 0 ? `; ${problems.join("; ")}` : ""}` };
  return [launch, register];
}

function eventFindings({ runtime, frames, record }: FindingsInput): CheckResult[] {
  const subscribed = [...new Set(runtime.extensions.host!.list().flatMap((s) => s.events))].sort();
  const sent = frames.eventsSent();
  return subscribed.map((event): CheckResult => {
    const name = `events.${event}`;
    if (!Object.hasOwn(EVENTS, event)) return { name, status: "skip", detail: "not an event of pig-ext/1: pig never sends it" };
    if (NEVER_SENT.has(event as keyof typeof EVENTS)) return { name, status: "skip", detail: "pig never sends it (docs/decisions.md)" };
    if (!sent.has(event)) return { name, status: "skip", detail: "the scripted session did not raise it" };
    const failed = record.errors.find((e) => e.event === event);
    const info: { kind: string; safeDefault?: string } = EVENTS[event as keyof typeof EVENTS];
    const kind = info.kind;
    if (failed) {
      const fallback = info.safeDefault && /did not answer|not responding|exited|was killed/.test(failed.error) ? `; pig took the safe default: ${info.safeDefault}` : "";
      return { name, status: "fail", detail: `${failed.error}${fallback}` };
    }
    return { name, status: "pass", detail: kind === "request" ? "answered in time, with a valid result" : "delivered" };
  });
}

function toolFindings({ runtime, record }: FindingsInput): CheckResult[] {
  const out: CheckResult[] = [];
  for (const { tool } of runtime.extensions.host!.toolsWithOwners()) {
    const name = `tools.${tool.name}`;
    // The model's calls only: a call another tool made (`parentToolCallId`) is that tool's business.
    const ends = record.events.filter(
      (e): e is Extract<PigEvent, { type: "tool_execution_end" }> => e.type === "tool_execution_end" && e.toolName === tool.name && e.parentToolCallId === undefined,
    );
    const updates = record.events.filter((e) => e.type === "tool_execution_update" && e.toolName === tool.name && e.parentToolCallId === undefined).length;
    const end = ends[0];
    if (!end) out.push({ name, status: "fail", detail: "called by the model, but no result came back" });
    else if (end.isError && PROCESS_GONE.test(resultText(end))) out.push({ name, status: "fail", detail: resultText(end) });
    else {
      const text = resultText(end).slice(0, 80);
      out.push({ name, status: "pass", detail: `${end.isError ? "answered with an error" : "answered"}: ${JSON.stringify(text)}` });
    }
    out.push(
      updates > 0
        ? { name: `${name}.progress`, status: "pass", detail: `${updates} progress update${updates === 1 ? "" : "s"}` }
        : { name: `${name}.progress`, status: "skip", detail: "it sent no progress (optional)" },
    );
    const cancel = record.toolRuns.get(tool.name);
    const cancelName = `${name}.cancel`;
    if (!cancel || !cancel.cancelledAtProgress) out.push({ name: cancelName, status: "skip", detail: "it sent no progress, so there was no moment to cancel it" });
    else if (!cancel.settled) out.push({ name: cancelName, status: "fail", detail: "the cancelled call did not end" });
    else if (!cancel.aliveAfter) out.push({ name: cancelName, status: "fail", detail: "after the $/cancel it no longer answered ping" });
    else out.push({ name: cancelName, status: "pass", detail: "$/cancel at the first progress update; it went on answering" });
  }
  return out;
}

function commandFindings({ record }: FindingsInput): CheckResult[] {
  return [...record.commandOutcomes].map(([command, outcome]): CheckResult => {
    const name = `commands.${command}`;
    const failed = record.errors.find((e) => e.event === "command" || e.event === command);
    if (outcome === "late") return { name, status: "fail", detail: "did not finish in time" };
    if (outcome !== "done") return { name, status: "fail", detail: outcome };
    if (failed) return { name, status: "fail", detail: failed.error };
    return { name, status: "pass", detail: "ran with no arguments and finished" };
  });
}

function uiFinding({ ui }: FindingsInput): CheckResult {
  const dialogs = ui.dialogs;
  const others = ui.calls.length - dialogs.length;
  if (dialogs.length === 0) return { name: "ui", status: "skip", detail: `no dialog was opened${others > 0 ? ` (${others} notices or status updates)` : ""}` };
  const unanswered = dialogs.filter((d) => !("answer" in d));
  if (unanswered.length > 0) return { name: "ui", status: "fail", detail: `${unanswered.length} dialog(s) were given up before their answer` };
  return { name: "ui", status: "pass", detail: `${dialogs.length} dialog(s) answered (${[...new Set(dialogs.map((d) => d.kind))].join(", ")})${others > 0 ? `, ${others} other UI calls` : ""}` };
}

function livenessFinding({ record }: FindingsInput): CheckResult {
  const name = "liveness.ping-while-waiting";
  const hold = record.holdPongs;
  if (!hold) return { name, status: "skip", detail: "it never waited on pig (no dialog to hold open)" };
  if (!hold.ok) return { name, status: "fail", detail: `while its dialog was held open it answered ${hold.answered} ping(s): pig would declare it hung` };
  return { name, status: "pass", detail: `answered ${hold.answered} pings while its dialog was held open` };
}

function replicationFindings({ frames, record }: FindingsInput): CheckResult[] {
  const subscribedAt = frames.indexOf("received", "session.subscribe");
  const logBefore = frames.frames.filter((f, i) => f.dir === "sent" && LOG_FRAMES.includes(f.method) && (subscribedAt < 0 || i < subscribedAt)).length;
  const subscribes = frames.count("received", "session.subscribe");
  const lazy: CheckResult =
    logBefore > 0
      ? { name: "replication.lazy", status: "fail", detail: `${logBefore} log frames reached it before it asked for the log` }
      : subscribes > 1
        ? { name: "replication.lazy", status: "fail", detail: `it asked for the whole log ${subscribes} times in one session` }
        : subscribes === 0
          ? { name: "replication.lazy", status: "pass", detail: "it never read the log, and no log frame was sent to it" }
          : { name: "replication.lazy", status: "pass", detail: "nothing of the log before its session.subscribe; one snapshot, then appends" };
  return [lazy, mirrorFinding(record.mirror, record.mirrorFileLines)];
}

function mirrorFinding(mirror: RunRecord["mirror"], lines: string[] | undefined): CheckResult {
  const name = "replication.mirror";
  if (!mirror) return { name, status: "skip", detail: "it never read the log" };
  if (!mirror.ok) {
    if (mirror.error.code === ErrorCode.MethodNotFound) return { name, status: "skip", detail: "it does not answer check.mirror (optional), so its copy could not be compared" };
    return { name, status: "fail", detail: `check.mirror failed: ${mirror.error.message}` };
  }
  const value = mirror.value as { subscribed?: boolean; header?: string; entries?: unknown; leafId?: unknown };
  if (!value?.subscribed) return { name, status: "fail", detail: "it asked for the log, but check.mirror says it holds none" };
  if (!lines) return { name, status: "skip", detail: "the session has no file to compare with" };
  const copy = [value.header, ...(Array.isArray(value.entries) ? value.entries : [])];
  if (copy.length !== lines.length) return { name, status: "fail", detail: `its copy has ${copy.length} lines, the file ${lines.length}` };
  const at = copy.findIndex((line, i) => line !== lines[i]);
  if (at >= 0) return { name, status: "fail", detail: `line ${at + 1} differs from the file's (${JSON.stringify(String(copy[at]).slice(0, 60))}…)` };
  return { name, status: "pass", detail: `its copy equals the file, byte for byte (${lines.length} lines, the last appended after it subscribed)` };
}
