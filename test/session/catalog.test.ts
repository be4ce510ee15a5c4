/** Listing and finding sessions. */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listAllSessions, listSessions, mostRecentSession, resolveSession, sessionPrefixes, summarizeSession } from "../../src/session/catalog.ts";
import { defaultSessionDir, resolveSessionDir, sessionDirName } from "../../src/session/paths.ts";
import { assistant, HEADER, msg, user, writeSession } from "../helpers/sessions.ts";
import { FIXTURES, tempDir } from "../helpers/tmp.ts";

describe("paths", () => {
  test("session directory names follow upstream", () => {
    expect(sessionDirName("/home/u/proj")).toBe("--home-u-proj--");
    expect(sessionDirName("C:\\w\\p")).toBe("--C--w-p--");
    expect(defaultSessionDir("/a/b", "/agent")).toBe("/agent/sessions/--a-b--");
  });

  test("a name longer than a file name may be keeps its end and a hash of the whole cwd", () => {
    const deep = `/${"a".repeat(255)}/${"b".repeat(255)}/proj`;
    const name = sessionDirName(deep);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toMatch(/^--b+-proj_[0-9a-f]{16}--$/);
    expect(sessionDirName(deep)).toBe(name);
    // Cwds that differ only where the name was cut get names of their own.
    expect(sessionDirName(`/x${deep}`)).not.toBe(name);
    // Characters are kept whole when the cut falls inside one.
    const wide = sessionDirName(`/${"é".repeat(300)}`);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(255);
    expect(wide).toMatch(/^--(é)+_[0-9a-f]{16}--$/);
    // A name that fits is upstream's, whatever its length.
    const fits = `/${"c".repeat(251)}`;
    expect(sessionDirName(fits)).toBe(`--${"c".repeat(251)}--`);
  });

  test("--session-dir, then the environment, then the setting, then the default", () => {
    const env = { PIG_CODING_AGENT_DIR: "/agent", PIG_CODING_AGENT_SESSION_DIR: "/from-env" };
    expect(resolveSessionDir("/p", { flag: "/flag", setting: "/set", env })).toBe("/flag");
    expect(resolveSessionDir("/p", { setting: "/set", env })).toBe("/from-env");
    expect(resolveSessionDir("/p", { setting: "/set", env: { PIG_CODING_AGENT_DIR: "/agent" } })).toBe("/set");
    expect(resolveSessionDir("/p", { env: { PIG_CODING_AGENT_DIR: "/agent" } })).toBe("/agent/sessions/--p--");
  });
});

describe("summaries", () => {
  test("a Pi fixture: name, first message, message count, created and modified", () => {
    const path = join(FIXTURES, "03-model-thinking-name.jsonl");
    const header = JSON.parse(readFileSync(path, "utf8").split("\n")[0]!);
    const summary = summarizeSession(path)!;
    expect(summary).toMatchObject({
      id: header.id,
      cwd: "/home/dev/fx/03-model-thinking-name/work",
      name: "Model & thinking fixture",
      firstMessage: "first question (fake-model, thinking off)",
      messageCount: 10,
    });
    expect(summary.created.toISOString()).toBe(header.timestamp);
    expect(summary.modified.getTime()).toBeGreaterThan(summary.created.getTime());
  });

  test("a session without messages, one with a cleared name, and files that are not sessions", () => {
    const dir = tempDir();
    writeSession([HEADER], { dir, name: "a.jsonl" });
    writeSession([HEADER, msg("u1", null, user("q")), { type: "session_info", id: "s1", parentId: "u1", timestamp: "2026-11-30T08:00:00.000Z", name: "x" }, { type: "session_info", id: "s2", parentId: "s1", timestamp: "2026-11-30T08:00:01.000Z", name: "" }], { dir, name: "b.jsonl" });
    writeFileSync(join(dir, "c.jsonl"), "not a session\n");
    writeFileSync(join(dir, "notes.txt"), "ignored");
    const list = listSessions(dir);
    expect(list.map((s) => s.path.split("/").at(-1)).sort()).toEqual(["a.jsonl", "b.jsonl"]);
    const a = list.find((s) => s.path.endsWith("a.jsonl"))!;
    expect(a).toMatchObject({ firstMessage: "(no messages)", messageCount: 0 });
    expect(a.name).toBeUndefined();
    expect(list.find((s) => s.path.endsWith("b.jsonl"))!.name).toBeUndefined();
  });

  test("the first message is named by the user's words: files left out, an empty message passed over", () => {
    const dir = tempDir();
    const attached = { ...user("x"), content: [{ type: "text", text: '<file name="/p/a.ts">\nconst a = 1;\n</file>\nexplain a.ts' }] };
    writeSession([HEADER, msg("u1", null, attached)], { dir, name: "files.jsonl" });
    const empty = { ...user("x"), content: [{ type: "text", text: "" }] };
    writeSession([HEADER, msg("u1", null, empty), msg("u2", "u1", user("the second one"))], { dir, name: "empty.jsonl" });
    const byFile = Object.fromEntries(listSessions(dir).map((s) => [s.path.split("/").at(-1), s.firstMessage]));
    expect(byFile).toEqual({ "files.jsonl": "explain a.ts", "empty.jsonl": "the second one" });
  });

  test("one order everywhere: the session written last comes first in the list and is the one --continue takes, whatever the mtimes", () => {
    const dir = tempDir();
    const old = writeSession([HEADER, msg("u1", null, user("old")), msg("a1", "u1", assistant("a"))], { dir, name: "old.jsonl" });
    const recent = writeSession([HEADER, msg("u1", null, user("recent"))], { dir, name: "recent.jsonl" });
    // Copied or checked out: the file times say the opposite of what was written in them.
    utimesSync(old, new Date(), new Date(Date.now() + 60_000));
    utimesSync(recent, new Date(), new Date(Date.now() - 60_000));
    expect(listSessions(dir).map((s) => s.firstMessage)).toEqual(["recent", "old"]);
    expect(mostRecentSession(dir)).toEqual({ path: recent, skipped: [] });
    expect(mostRecentSession(tempDir())).toEqual({ skipped: [] });
    // A newer file that is not a session is passed over, and named.
    const broken = join(dir, "broken.jsonl");
    writeFileSync(broken, '{"type":"session","id":"no-timestamp"}\n');
    utimesSync(broken, new Date(), new Date(Date.now() + 120_000));
    expect(mostRecentSession(dir)).toEqual({ path: recent, skipped: [broken] });
    // A link to nothing is passed over quietly: it is not a file.
    symlinkSync(join(dir, "gone.jsonl"), join(dir, "dangling.jsonl"));
    expect(mostRecentSession(dir)).toEqual({ path: recent, skipped: [broken] });
  });

  test("any entry counts, not only messages: a session named last is the most recent", () => {
    const dir = tempDir();
    const named = writeSession([HEADER, msg("u1", null, user("named later")), { type: "session_info", id: "s1", parentId: "u1", timestamp: "2026-12-31T00:00:00.000Z", name: "n" }], { dir, name: "named.jsonl" });
    writeSession([HEADER, msg("u1", null, user("asked later"))], { dir, name: "asked.jsonl" });
    expect(listSessions(dir).map((s) => s.firstMessage)).toEqual(["named later", "asked later"]);
    expect(listSessions(dir)[0]!.modified.toISOString()).toBe("2026-12-31T00:00:00.000Z");
    expect(mostRecentSession(dir).path).toBe(named);
  });

  test("a torn last line (a write cut short) leaves the time of the entry before it, in the list and for --continue", () => {
    const dir = tempDir();
    const named = { type: "session_info", id: "s1", parentId: null, timestamp: "2026-12-31T00:00:00.000Z", name: "n" };
    const torn = writeSession([HEADER, named, '{"type":"message","id":"u2","timestamp":"2027-06-01T00:'], { dir, name: "torn.jsonl", trailingNewline: false });
    writeSession([HEADER, { ...named, timestamp: "2026-12-30T00:00:00.000Z" }], { dir, name: "whole.jsonl" });
    expect(listSessions(dir).map((s) => [s.path, s.modified.toISOString()])).toEqual([
      [torn, "2026-12-31T00:00:00.000Z"],
      [join(dir, "whole.jsonl"), "2026-12-30T00:00:00.000Z"],
    ]);
    expect(mostRecentSession(dir).path).toBe(torn);
  });

  test("a copy whose entries keep the source's times is listed at the time it was made (its header's)", () => {
    const dir = tempDir();
    writeSession([HEADER, msg("u1", null, user("source")), msg("a1", "u1", assistant("a")), msg("u2", "a1", user("said after the copy"))], { dir, name: "source.jsonl" });
    const copyHeader = { ...HEADER, id: "01a22b4b-0000-7000-8000-000000000002", timestamp: "2026-12-30T00:00:00.000Z", parentSession: join(dir, "source.jsonl") };
    const copy = writeSession([copyHeader, msg("u1", null, user("copy")), msg("a1", "u1", assistant("a"))], { dir, name: "copy.jsonl" });
    expect(listSessions(dir).map((s) => s.firstMessage)).toEqual(["copy", "source"]);
    expect(listSessions(dir)[0]!.modified.toISOString()).toBe("2026-12-30T00:00:00.000Z");
    expect(mostRecentSession(dir).path).toBe(copy);
  });
});

/** An agent dir with the session directories of two projects, /p/here and /p/there, made. */
function twoProjects(): { agent: string; here: string; there: string } {
  const agent = tempDir();
  const here = defaultSessionDir("/p/here", agent);
  const there = defaultSessionDir("/p/there", agent);
  mkdirSync(here, { recursive: true });
  mkdirSync(there, { recursive: true });
  return { agent, here, there };
}

describe("all projects and --session resolution", () => {
  function agentWithProjects() {
    const agent = tempDir();
    for (const [project, fixture] of [["/p/one", "01-basic-text.jsonl"], ["/p/two", "03-model-thinking-name.jsonl"]] as const) {
      const dir = defaultSessionDir(project, agent);
      mkdirSync(dir, { recursive: true });
      cpSync(join(FIXTURES, fixture), join(dir, fixture));
    }
    return agent;
  }

  test("listAllSessions reads every project's directory", () => {
    const agent = agentWithProjects();
    expect(listAllSessions(agent).map((s) => s.path.split("/").at(-1)).sort()).toEqual(["01-basic-text.jsonl", "03-model-thinking-name.jsonl"]);
  });

  test("an id prefix finds a session here or in another project", () => {
    const agent = agentWithProjects();
    const one = defaultSessionDir("/p/one", agent);
    const two = defaultSessionDir("/p/two", agent);
    const idOne = summarizeSession(join(one, "01-basic-text.jsonl"))!.id;
    const idTwo = summarizeSession(join(two, "03-model-thinking-name.jsonl"))!.id;
    expect(resolveSession(idOne.slice(0, 13), "/p/one", one, agent)).toEqual({ kind: "local", path: join(one, "01-basic-text.jsonl") });
    expect(resolveSession(idTwo.slice(0, 13), "/p/one", one, agent)).toMatchObject({ kind: "other-project", cwd: "/home/dev/fx/03-model-thinking-name/work" });
    expect(resolveSession("ffffffff", "/p/one", one, agent)).toEqual({ kind: "none" });
    expect(resolveSession("x.jsonl", "/p/one", one, agent)).toEqual({ kind: "path", path: "/p/one/x.jsonl" });
  });

  test("a prefix that several sessions share is ambiguous wherever they are: no session is picked", () => {
    const { agent, here, there } = twoProjects();
    const custom = tempDir();
    const header = (id: string) => ({ ...HEADER, id });
    writeSession([header("01a232c8-aaaa-7000-8000-000000000001"), msg("u1", null, user("first here"))], { dir: here, name: "a.jsonl" });
    writeSession([header("01a232c8-bbbb-7000-8000-000000000002"), msg("u1", null, user("second there"))], { dir: there, name: "b.jsonl" });
    writeSession([header("01a232c8-cccc-7000-8000-000000000003"), msg("u1", null, user("third, custom dir"))], { dir: custom, name: "c.jsonl" });
    const match = resolveSession("01a232c8", "/p/here", custom, agent);
    expect(match.kind).toBe("ambiguous");
    const candidates = match.kind === "ambiguous" ? match.candidates : [];
    expect(candidates.map((c) => c.firstMessage).sort()).toEqual(["first here", "second there", "third, custom dir"]);
    // One more character decides; a full id too.
    expect(resolveSession("01a232c8-b", "/p/here", custom, agent)).toMatchObject({ kind: "other-project", cwd: "/work/proj" });
    expect(resolveSession("01a232c8-cccc-7000-8000-000000000003", "/p/here", custom, agent)).toEqual({ kind: "local", path: join(custom, "c.jsonl") });
    // The same id in two files (an imported copy): the one in this project's directory is meant.
    writeSession([header("01a232c8-cccc-7000-8000-000000000003"), msg("u1", null, user("copy"))], { dir: there, name: "c-copy.jsonl" });
    expect(resolveSession("01a232c8-cccc", "/p/here", custom, agent)).toEqual({ kind: "local", path: join(custom, "c.jsonl") });
    // Copies only elsewhere: which one is not for pig to guess.
    writeSession([header("01a232c8-dddd-7000-8000-000000000004"), msg("u1", null, user("d"))], { dir: there, name: "d.jsonl" });
    writeSession([header("01a232c8-dddd-7000-8000-000000000004"), msg("u1", null, user("d copy"))], { dir: here, name: "d.jsonl" });
    expect(resolveSession("01a232c8-dddd", "/p/here", custom, agent)).toMatchObject({ kind: "ambiguous", sameId: true });
  });

  test("sessionPrefixes counts every project's sessions and the session directory's", () => {
    const { agent, here, there } = twoProjects();
    writeSession([{ ...HEADER, id: "01a232c8-aaaa-7000-8000-000000000001" }], { dir: here, name: "a.jsonl" });
    writeSession([{ ...HEADER, id: "01a232c8-abbb-7000-8000-000000000002" }], { dir: there, name: "b.jsonl" });
    writeSession([{ ...HEADER, id: "01ffffff-0000-7000-8000-000000000003" }], { dir: here, name: "c.jsonl" });
    const prefixes = sessionPrefixes(here, agent);
    expect(prefixes.get("01a232c8-aaaa-7000-8000-000000000001")).toBe("01a232c8-aa");
    expect(prefixes.get("01ffffff-0000-7000-8000-000000000003")).toBe("01ffffff");
  });

  test("a session directory or file reached through a link is one session, not two with the same id", () => {
    const { agent, here, there } = twoProjects();
    const a = writeSession([{ ...HEADER, id: "01a232c8-aaaa-7000-8000-000000000001" }, msg("u1", null, user("a"))], { dir: here, name: "a.jsonl" });
    writeSession([{ ...HEADER, id: "01a232c8-abbb-7000-8000-000000000002" }, msg("u1", null, user("b"))], { dir: there, name: "b.jsonl" });
    // A --session-dir outside the root that is a link to a project's directory, and a file of
    // another project linked to this one's session.
    const custom = join(tempDir(), "linked-dir");
    symlinkSync(here, custom);
    symlinkSync(a, join(there, "a-link.jsonl"));
    expect(resolveSession("01a232c8-aa", "/p/here", custom, agent)).toMatchObject({ kind: "local", path: join(custom, "a.jsonl") });
    expect(sessionPrefixes(custom, agent).get("01a232c8-aaaa-7000-8000-000000000001")).toBe("01a232c8-aa");
  });
});
