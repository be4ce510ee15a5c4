/** The built binary: flags, exit codes, and `pig sessions` as a script would use it. */
import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { defaultSessionDir } from "../../src/session/paths.ts";
import { runPig } from "../helpers/binary.ts";
import { FIXTURES, FIXTURES_087, fixtureCopy, tempDir } from "../helpers/tmp.ts";

describe("flags", () => {
  test("--version prints the version", () => {
    const result = runPig(["--version"]);
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  test("--help lists the commands that exist", () => {
    const result = runPig(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("pig sessions <command>");
    expect(result.stdout).toContain("sessions show <session>");
  });

  test("an unknown flag is a usage error: stderr, exit code 2", () => {
    const result = runPig(["--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("pig: Unknown option '--bogus'\nRun 'pig --help' for usage.\n");
  });

  test("sessions usage errors name what is wrong", () => {
    expect(runPig(["sessions"]).stderr).toContain("missing command");
    expect(runPig(["sessions", "frobnicate"]).stderr).toContain("unknown command 'frobnicate'");
    const missing = runPig(["sessions", "show"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("usage: pig sessions show <session> [--json]");
    expect(runPig(["sessions", "name", "x", "y", "--json"]).stderr).toContain("--json goes with list, show and tree, not name");
  });
});

describe("a project's .env and bunfig.toml are never loaded", () => {
  test("running inside a hostile directory", () => {
    const dir = tempDir();
    const marker = join(dir, "preload-ran");
    writeFileSync(join(dir, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");`);
    writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
    const hidden = tempDir();
    cpSync(join(FIXTURES, "01-basic-text.jsonl"), join(hidden, "leak.jsonl"));
    writeFileSync(join(dir, ".env"), `PIG_CODING_AGENT_SESSION_DIR=${hidden}\n`);
    const result = runPig(["sessions", "list", "--json"], { cwd: dir, env: { PIG_CODING_AGENT_DIR: tempDir() } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("pig sessions show --json", () => {
  const files = readdirSync(FIXTURES).filter(
    (name) => name.endsWith(".jsonl") && existsSync(join(FIXTURES, name.replace(/\.jsonl$/, ".context.json"))),
  );
  test.each(files)("%s gives the context Pi built", (name) => {
    const result = runPig(["sessions", "show", join(FIXTURES, name), "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const expected = JSON.parse(readFileSync(join(FIXTURES, name.replace(/\.jsonl$/, ".context.json")), "utf8"));
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });
});

describe("pig sessions show on Pi 0.87.1's files", () => {
  const files = readdirSync(FIXTURES_087).filter((name) => name.endsWith(".jsonl") && name !== "07-compaction-auto.jsonl");
  test.each(files)("%s gives the context Pi built, with its system message", (name) => {
    const result = runPig(["sessions", "show", join(FIXTURES_087, name), "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const context = JSON.parse(result.stdout);
    expect(context).toEqual(JSON.parse(readFileSync(join(FIXTURES_087, name.replace(/\.jsonl$/, ".context.json")), "utf8")));
    expect(context.messages.filter((m: { role: string }) => m.role === "system")).toHaveLength(1);
  });

  test("a session with a context edit says that pig keeps it but does not apply it, in text and (on stderr) with --json", () => {
    const file = join(FIXTURES_087, "07-compaction-auto.jsonl");
    const note = "this session has 1 context edit, written by Pi, which pig keeps but does not apply";
    const text = runPig(["sessions", "show", file]);
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[2]).toStartWith(`note: ${note}`);
    expect(text.stdout).toContain("── system: prompt and tools (preamble tools rules docs cwd +read +bash +edit +write)");
    const json = runPig(["sessions", "show", file, "--json"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toStartWith(`pig: note: ${note}`);
    // The edit's target (the failed answer) stays in the context pig builds; Pi's leaves it out.
    const roles = JSON.parse(json.stdout).messages.map((m: { role: string; stopReason?: string }) => m.stopReason ?? m.role);
    expect(roles).toEqual(["system", "compactionSummary", "error", "stop", "user", "stop"]);
  });
});

function projectWithSessions() {
  const agent = tempDir();
  const cwd = tempDir();
  const dir = defaultSessionDir(cwd, agent);
  mkdirSync(dir, { recursive: true });
  for (const name of ["01-basic-text.jsonl", "03-model-thinking-name.jsonl", "08-branching-tree.jsonl"]) cpSync(join(FIXTURES, name), join(dir, name));
  const other = defaultSessionDir("/another/project", agent);
  mkdirSync(other, { recursive: true });
  cpSync(join(FIXTURES, "10-extension-entries.jsonl"), join(other, "10.jsonl"));
  return { agent, cwd, dir, env: { PIG_CODING_AGENT_DIR: agent } };
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) out[name] = readFileSync(join(dir, name), "utf8");
  return out;
}

/** Makes a directory and its files read-only (or writable again). */
function setReadOnly(dir: string, readOnly: boolean): void {
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), readOnly ? 0o444 : 0o644);
  chmodSync(dir, readOnly ? 0o555 : 0o755);
}

describe("pig sessions list / tree / name / label", () => {
  test("list --json: this project's sessions, most recent first; --all: every project", () => {
    const { cwd, dir, env } = projectWithSessions();
    const list = runPig(["sessions", "list", "--json"], { cwd, env });
    expect(list.code).toBe(0);
    const sessions = JSON.parse(list.stdout);
    expect(sessions.map((s: { path: string }) => s.path.split("/").at(-1))).toEqual(["08-branching-tree.jsonl", "03-model-thinking-name.jsonl", "01-basic-text.jsonl"]);
    expect(Object.keys(sessions[0])).toEqual(["path", "id", "cwd", "name", "firstMessage", "messageCount", "created", "modified"]);
    expect(sessions[1]).toMatchObject({ name: "Model & thinking fixture", messageCount: 10, path: join(dir, "03-model-thinking-name.jsonl") });
    const all = JSON.parse(runPig(["sessions", "list", "--all", "--json"], { cwd, env }).stdout);
    expect(all).toHaveLength(4);
    const text = runPig(["sessions", "list"], { cwd, env }).stdout;
    expect(text).toContain("Model & thinking fixture");
  });

  test("read-only commands never modify a file", () => {
    const { cwd, dir, env } = projectWithSessions();
    const before = snapshot(dir);
    // Any attempt to write there fails, and the command with it.
    setReadOnly(dir, true);
    try {
      for (const args of [["list"], ["list", "--all", "--json"], ["show", "08-branching-tree.jsonl"], ["show", join(dir, "03-model-thinking-name.jsonl"), "--json"], ["tree", join(dir, "08-branching-tree.jsonl")]]) {
        const result = runPig(["sessions", ...args.map((a) => (a.endsWith(".jsonl") && !a.startsWith("/") ? join(dir, a) : a))], { cwd, env, permissions: true });
        expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
      }
    } finally {
      setReadOnly(dir, false);
    }
    expect(snapshot(dir)).toEqual(before);
  });

  test("a session is found by id prefix", () => {
    const { cwd, env, dir } = projectWithSessions();
    const id = JSON.parse(readFileSync(join(dir, "08-branching-tree.jsonl"), "utf8").split("\n")[0]!).id as string;
    const result = runPig(["sessions", "show", id.slice(0, 18), "--json"], { cwd, env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).messages).toHaveLength(4);
  });

  test("ids that share their first 8 digits: lists print a prefix that is unique, and a shared prefix picks nothing", () => {
    const agent = tempDir();
    const cwd = tempDir();
    const dir = defaultSessionDir(cwd, agent);
    const other = defaultSessionDir("/another/project", agent);
    mkdirSync(dir, { recursive: true });
    mkdirSync(other, { recursive: true });
    // Three sessions started within the same minute (UUIDv7: the first digits are the time).
    const ids = ["01a232c8-1a2b-7000-8000-000000000001", "01a232c8-1a3c-7000-8000-000000000002", "01a232c8-9999-7000-8000-000000000003"];
    const lines = (id: string, text: string, at: string) =>
      [
        { type: "session", version: 3, id, timestamp: at, cwd },
        { type: "message", id: "u0000001", parentId: null, timestamp: at, message: { role: "user", content: [{ type: "text", text }], timestamp: Date.parse(at) } },
      ].map((l) => JSON.stringify(l)).join("\n") + "\n";
    writeFileSync(join(dir, "a.jsonl"), lines(ids[0]!, "first words of a", "2026-11-30T10:00:01.000Z"));
    writeFileSync(join(dir, "b.jsonl"), lines(ids[1]!, "first words of b", "2026-11-30T10:00:02.000Z"));
    writeFileSync(join(other, "c.jsonl"), lines(ids[2]!, "elsewhere", "2026-11-30T10:00:03.000Z"));
    const env = { PIG_CODING_AGENT_DIR: agent, HOME: agent };
    const before = [snapshot(dir), snapshot(other)];

    const list = runPig(["sessions", "list"], { cwd, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("  01a232c8-1a2  ");
    expect(list.stdout).toContain("  01a232c8-1a3  ");
    const all = runPig(["sessions", "list", "--all"], { cwd, env });
    expect(all.stdout).toContain("  01a232c8-9  ");

    for (const args of [["--session", "01a232c8", "-p", "hello"], ["sessions", "show", "01a232c8"], ["sessions", "tree", "01a232c8-1a"], ["sessions", "name", "01a232c8", "x"], ["sessions", "label", "01a232c8", "u0000001", "x"]]) {
      const result = runPig(args, { cwd, env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("matches");
      expect(result.stderr).toContain(ids[0]!);
      expect(result.stderr).toContain(ids[1]!);
      expect(result.stderr).toContain("first words of a");
      expect(result.stderr).toContain(join(dir, "b.jsonl"));
      expect(result.stderr).toContain("2026-11-30 10:00");
    }
    const wide = runPig(["sessions", "show", "01a232c8"], { cwd, env });
    expect(wide.stderr).toContain(join(other, "c.jsonl"));
    // The printed prefix is enough.
    const named = runPig(["sessions", "name", "01a232c8-1a3", "Picked"], { cwd, env });
    expect(named).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(join(dir, "b.jsonl"), "utf8")).toContain('"name":"Picked"');
    expect(snapshot(dir)["a.jsonl"]).toBe(before[0]!["a.jsonl"]!);
    expect(snapshot(other)).toEqual(before[1]!);
  });

  test("tree shows roles, labels and the leaf", () => {
    const result = runPig(["sessions", "tree", join(FIXTURES, "08-branching-tree.jsonl")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("b964e182  user  A  [start-of-session]");
    expect(result.stdout).toMatch(/\* +1e0630d1  label 1ceb8f6d cleared  ← leaf/);
    expect(result.stdout).toContain("├─ ");
  });

  test("tree shows every entry of a file with reused ids, a parent cycle and a missing parent, and says so", () => {
    const dir = tempDir();
    const path = join(dir, "damaged.jsonl");
    const at = (n: number) => `2026-11-30T10:00:${String(n).padStart(2, "0")}.000Z`;
    const m = (id: string, parentId: string | null, role: string, text: string, n: number) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: at(n), message: { role, content: [{ type: "text", text }], timestamp: Date.parse(at(n)), ...(role === "assistant" ? { stopReason: "stop", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0 } } } : {}) } });
    const lines = [
      JSON.stringify({ type: "session", version: 3, id: "01a232c8-0000-7000-8000-00000000000d", timestamp: at(0), cwd: dir }),
      m("aaaa0001", null, "user", "one", 1),
      m("aaaa0002", "aaaa0001", "assistant", "two", 2),
      // A second writer reused both ids further down.
      m("aaaa0001", "aaaa0002", "user", "three", 3),
      m("aaaa0002", "aaaa0001", "assistant", "four", 4),
      m("cccc0001", "cccc0002", "user", "cycle one", 5),
      m("cccc0002", "cccc0001", "assistant", "cycle two", 6),
      m("dddd0001", "missing0", "user", "orphan", 7),
      m("eeee0001", "aaaa0002", "user", "last", 8),
    ];
    writeFileSync(path, `${lines.join("\n")}\n`);
    const before = readFileSync(path, "utf8");
    const tree = runPig(["sessions", "tree", path]);
    expect(tree.code).toBe(0);
    const rows = tree.stdout.trimEnd().split("\n").slice(1);
    expect(rows).toHaveLength(8);
    for (const text of ["one", "two", "three", "four", "cycle one", "cycle two", "orphan", "last"]) {
      expect(rows.some((r) => r.endsWith(`  ${text}`) || r.includes(`  ${text}  `))).toBe(true);
    }
    expect(rows.filter((r) => r.includes("← leaf"))).toHaveLength(1);
    expect(rows.find((r) => r.includes("← leaf"))).toContain("eeee0001");
    expect(rows.find((r) => r.includes("orphan"))).toContain("(parent missing0 missing)");
    expect(rows.find((r) => r.includes("cycle one"))).toContain("(parent cycle cut here");
    expect(tree.stderr).toContain(`${path}:4: entry id aaaa0001 is used by an earlier line too`);
    expect(tree.stderr).toContain(`${path}:6: entries form a parent cycle: cccc0001 (line 6) → cccc0002 (line 7) → cccc0001`);
    expect(tree.stderr).toContain(`${path}:8: entry dddd0001 names parent missing0, which no entry has`);
    const show = runPig(["sessions", "show", path]);
    expect(show.code).toBe(0);
    expect(show.stderr).toContain(`${path}:6: entries form a parent cycle`);
    expect(show.stderr).toContain(`${path}:8: entry dddd0001 names parent missing0`);
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  test("name and label append one line each and nothing else changes", () => {
    const path = fixtureCopy("02-builtin-tools.jsonl");
    const before = readFileSync(path, "utf8");
    expect(runPig(["sessions", "name", path, "Tools tour"])).toMatchObject({ code: 0, stderr: "" });
    const firstId = JSON.parse(before.split("\n")[1]!).id;
    expect(runPig(["sessions", "label", path, firstId, "origin"])).toMatchObject({ code: 0, stderr: "" });
    const after = readFileSync(path, "utf8");
    expect(after.startsWith(before)).toBe(true);
    const added = after.slice(before.length).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(added).toMatchObject([{ type: "session_info", name: "Tools tour" }, { type: "label", targetId: firstId, label: "origin" }]);
    expect(runPig(["sessions", "label", path, firstId])).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!)).not.toHaveProperty("label");
  });

  test("name and label on a file pig may not write: a clear error naming the file, nothing changed", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    cpSync(join(FIXTURES, "01-basic-text.jsonl"), path);
    const before = readFileSync(path, "utf8");
    chmodSync(path, 0o444);
    const fileOnly = runPig(["sessions", "name", path, "x"], { permissions: true });
    expect(fileOnly.code).toBe(1);
    expect(fileOnly.stderr).toBe(`pig: cannot write to ${path}: permission denied (EACCES)\n`);
    // In a directory pig may not write either: the lock is on the file itself, so the write is
    // what fails, and nothing is made beside the file.
    chmodSync(dir, 0o555);
    const readOnlyDir = runPig(["sessions", "name", path, "x"], { permissions: true });
    chmodSync(dir, 0o755);
    expect(readOnlyDir.code).toBe(1);
    expect(readOnlyDir.stderr).toBe(`pig: cannot write to ${path}: permission denied (EACCES)\n`);
    expect(readdirSync(dir)).toEqual(["s.jsonl"]);
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  test("errors go to stderr with exit code 1", () => {
    const { cwd, env } = projectWithSessions();
    const unknown = runPig(["sessions", "show", "deadbeef"], { cwd, env });
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toBe("pig: No session found matching 'deadbeef'\n");
    const notSession = join(tempDir(), "x.jsonl");
    writeFileSync(notSession, "hello\n");
    const refused = runPig(["sessions", "show", notSession], { cwd, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${notSession} is not a session file`);
    expect(readFileSync(notSession, "utf8")).toBe("hello\n");
    const badLabel = runPig(["sessions", "label", fixtureCopy("01-basic-text.jsonl"), "nope", "x"], { cwd, env });
    expect(badLabel.code).toBe(1);
    expect(badLabel.stderr).toContain("no entry nope");
  });
});
