/**
 * Finding sessions: listing a directory or every project, the most recent for `--continue`,
 * and resolving `--session <path | id prefix>`.
 *
 * A listing never parses whole files. Each file is streamed once; a line's type and role are
 * read from its first bytes, and only the lines that carry the listed facts (the first user
 * message, names, the last message) are parsed.
 */
import { closeSync, fstatSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import * as v from "valibot";
import { SessionHeaderSchema, type SessionInfoEntry } from "./format.ts";
import { entryLineTime, lastEntryTime, lastWrittenAt, timeOf } from "./last-written.ts";
import { decodeUtf8, latin1, readRange, scanLines, withReadFd } from "./lines.ts";
import { openRegularFile } from "./regular-file.ts";
import { matchMessagePrefix, MESSAGE_PREFIX_BYTES } from "./line-shape.ts";
import { sessionsRoot } from "./paths.ts";
import { uniquePrefixes } from "./id-prefix.ts";
import { userMessageTitle } from "./title.ts";

export interface SessionSummary {
  path: string;
  id: string;
  /** Working directory recorded in the header; "" when missing. */
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  /**
   * The words of the first user message that has any (its title: what the user typed, without
   * attached files or expansions; title.ts), or "(no messages)".
   */
  firstMessage: string;
  /** Number of `message` entries, all roles. */
  messageCount: number;
  created: Date;
  /** When the session was last written (last-written.ts): what every list is ordered by. */
  modified: Date;
}

const TYPE_PREFIX = /^\{"type":"([^"\\]*)"/;

type Json = Record<string, unknown>;

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The listing facts of one file, or undefined when it is not a session file. */
export function summarizeSession(path: string): SessionSummary | undefined {
  let fd: number;
  try {
    // A FIFO or device named *.jsonl is not listed: opening it could block, reading it never end.
    fd = openRegularFile(path, "read");
  } catch {
    return undefined;
  }
  try {
    let header: Json | undefined;
    let firstMessage: string | undefined;
    let name: string | undefined;
    let messageCount = 0;
    let lastLine: { offset: number; length: number } | undefined;
    let valid = true;
    scanLines(fd, (line) => {
      const { buf, start, length } = line;
      if (length === 0) return;
      const head = latin1(buf, start, start + Math.min(length, MESSAGE_PREFIX_BYTES));
      if (!header) {
        header = parseObject(decodeUtf8(buf, start, start + length));
        if (!isSessionHeader(header)) valid = false;
        return valid;
      }
      lastLine = { offset: line.offset, length };
      let type = TYPE_PREFIX.exec(head)?.[1];
      let role: string | undefined;
      let parsed: Json | undefined;
      if (type === undefined) {
        // Another writer's key order: this line has to be parsed to be classified.
        parsed = parseObject(decodeUtf8(buf, start, start + length));
        if (!parsed || typeof parsed.type !== "string") return;
        type = parsed.type;
      }
      if (type === "message") {
        if (!line.terminated && !parsed && !parseObject(decodeUtf8(buf, start, start + length))) return;
        messageCount++;
        role = matchMessagePrefix(buf, start, start + length)?.role;
        if (role === undefined) {
          parsed ??= parseObject(decodeUtf8(buf, start, start + length));
          const message = parsed?.message as Json | undefined;
          role = typeof message?.role === "string" ? message.role : undefined;
        }
        if (role === "user" && firstMessage === undefined) {
          parsed ??= parseObject(decodeUtf8(buf, start, start + length));
          // A message with nothing in it (no words, files or images) names nothing: the next one may.
          const title = userMessageTitle(parsed?.message);
          if (title) firstMessage = title;
        }
      } else if (type === "session_info") {
        parsed ??= parseObject(decodeUtf8(buf, start, start + length));
        if (parsed) {
          // The latest entry wins; an empty name clears it.
          const value = (parsed as SessionInfoEntry).name?.trim();
          name = value ? value : undefined;
        }
      }
    });
    if (!valid || !header) return undefined;
    const mtimeMs = fstatSync(fd).mtimeMs;
    const created = timeOf(header.timestamp);
    return {
      path,
      id: header.id as string,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      ...(name !== undefined ? { name } : {}),
      ...(typeof header.parentSession === "string" ? { parentSessionPath: header.parentSession } : {}),
      firstMessage: firstMessage ?? "(no messages)",
      messageCount,
      created: new Date(created ?? mtimeMs),
      modified: new Date(lastWrittenAt(created, lastLineTime(fd, lastLine), mtimeMs)),
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * The last entry's time, from the last line the scan saw (read again alone, as small as it is);
 * when that line has none (a write cut short), from the end of the file as `-c` reads it.
 */
function lastLineTime(fd: number, line: { offset: number; length: number } | undefined): number | undefined {
  if (!line) return undefined;
  return entryLineTime(decodeUtf8(readRange(fd, line.offset, line.length), 0, line.length)) ?? lastEntryTime(fd);
}

function jsonlFiles(dir: string): string[] {
  return jsonlEntries(dir).map((entry) => entry.path);
}

/** The `.jsonl` entries of a directory, each with whether it is a symbolic link. */
function jsonlEntries(dir: string): { path: string; name: string; link: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith(".jsonl"))
      .map((entry) => ({ path: join(dir, entry.name), name: entry.name, link: entry.isSymbolicLink() }));
  } catch {
    return [];
  }
}

/** Newest first; of two written in the same millisecond, the one whose file was started later (names begin with their time). */
function newestFirst(a: { time: number; path: string }, b: { time: number; path: string }): number {
  return b.time - a.time || (b.path > a.path ? 1 : b.path < a.path ? -1 : 0);
}

function byModifiedDesc(a: SessionSummary, b: SessionSummary): number {
  return newestFirst({ time: a.modified.getTime(), path: a.path }, { time: b.modified.getTime(), path: b.path });
}

/** Sessions in one directory, most recently active first. */
export function listSessions(dir: string): SessionSummary[] {
  return jsonlFiles(dir)
    .flatMap((path) => summarizeSession(path) ?? [])
    .sort(byModifiedDesc);
}

/** Sessions of every project under `<agentDir>/sessions`, most recently active first. */
export function listAllSessions(agent: string): SessionSummary[] {
  const root = sessionsRoot(agent);
  let dirs: string[];
  try {
    dirs = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(root, d.name));
  } catch {
    return [];
  }
  return dirs.flatMap((dir) => listSessions(dir)).sort(byModifiedDesc);
}

/** The id and working directory of a session file's header (its first line, within 64 KiB). */
export function readSessionHeader(path: string): { id: string; cwd: string } | undefined {
  try {
    const header = withReadFd(path, readHeader);
    return header && { id: header.id, cwd: typeof header.cwd === "string" ? header.cwd : "" };
  } catch {
    return undefined;
  }
}

/** The header of an open session file, or undefined when its first line is none. */
function readHeader(fd: number): (Json & { id: string }) | undefined {
  // Headers are a few hundred bytes: read a little, and more only while no line end is seen.
  let buf = Buffer.allocUnsafe(2048);
  let got = 0;
  let end = -1;
  while (got < 64 * 1024) {
    if (got === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 4);
      buf.copy(bigger, 0, 0, got);
      buf = bigger;
    }
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) break;
    const from = got;
    got += n;
    end = buf.subarray(from, got).indexOf(0x0a);
    if (end >= 0) {
      end += from;
      break;
    }
  }
  const header = parseObject(decodeUtf8(buf, 0, end >= 0 ? end : got));
  return isSessionHeader(header) ? header : undefined;
}

/** The header check the loader makes: files that fail it are never listed or continued. */
function isSessionHeader(value: Json | undefined): value is Json & { id: string } {
  return value !== undefined && v.is(SessionHeaderSchema, value);
}

export interface IndexedSession {
  path: string;
  id: string;
  cwd: string;
}

/** The path with every link resolved, or undefined when it leads nowhere. */
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Every session file pig knows of: those of `dir` (which may lie outside the agent directory)
 * and those of every project under `<agentDir>/sessions`, each read only as far as its header.
 */
export function sessionIndex(dir: string, agent: string): IndexedSession[] {
  const dirs = new Set([resolve(dir)]);
  const root = sessionsRoot(agent);
  try {
    for (const d of readdirSync(root, { withFileTypes: true })) if (d.isDirectory()) dirs.add(join(root, d.name));
  } catch {
    // No sessions yet.
  }
  const out: IndexedSession[] = [];
  // A session directory reached twice (a --session-dir linked into the sessions root) is read
  // once, and so is a file linked from one directory into another. Each directory's real path is
  // asked once; a file's is asked only when the file is itself a link (readdir says which), since
  // a plain file's real path is its directory's real path and its name.
  const seenDirs = new Set<string>();
  const seen = new Set<string>();
  for (const d of dirs) {
    const realDir = realPathOf(d);
    if (realDir === undefined || seenDirs.has(realDir)) continue;
    seenDirs.add(realDir);
    for (const { path, name, link } of jsonlEntries(d)) {
      const real = link ? realPathOf(path) : join(realDir, name);
      if (real === undefined || seen.has(real)) continue;
      seen.add(real);
      const header = readSessionHeader(path);
      if (header) out.push({ path, ...header });
    }
  }
  return out;
}

/** The prefix to print for each session id: unique among every session pig knows of. */
export function sessionPrefixes(dir: string, agent: string, extra: readonly string[] = []): Map<string, string> {
  return uniquePrefixes([...sessionIndex(dir, agent).map((s) => s.id), ...extra]);
}

/**
 * When each `.jsonl` file of a directory was last written: a session file by its entries
 * (last-written.ts), anything else (`session: false`) by its mtime.
 */
function lastWrittenFiles(dir: string): { path: string; time: number; session: boolean }[] {
  return jsonlFiles(dir).flatMap((path) => {
    try {
      return [
        withReadFd(path, (fd) => {
          const header = readHeader(fd);
          const mtimeMs = fstatSync(fd).mtimeMs;
          if (!header) return { path, time: mtimeMs, session: false };
          return { path, time: lastWrittenAt(timeOf(header.timestamp), lastEntryTime(fd), mtimeMs), session: true };
        }),
      ];
    } catch {
      // Not a regular file (said when it would have been newer), or a link to nothing (no file at all).
      try {
        return [{ path, time: statSync(path).mtimeMs, session: false }];
      } catch {
        return [];
      }
    }
  });
}

/**
 * The session of `dir` written last (the order of the listings and `/resume`), and the newer
 * `.jsonl` files passed over because they are not session files (to warn about).
 */
export function mostRecentSession(dir: string): { path?: string; skipped: string[] } {
  const files = lastWrittenFiles(dir).sort(newestFirst);
  const skipped: string[] = [];
  for (const file of files) {
    if (file.session) return { path: file.path, skipped };
    skipped.push(file.path);
  }
  return { skipped };
}

export type SessionMatch =
  | { kind: "path"; path: string }
  | { kind: "local"; path: string }
  | { kind: "other-project"; path: string; cwd: string }
  /** More than one session file starts with the prefix: nothing is picked. `sameId`: they are copies of one session. */
  | { kind: "ambiguous"; candidates: SessionSummary[]; sameId: boolean }
  | { kind: "none" };

/** Whether a `--session` argument is a path rather than an id prefix. */
export function looksLikePath(arg: string): boolean {
  return arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl");
}

/**
 * Resolves `--session <arg>`: a path (relative to `cwd`), else an id prefix among every session
 * pig knows of (`dir` and every project's). A prefix must match exactly one session file;
 * several matches are reported as candidates, most recent first, and none is chosen.
 */
export function resolveSession(arg: string, cwd: string, dir: string, agent: string): SessionMatch {
  if (looksLikePath(arg)) return { kind: "path", path: isAbsolute(arg) ? arg : resolve(cwd, arg) };
  const matches = sessionIndex(dir, agent).filter((s) => s.id.startsWith(arg));
  if (matches.length === 0) return { kind: "none" };
  const here = (m: IndexedSession) => resolve(m.path, "..") === resolve(dir);
  // Copies of one session (an imported or copied file keeps its id) are the same session: the
  // one in this project's directory is meant, when there is exactly one.
  const oneSession = matches.every((m) => m.id === matches[0]!.id);
  const local = matches.filter(here);
  if (matches.length > 1 && !(oneSession && local.length === 1)) {
    const candidates = matches.flatMap((m) => summarizeSession(m.path) ?? []).sort(byModifiedDesc);
    return { kind: "ambiguous", candidates, sameId: oneSession };
  }
  const only = matches.length === 1 ? matches[0]! : local[0]!;
  if (here(only)) return { kind: "local", path: only.path };
  return { kind: "other-project", path: only.path, cwd: only.cwd };
}
