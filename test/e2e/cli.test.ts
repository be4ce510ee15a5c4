/** The built binary: flags, exit codes, and `pig sessions` as a script would use it. */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { defaultSessionDir } from "../../src/session/paths.ts";
import { runPig } from "../helpers/binary.ts";
import { FIXTURES, fixtureCopy, tempDir } from "../helpers/tmp.ts";

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
    expect(runPig(["sessions", "tree", "x", "--json"]).stderr).toContain("--json goes with list and show");
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
  for (const name of readdirSync(dir)) out[name] = `${statSync(join(dir, name)).mtimeMs}:${readFileSync(join(dir, name), "utf8")}`;
  return out;
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
    for (const args of [["list"], ["list", "--all", "--json"], ["show", "08-branching-tree.jsonl"], ["show", join(dir, "03-model-thinking-name.jsonl"), "--json"], ["tree", join(dir, "08-branching-tree.jsonl")]]) {
      const result = runPig(["sessions", ...args.map((a) => (a.endsWith(".jsonl") && !a.startsWith("/") ? join(dir, a) : a))], { cwd, env });
      expect(result.code).toBe(0);
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

  test("tree shows roles, labels and the leaf", () => {
    const result = runPig(["sessions", "tree", join(FIXTURES, "08-branching-tree.jsonl")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("b964e182  user  A  [start-of-session]");
    expect(result.stdout).toMatch(/\* +1e0630d1  label 1ceb8f6d cleared  ← leaf/);
    expect(result.stdout).toContain("├─ ");
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
