/** Project trust: what counts, how it is decided, where it is remembered. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import {
  askTrust,
  decideTrust,
  findProjectResources,
  projectKey,
  readTrust,
  recordTrust,
  type ProjectResource,
} from "../../src/resources/trust.ts";
import { tempDir } from "../helpers/tmp.ts";

function setup() {
  const root = realpathSync(tempDir("pig-trust-"));
  const agentDir = join(root, "agent");
  const home = join(root, "home");
  const repo = join(root, "repo");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  return { root, agentDir, home, repo };
}

function touch(path: string, text = "x"): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const never = async (): Promise<boolean> => {
  throw new Error("should not ask");
};

describe("findProjectResources", () => {
  test("a project with only context files has nothing to trust", () => {
    const { repo, home } = setup();
    touch(join(repo, "AGENTS.md"));
    touch(join(repo, "CLAUDE.md"));
    mkdirSync(join(repo, ".pig", "skills"), { recursive: true }); // empty: loads nothing
    expect(findProjectResources(repo, home)).toEqual([]);
  });

  test("lists settings, its packages, resource dirs, prompt files and .agents/skills up to the git root", () => {
    const { repo, home } = setup();
    const cwd = join(repo, "pkg", "sub");
    mkdirSync(cwd, { recursive: true });
    touch(join(cwd, ".pig", "settings.json"), '{ "packages": ["npm:foo", { "source": "git:github.com/a/b" }], }');
    for (const dir of ["extensions", "skills", "prompts", "themes"]) touch(join(cwd, ".pig", dir, "a.md"));
    touch(join(cwd, ".pig", "SYSTEM.md"));
    touch(join(cwd, ".pig", "APPEND_SYSTEM.md"));
    touch(join(repo, ".agents", "skills", "s", "SKILL.md"));
    touch(join(repo, "..", ".agents", "skills", "outside", "SKILL.md")); // above the git root
    const found = findProjectResources(cwd, home);
    const pig = join(cwd, ".pig");
    expect(found).toEqual<ProjectResource[]>([
      { path: join(pig, "settings.json"), kind: "settings" },
      { path: "npm:foo", kind: "package" },
      { path: "git:github.com/a/b", kind: "package" },
      { path: join(pig, "extensions"), kind: "extensions" },
      { path: join(pig, "skills"), kind: "skills" },
      { path: join(pig, "prompts"), kind: "prompts" },
      { path: join(pig, "themes"), kind: "themes" },
      { path: join(pig, "SYSTEM.md"), kind: "system-prompt" },
      { path: join(pig, "APPEND_SYSTEM.md"), kind: "append-system-prompt" },
      { path: join(repo, ".agents", "skills"), kind: "agents-skills" },
    ]);
  });

  test("the person's own ~/.agents/skills is not the project's", () => {
    const { home } = setup();
    const cwd = join(home, "scratch");
    mkdirSync(cwd, { recursive: true });
    touch(join(home, ".agents", "skills", "mine", "SKILL.md"));
    expect(findProjectResources(cwd, home)).toEqual([]);
  });
});

describe("projectKey", () => {
  test("is the git root for any directory inside a repository", () => {
    const { repo } = setup();
    mkdirSync(join(repo, "a", "b"), { recursive: true });
    expect(projectKey(join(repo, "a", "b"))).toBe(repo);
    // A worktree has a .git file, not a directory.
    const worktree = join(repo, "..", "wt");
    touch(join(worktree, ".git"), "gitdir: elsewhere");
    expect(projectKey(worktree)).toBe(realpathSync(worktree));
  });

  test("is the real path of cwd outside a repository", () => {
    const { root } = setup();
    const plain = join(root, "plain");
    mkdirSync(plain);
    symlinkSync(plain, join(root, "link"));
    expect(projectKey(join(root, "link"))).toBe(plain);
  });
});

describe("decideTrust", () => {
  function project() {
    const s = setup();
    touch(join(s.repo, ".pig", "settings.json"), "{}");
    return s;
  }

  test("nothing to trust: trusted without asking, nothing written", async () => {
    const { repo, agentDir, home } = setup();
    const outcome = await decideTrust({ cwd: repo, agentDir, home, interactive: true, ask: never });
    expect(outcome).toMatchObject({ trusted: true, reason: "nothing-to-trust" });
    expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
  });

  test("accepted: trusted and remembered, so the next run does not ask", async () => {
    const { repo, agentDir, home } = project();
    let asked: ProjectResource[] = [];
    const outcome = await decideTrust({
      cwd: repo,
      agentDir,
      home,
      interactive: true,
      ask: async (found, key) => {
        asked = found;
        expect(key).toBe(repo);
        return true;
      },
    });
    expect(outcome).toMatchObject({ trusted: true, reason: "asked", project: repo });
    expect(asked.map((r) => r.kind)).toEqual(["settings"]);
    expect(readTrust(agentDir).projects[repo]?.trusted).toBe(true);
    const sub = join(repo, "deeper");
    mkdirSync(sub);
    const again = await decideTrust({ cwd: sub, agentDir, home, interactive: true, ask: never });
    // The subdirectory has no .pig of its own: nothing to trust there.
    expect(again.reason).toBe("nothing-to-trust");
    touch(join(sub, ".pig", "SYSTEM.md"));
    const inside = await decideTrust({ cwd: sub, agentDir, home, interactive: false });
    expect(inside).toMatchObject({ trusted: true, reason: "remembered" });
  });

  test("refused: not trusted, remembered as refused", async () => {
    const { repo, agentDir, home } = project();
    const outcome = await decideTrust({ cwd: repo, agentDir, home, interactive: true, ask: async () => false });
    expect(outcome).toMatchObject({ trusted: false, reason: "asked" });
    const again = await decideTrust({ cwd: repo, agentDir, home, interactive: true, ask: never });
    expect(again).toMatchObject({ trusted: false, reason: "remembered" });
    expect(again.message).toBeUndefined();
  });

  test("cancelled: not trusted for this run and not remembered", async () => {
    const { repo, agentDir, home } = project();
    const outcome = await decideTrust({ cwd: repo, agentDir, home, interactive: true, ask: async () => undefined });
    expect(outcome).toMatchObject({ trusted: false, reason: "undecided" });
    expect(outcome.message).toContain("ask again");
    expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
  });

  test("flags win over remembered decisions and are not remembered", async () => {
    const { repo, agentDir, home } = project();
    recordTrust(agentDir, repo, false);
    const before = readFileSync(join(agentDir, "trust.json"), "utf8");
    expect(await decideTrust({ cwd: repo, agentDir, home, flag: true, interactive: true, ask: never })).toMatchObject({
      trusted: true,
      reason: "flag",
    });
    expect(await decideTrust({ cwd: repo, agentDir, home, flag: false, interactive: true, ask: never })).toMatchObject({
      trusted: false,
      reason: "flag",
    });
    expect(readFileSync(join(agentDir, "trust.json"), "utf8")).toBe(before);
  });

  test("non-interactive without a decision: not trusted, and the message names the project and how to decide", async () => {
    const { repo, agentDir, home } = project();
    touch(join(repo, ".pig", "extensions", "x.ts"));
    const outcome = await decideTrust({ cwd: repo, agentDir, home, interactive: false, ask: never });
    expect(outcome).toMatchObject({ trusted: false, reason: "undecided" });
    expect(outcome.message).toContain(repo);
    expect(outcome.message).toContain(".pig/settings.json, .pig/extensions");
    expect(outcome.message).toContain("--trust");
    expect(outcome.message).toContain("interactively");
    expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
  });

  test("an interactive run without a terminal does not ask", async () => {
    const { repo, agentDir, home } = project();
    const src = join(import.meta.dir, "../../src/resources/trust.ts");
    const child = Bun.spawn(
      [
        process.execPath,
        "-e",
        `import { decideTrust } from ${JSON.stringify(src)};
         const o = await decideTrust({ cwd: ${JSON.stringify(repo)}, agentDir: ${JSON.stringify(agentDir)}, home: ${JSON.stringify(home)}, interactive: true });
         console.log(JSON.stringify({ trusted: o.trusted, reason: o.reason }));`,
      ],
      { stdin: "pipe", stdout: "pipe", stderr: "pipe" },
    );
    child.stdin.end();
    expect(await child.exited).toBe(0);
    expect(JSON.parse(await new Response(child.stdout).text())).toEqual({ trusted: false, reason: "undecided" });
  });
});

describe("trust.json", () => {
  test("is written with mode 0600 and validated on read", () => {
    const { repo, agentDir } = setup();
    recordTrust(agentDir, join(repo), true, new Date("2026-01-02T03:04:05.000Z"));
    const path = join(agentDir, "trust.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      version: 1,
      projects: { [repo]: { trusted: true, decidedAt: "2026-01-02T03:04:05.000Z" } },
    });
    expect(readTrust(agentDir)).toEqual({
      projects: { [repo]: { trusted: true, decidedAt: "2026-01-02T03:04:05.000Z" } },
      others: {},
      diagnostics: [],
      broken: false,
    });
  });

  test("unknown keys are warned about with the closest known key, and kept when a decision is written", () => {
    const { repo, agentDir } = setup();
    const path = join(agentDir, "trust.json");
    writeFileSync(path, '{\n  "version": 1,\n  "projets": {},\n  "projects": { "/x": { "trusted": true, "decidedAt": "d", "note": "n" } }\n}');
    const read = readTrust(agentDir);
    expect(read.broken).toBe(false);
    expect(read.diagnostics[0]).toBe(`${path}: unknown key "projets" at line 3, column 3 (did you mean "projects"?); pig ignores it and keeps it`);
    expect(read.diagnostics[1]).toContain('unknown key "projects./x.note"');
    recordTrust(agentDir, repo, true);
    const written = JSON.parse(readFileSync(path, "utf8"));
    expect(written.projets).toEqual({});
    expect(written.projects["/x"].note).toBe("n");
  });

  test("a broken file means no decisions, is reported, and is moved aside before a new one is written", async () => {
    const { repo, agentDir, home } = setup();
    touch(join(repo, ".pig", "settings.json"), "{}");
    const path = join(agentDir, "trust.json");
    writeFileSync(path, '{ "version": 1, "projects": { "/x": { "trusted": "yes" } } }');
    const read = readTrust(agentDir);
    expect(read.broken).toBe(true);
    expect(read.projects).toEqual({});
    expect(read.diagnostics[0]).toContain(path);
    expect(read.diagnostics[0]).toContain('"projects./x.trusted"');

    const outcome = await decideTrust({ cwd: repo, agentDir, home, interactive: true, ask: async () => true });
    expect(outcome.reason).toBe("asked");
    const aside = readdirSync(agentDir).filter((name) => name.startsWith("trust.json.broken-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(agentDir, aside[0]!), "utf8")).toContain('"trusted": "yes"');
    expect(outcome.diagnostics.some((d) => d.includes(`moved the unusable ${path} to ${join(agentDir, aside[0]!)}`))).toBe(true);
    expect(readTrust(agentDir).projects[repo]?.trusted).toBe(true);
  });

  test("invalid JSON is broken too, and is never overwritten in place", () => {
    const { repo, agentDir } = setup();
    const path = join(agentDir, "trust.json");
    writeFileSync(path, "{ nope");
    expect(readTrust(agentDir).diagnostics[0]).toContain("line 1, column 3");
    const diagnostics = recordTrust(agentDir, repo, false);
    expect(diagnostics.at(-1)).toContain("moved the unusable");
    expect(readdirSync(agentDir).some((name) => name.startsWith("trust.json.broken-"))).toBe(true);
  });
});

describe("the default question", () => {
  async function answer(keys: string[]): Promise<{ result: boolean | undefined; shown: string }> {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = "";
    output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    const pending = askTrust([{ path: "/p/.pig/extensions", kind: "extensions" }, { path: "npm:x", kind: "package" }], "/p", {
      input,
      output,
    });
    for (const key of keys) {
      await Bun.sleep(20);
      input.write(key);
    }
    return { result: await pending, shown };
  }

  test("lists what was found, explains trust, and defaults to no", async () => {
    const { result, shown } = await answer(["\r"]);
    expect(result).toBe(false);
    expect(shown).toContain(".pig/extensions");
    expect(shown).toContain("package npm:x");
    expect(shown).toContain("run code");
    expect(shown).toContain("Trust /p?");
  });

  test("yes is yes, and escape is a cancel", async () => {
    expect((await answer(["y", "\r"])).result).toBe(true);
    expect((await answer(["\x1b"])).result).toBeUndefined();
  });
});
