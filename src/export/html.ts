/**
 * A session as one self-contained HTML page: a header with what the session was (name, id,
 * directory, models, tokens, cost), the active branch in order, and an overview of the other
 * branches. Styles are inline, images are data: URLs, nothing is fetched, and the page reads
 * without script (a short inline script only adds expand/collapse buttons).
 *
 * The page is produced in chunks through a `write` callback, entry by entry, so a huge session
 * never needs more than one entry (plus a turn's tool results) parsed at a time.
 */
import { basename } from "node:path";
import type { SessionEntry } from "../session/format.ts";
import type { EntryRecord } from "../session/records.ts";
import type { SessionStore } from "../session/store.ts";
import { VERSION } from "../version.ts";
import {
  anchor,
  branchSummaryHtml,
  compactionHtml,
  customHtml,
  formatTime,
  marker,
  messageHtml,
  type CallPresenter,
  type EntryFrame,
  type FoundResult,
} from "./html-entries.ts";
import { EXPORT_CSP, EXPORT_CSS, EXPORT_SCRIPT } from "./html-style.ts";
import { escapeHtml as esc, oneLine } from "./html-text.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { userMessageTitle } from "../session/title.ts";
import { formatCount } from "../util/count-text.ts";

export interface ExportHtmlOptions {
  /** Page title; default: the session name, else the first prompt. */
  title?: string;
  /** Whether to list the other branches of the tree at the end (default true; only shown when there are any). */
  tree?: boolean;
  /** The export time printed in the footer (default: now). */
  now?: Date;
  /** How tools present their calls (default: none, every call's arguments as JSON). */
  presentCall?: CallPresenter;
}

/** The session (its active branch) as a self-contained HTML document. */
export function exportSessionHtml(store: SessionStore, options: ExportHtmlOptions = {}): string {
  const chunks: string[] = [];
  writeSessionHtml(store, (chunk) => chunks.push(chunk), options);
  return chunks.join("");
}

/** `pig-session-<file name without .jsonl>.html`. */
export function defaultExportName(sessionPath: string): string {
  return `pig-session-${basename(sessionPath).replace(/\.jsonl$/i, "")}.html`;
}

/** Like `exportSessionHtml`, handing the page over in pieces (e.g. to a file stream). */
export function writeSessionHtml(store: SessionStore, write: (chunk: string) => void, options: ExportHtmlOptions = {}): void {
  const branch = store.branchRecords();
  const stats = sessionStats(store);
  const title = options.title ?? store.name ?? firstPromptTitle(store, branch) ?? `Session ${store.sessionId}`;
  write(
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
      `<meta http-equiv="Content-Security-Policy" content="${esc(EXPORT_CSP)}">\n` +
      `<meta name="generator" content="pig ${esc(VERSION)}">\n<title>${esc(title)}</title>\n` +
      `<style>${EXPORT_CSS}</style>\n</head>\n<body>\n<div class="page">\n`,
  );
  write(headerHtml(store, branch, stats, title));
  write(`<h2 class="section">Conversation</h2>\n<main class="branch">\n`);
  writeBranch(store, branch, write, options.presentCall);
  write(`</main>\n`);
  if (options.tree !== false) write(overviewHtml(store, branch));
  const now = options.now ?? new Date();
  write(
    `<footer>Exported by pig ${esc(VERSION)} on ${esc(formatTime(now.toISOString(), true))}</footer>\n</div>\n` +
      `<script>${EXPORT_SCRIPT}</script>\n</body>\n</html>\n`,
  );
}

// ── header ──────────────────────────────────────────────────────────────────

interface Stats {
  models: string[];
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  cost: number;
  replies: number;
  branches: number;
}

function read(store: SessionStore, record: EntryRecord): SessionEntry | undefined {
  try {
    return store.materialise(record);
  } catch {
    return undefined;
  }
}

function messageOf(entry: SessionEntry | undefined): Record<string, unknown> | undefined {
  const message = (entry as { message?: unknown } | undefined)?.message;
  return isPlainObject(message) ? message : undefined;
}

const n = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Models and usage over every assistant message of the file (all branches: all of it was paid for). */
function sessionStats(store: SessionStore): Stats {
  const stats: Stats = { models: [], input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, cost: 0, replies: 0, branches: 0 };
  const models = new Set<string>();
  const parents = new Set<string>();
  for (const record of store.tree.records) {
    if (record.parentId) parents.add(record.parentId);
    if (record.invalid || record.type !== "message" || record.role !== "assistant") continue;
    const message = messageOf(read(store, record));
    if (!message) continue;
    stats.replies++;
    const model = [message.provider, message.model].filter((p) => typeof p === "string" && p !== "").join("/");
    if (model && !models.has(model)) {
      models.add(model);
      stats.models.push(model);
    }
    const usage = isPlainObject(message.usage) ? message.usage : {};
    stats.input += n(usage.input);
    stats.output += n(usage.output);
    stats.cacheRead += n(usage.cacheRead);
    stats.cacheWrite += n(usage.cacheWrite);
    stats.total += n(usage.totalTokens) || n(usage.input) + n(usage.output) + n(usage.cacheRead) + n(usage.cacheWrite);
    stats.cost += isPlainObject(usage.cost) ? n(usage.cost.total) : 0;
  }
  stats.branches = store.tree.records.filter((r) => !parents.has(r.id)).length;
  return stats;
}

function firstPromptTitle(store: SessionStore, branch: EntryRecord[]): string | undefined {
  for (const record of branch) {
    if (record.type !== "message" || record.role !== "user") continue;
    const text = oneLine(userMessageTitle(messageOf(read(store, record))), 80);
    if (text) return text;
  }
  return undefined;
}

function formatCost(cost: number): string {
  return `$${cost.toFixed(cost !== 0 && cost < 1 ? 4 : 2)}`;
}

function headerHtml(store: SessionStore, branch: EntryRecord[], stats: Stats, title: string): string {
  const rows: [string, string][] = [];
  const row = (name: string, value: string): void => {
    rows.push([name, value]);
  };
  if (store.name && store.name !== title) row("Name", esc(store.name));
  row("Session", `<span class="mono">${esc(store.sessionId)}</span>`);
  if (store.cwd) row("Directory", `<span class="mono">${esc(store.cwd)}</span>`);
  row("Created", esc(formatTime(store.header.timestamp, true)));
  const parent = store.header.parentSession;
  if (typeof parent === "string" && parent) row("Forked from", `<span class="mono">${esc(parent)}</span>`);
  if (stats.models.length > 0) row(stats.models.length === 1 ? "Model" : "Models", stats.models.map(esc).join(", "));
  const all = stats.branches > 1 ? " (all branches)" : "";
  const breakdown = [
    `${formatCount(stats.input)} input`,
    `${formatCount(stats.output)} output`,
    ...(stats.cacheRead ? [`${formatCount(stats.cacheRead)} cache read`] : []),
    ...(stats.cacheWrite ? [`${formatCount(stats.cacheWrite)} cache write`] : []),
  ].join(" · ");
  row(`Tokens${all}`, `${formatCount(stats.total)} <span class="tool-extra">(${breakdown})</span>`);
  row(`Cost${all}`, esc(formatCost(stats.cost)));
  const users = branch.filter((r) => r.type === "message" && r.role === "user").length;
  const messages = branch.filter((r) => r.type === "message").length;
  row("This branch", `${formatCount(messages)} messages, ${formatCount(users)} from the user`);
  const list = rows.map(([name, value]) => `<dt>${esc(name)}</dt><dd>${value}</dd>`).join("\n");
  return `<header class="session">\n<h1>${esc(title)}</h1>\n<dl class="meta">\n${list}\n</dl>\n<div class="toolbar" id="toolbar"></div>\n</header>\n`;
}

// ── the branch ──────────────────────────────────────────────────────────────

function frameOf(store: SessionStore, record: EntryRecord): EntryFrame {
  return { id: record.id, timestamp: record.timestamp, label: store.tree.labelOf(record.id)?.label };
}

/**
 * Writes the entries of the branch in order. A tool call is shown with its result: when an
 * assistant message has calls, the results that follow it (up to the next user or assistant
 * message) are read ahead, matched by call id, and skipped when the walk reaches them.
 */
function writeBranch(store: SessionStore, branch: EntryRecord[], write: (chunk: string) => void, presentCall?: CallPresenter): void {
  const ahead = new Map<EntryRecord, SessionEntry>();
  const claimed = new Set<EntryRecord>();
  const take = (record: EntryRecord): SessionEntry => {
    const entry = ahead.get(record);
    if (entry) ahead.delete(record);
    return entry ?? store.materialise(record);
  };
  if (branch.length === 0) write(`<p class="empty">This branch has no entries.</p>\n`);
  branch.forEach((record, index) => {
    if (claimed.delete(record)) return;
    const frame = frameOf(store, record);
    try {
      if (record.invalid) {
        write(marker(frame, `<span class="empty">An entry of type ${esc(record.type)} that could not be read</span>`));
        return;
      }
      const entry = take(record) as SessionEntry & Record<string, unknown>;
      if (record.type === "message") {
        const message = messageOf(entry);
        if (!message) return;
        const lookup = (callId: string): FoundResult | undefined => {
          const found = findResult(store, branch, index, callId, ahead, claimed);
          return found ? { message: found.message, frame: frameOf(store, found.record) } : undefined;
        };
        write(messageHtml(message, frame, lookup, presentCall) || hiddenAnchor(frame));
      } else {
        write(otherEntryHtml(entry, frame));
      }
    } catch (error) {
      write(marker(frame, `<span class="empty">Entry ${esc(record.id)} could not be shown: ${esc((error as Error).message)}</span>`));
    }
  });
}

function findResult(
  store: SessionStore,
  branch: EntryRecord[],
  from: number,
  callId: string,
  ahead: Map<EntryRecord, SessionEntry>,
  claimed: Set<EntryRecord>,
): { record: EntryRecord; message: Record<string, unknown> } | undefined {
  for (let i = from + 1; i < branch.length; i++) {
    const record = branch[i]!;
    if (record.type !== "message" || record.invalid) continue;
    if (record.role === "user" || record.role === "assistant") return undefined;
    if (record.role !== "toolResult" || claimed.has(record)) continue;
    let entry = ahead.get(record);
    if (!entry) {
      entry = read(store, record);
      if (!entry) continue;
      ahead.set(record, entry);
    }
    const message = messageOf(entry);
    if (message?.toolCallId !== callId) continue;
    ahead.delete(record);
    claimed.add(record);
    return { record, message };
  }
  return undefined;
}

/** Entries other than messages: notices, extension messages, or an anchor for those not shown. */
function otherEntryHtml(entry: Record<string, unknown>, frame: EntryFrame): string {
  const s = (key: string): string => (typeof entry[key] === "string" ? (entry[key] as string) : "");
  switch (entry.type) {
    case "model_change":
      return marker(frame, `Model: <strong>${esc([s("provider"), s("modelId")].filter(Boolean).join("/"))}</strong>`);
    case "thinking_level_change":
      return marker(frame, `Thinking level: <strong>${esc(s("thinkingLevel"))}</strong>`);
    case "session_info":
      return marker(frame, s("name").trim() ? `Session named <strong>${esc(s("name").trim())}</strong>` : "Session name cleared");
    case "compaction":
      return compactionHtml(s("summary"), typeof entry.tokensBefore === "number" ? entry.tokensBefore : undefined, frame);
    case "branch_summary":
      return branchSummaryHtml(s("summary"), frame);
    case "custom_message":
      return customHtml({ ...entry, role: "custom" }, frame) || hiddenAnchor(frame);
    default:
      // custom (extension state), label, and entry types pig does not know: nothing to read.
      return hiddenAnchor(frame);
  }
}

function hiddenAnchor(frame: EntryFrame): string {
  return `<span id="${esc(anchor(frame.id))}"></span>\n`;
}

// ── the other branches ──────────────────────────────────────────────────────

const MAX_BRANCHES_LISTED = 200;

function describe(record: EntryRecord): string {
  if (record.type !== "message") return record.type.replace(/_/g, " ");
  switch (record.role) {
    case "user":
      return "user message";
    case "assistant":
      return "assistant reply";
    case "toolResult":
      return "tool result";
    case "bashExecution":
      return "shell command";
    default:
      return "message";
  }
}

/** Every branch that leaves the active one, with where it leaves and its first prompt. */
function overviewHtml(store: SessionStore, active: EntryRecord[]): string {
  const tree = store.tree;
  const onActive = new Set(active.map((r) => r.id));
  const parents = new Set<string>();
  for (const record of tree.records) if (record.parentId) parents.add(record.parentId);
  const items: string[] = [];
  let more = 0;
  for (const leaf of tree.records) {
    if (parents.has(leaf.id) || onActive.has(leaf.id)) continue;
    const part: EntryRecord[] = [];
    const seen = new Set<string>();
    let at: EntryRecord | undefined = leaf;
    while (at && !onActive.has(at.id) && !seen.has(at.id)) {
      seen.add(at.id);
      part.push(at);
      at = at.parentId ? tree.get(at.parentId) : undefined;
    }
    part.reverse();
    const messages = part.filter((r) => r.type === "message").length;
    if (messages === 0) continue;
    if (items.length >= MAX_BRANCHES_LISTED) {
      more++;
      continue;
    }
    const firstUser = part.find((r) => r.type === "message" && r.role === "user");
    const prompt = firstUser ? oneLine(userMessageTitle(messageOf(read(store, firstUser))), 160) : "";
    const labels = part.map((r) => tree.labelOf(r.id)?.label).filter((l): l is string => !!l);
    const where = at
      ? `leaves after the <a href="#${esc(anchor(at.id))}">${esc(describe(at))} at ${esc(formatTime(at.timestamp))}</a>`
      : "starts from its own root";
    items.push(
      `<li><div class="first">${prompt ? `“${esc(prompt)}”` : `<span class="empty">(no prompt)</span>`}</div>` +
        `<div class="info">${where} · ${formatCount(messages)} message${messages === 1 ? "" : "s"} · ends at ` +
        `<span class="mono">${esc(leaf.id)}</span> (${esc(formatTime(leaf.timestamp, true))})` +
        `${labels.map((l) => ` <span class="label">${esc(l)}</span>`).join("")}</div></li>`,
    );
  }
  if (items.length === 0) return "";
  const leafText = store.leafId ? ` · ends at <span class="mono">${esc(store.leafId)}</span>` : "";
  const activeItem =
    `<li class="active"><div class="first">Active branch (shown above)</div>` +
    `<div class="info">${formatCount(active.filter((r) => r.type === "message").length)} messages${leafText}</div></li>`;
  const tail = more > 0 ? `<li class="info">…and ${formatCount(more)} more</li>` : "";
  return `<section class="tree">\n<h2 class="section">Other branches</h2>\n<ul class="branches">\n${activeItem}\n${items.join("\n")}\n${tail}</ul>\n</section>\n`;
}
