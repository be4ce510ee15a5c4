import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  projectAgentsSkillDirs,
  resolveResourcePaths,
  type ResourceKind,
  type ResourcePathOptions,
} from "../../src/resources/resource-paths.ts";
import { tempDir } from "../helpers/tmp.ts";

/** A temp HOME with an agent dir, and a git project inside a parent directory. */
function world() {
  const root = tempDir("pig-respaths-");
  const home = join(root, "home");
  const agentDir = join(home, ".pig", "agent");
  const repo = join(root, "work", "repo");
  const cwd = join(repo, "pkg");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const write = (base: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, rel)), { recursive: true });
      writeFileSync(join(base, rel), text);
    }
  };
  const options = (extra: Partial<ResourcePathOptions> = {}): ResourcePathOptions => ({ cwd, agentDir, home, trusted: true, ...extra });
  const paths = (kind: ResourceKind, extra: Partial<ResourcePathOptions> = {}) =>
    resolveResourcePaths(kind, options(extra)).resources.map((r) => r.path);
  return { root, home, agentDir, repo, cwd, project: join(cwd, ".pig"), write, options, paths };
}

const skill = "---\nname: x\ndescription: d\n---\nbody\n";

describe("precedence", () => {
  test("project entries, project auto, user entries, user auto, packages, then CLI paths", () => {
    const w = world();
    w.write(w.root, { "p-entry/a.md": "", "u-entry/b.md": "", "pkg/prompts/c.md": "", "cli/d.md": "" });
    w.write(w.project, { "prompts/p.md": "" });
    w.write(w.agentDir, { "prompts/u.md": "" });
    const got = w.paths("prompts", {
      projectEntries: [join(w.root, "p-entry")],
      userEntries: [join(w.root, "u-entry")],
      packageDirs: [{ source: "npm:pkg", scope: "user", root: join(w.root, "pkg"), paths: [join(w.root, "pkg/prompts")] }],
      cliPaths: [join(w.root, "cli")],
    });
    expect(got).toEqual([
      join(w.root, "p-entry/a.md"),
      join(w.project, "prompts/p.md"),
      join(w.root, "u-entry/b.md"),
      join(w.agentDir, "prompts/u.md"),
      join(w.root, "pkg/prompts/c.md"),
      join(w.root, "cli/d.md"),
    ]);
  });

  test("-e package resources come first; project packages before user ones", () => {
    const w = world();
    w.write(w.root, { "t/a.md": "", "pp/b.md": "", "up/c.md": "" });
    w.write(w.agentDir, { "prompts/u.md": "" });
    const got = w.paths("prompts", {
      packageDirs: [
        { source: "npm:user", scope: "user", paths: [join(w.root, "up")] },
        { source: "npm:proj", scope: "project", paths: [join(w.root, "pp")] },
        { source: "./t", scope: "temporary", paths: [join(w.root, "t")] },
      ],
    });
    expect(got).toEqual([join(w.root, "t/a.md"), join(w.agentDir, "prompts/u.md"), join(w.root, "pp/b.md"), join(w.root, "up/c.md")]);
  });

  test("without discovery only -e package resources and CLI paths remain", () => {
    const w = world();
    w.write(w.root, { "t/a.md": "", "cli.md": "" });
    w.write(w.project, { "prompts/p.md": "" });
    w.write(w.agentDir, { "prompts/u.md": "" });
    const got = w.paths("prompts", {
      includeDiscovered: false,
      userEntries: [join(w.root, "t")],
      packageDirs: [{ source: "x", scope: "temporary", paths: [join(w.root, "t")] }],
      cliPaths: [join(w.root, "cli.md")],
    });
    expect(got).toEqual([join(w.root, "t/a.md"), join(w.root, "cli.md")]);
  });

  test("extensions: -e paths first, then project and user extensions", () => {
    const w = world();
    w.write(w.root, { "cli-ext.ts": "" });
    w.write(w.project, { "extensions/p.ts": "" });
    w.write(w.agentDir, { "extensions/u.js": "", "extensions/dir/index.ts": "", "extensions/notes.md": "" });
    expect(w.paths("extensions", { cliPaths: [join(w.root, "cli-ext.ts")] })).toEqual([
      join(w.root, "cli-ext.ts"),
      join(w.project, "extensions/p.ts"),
      join(w.agentDir, "extensions/dir/index.ts"),
      join(w.agentDir, "extensions/u.js"),
    ]);
  });

  test("an extensions dir with an index file or a pi manifest is that extension alone", () => {
    const w = world();
    w.write(w.agentDir, { "extensions/index.ts": "", "extensions/other.ts": "" });
    w.write(w.project, {
      "extensions/package.json": JSON.stringify({ pi: { extensions: ["./src/main.ts", "./missing.ts"] } }),
      "extensions/src/main.ts": "",
      "extensions/loose.ts": "",
    });
    expect(w.paths("extensions")).toEqual([join(w.project, "extensions/src/main.ts"), join(w.agentDir, "extensions/index.ts")]);
  });
});

describe("settings entries", () => {
  test("relative entries resolve against .pig (project) and the agent dir (user); ~ is the home dir", () => {
    const w = world();
    w.write(w.project, { "mine/a.md": "" });
    w.write(w.agentDir, { "theirs/b.md": "" });
    w.write(w.home, { "homed/c.md": "" });
    const got = w.paths("prompts", { projectEntries: ["mine"], userEntries: ["./theirs", "~/homed"] });
    expect(got).toEqual([join(w.project, "mine/a.md"), join(w.agentDir, "theirs/b.md"), join(w.home, "homed/c.md")]);
  });

  test("settings directories of prompts are searched recursively, skipping dot-names and ignored files", () => {
    const w = world();
    w.write(w.root, {
      "lib/a.md": "",
      "lib/deep/b.md": "",
      "lib/.hidden/c.md": "",
      "lib/node_modules/d.md": "",
      "lib/gen/e.md": "",
      "lib/.gitignore": "gen/\n",
    });
    expect(w.paths("prompts", { userEntries: [join(w.root, "lib")] })).toEqual([join(w.root, "lib/a.md"), join(w.root, "lib/deep/b.md")]);
  });

  test("missing entries are skipped silently", () => {
    const w = world();
    const result = resolveResourcePaths("prompts", w.options({ userEntries: ["nope"] }));
    expect(result.resources).toEqual([]);
    expect(result.diagnostics).toEqual([]);
  });

  test("include globs keep only matching files of the plain entries; ! excludes; + and - override", () => {
    const w = world();
    w.write(w.agentDir, { "lib/keep.md": "", "lib/drop.md": "", "lib/other.txt.md": "", "lib/sub/x.md": "" });
    expect(w.paths("prompts", { userEntries: ["lib", "*.md", "!drop.md"] })).toEqual([
      join(w.agentDir, "lib/keep.md"),
      join(w.agentDir, "lib/other.txt.md"),
      join(w.agentDir, "lib/sub/x.md"),
    ]);
    expect(w.paths("prompts", { userEntries: ["lib", "!lib/*", "+lib/keep.md"] })).toEqual([
      join(w.agentDir, "lib/keep.md"),
      join(w.agentDir, "lib/sub/x.md"),
    ]);
    expect(w.paths("prompts", { userEntries: ["lib", "+lib/drop.md", "-./lib/drop.md", "-lib/keep.md"] })).toEqual([
      join(w.agentDir, "lib/other.txt.md"),
      join(w.agentDir, "lib/sub/x.md"),
    ]);
  });

  test("a glob entry alone adds nothing (patterns only filter)", () => {
    const w = world();
    w.write(w.agentDir, { "lib/a.md": "" });
    expect(w.paths("prompts", { userEntries: ["lib/*.md"] })).toEqual([]);
  });

  test("! / + / - entries toggle auto-discovered resources of the same scope only", () => {
    const w = world();
    w.write(w.agentDir, { "prompts/a.md": "", "prompts/b.md": "", "skills/s1/SKILL.md": skill, "skills/s2/SKILL.md": skill });
    w.write(w.project, { "prompts/c.md": "" });
    // User "!*.md" hides user prompts, not the project's; "+prompts/b.md" brings one back.
    expect(w.paths("prompts", { userEntries: ["!*.md", "+prompts/b.md"] })).toEqual([
      join(w.project, "prompts/c.md"),
      join(w.agentDir, "prompts/b.md"),
    ]);
    // A skill can be named by its directory.
    expect(w.paths("skills", { userEntries: ["!s1"] })).toEqual([join(w.agentDir, "skills/s2/SKILL.md")]);
    expect(w.paths("skills", { userEntries: ["-skills/s2"] })).toEqual([join(w.agentDir, "skills/s1/SKILL.md")]);
    // Plain globs do not filter auto-discovered files.
    expect(w.paths("prompts", { userEntries: ["a*"] })).toEqual([
      join(w.project, "prompts/c.md"),
      join(w.agentDir, "prompts/a.md"),
      join(w.agentDir, "prompts/b.md"),
    ]);
  });
});

describe("trust", () => {
  test("an untrusted project contributes nothing: no .pig resources, no entries, no .agents/skills, no project packages", () => {
    const w = world();
    w.write(w.project, { "skills/p/SKILL.md": skill, "lib/q/SKILL.md": skill });
    w.write(w.cwd, { ".agents/skills/r/SKILL.md": skill });
    w.write(w.root, { "pp/s/SKILL.md": skill });
    w.write(w.agentDir, { "skills/u/SKILL.md": skill });
    w.write(w.home, { ".agents/skills/h/SKILL.md": skill });
    const got = w.paths("skills", {
      trusted: false,
      projectEntries: ["lib", "!u"],
      packageDirs: [{ source: "npm:pp", scope: "project", paths: [join(w.root, "pp")] }],
    });
    expect(got).toEqual([join(w.agentDir, "skills/u/SKILL.md"), join(w.home, ".agents/skills/h/SKILL.md")]);
  });

  test("CLI paths are used even in an untrusted project", () => {
    const w = world();
    w.write(w.project, { "prompts/p.md": "" });
    expect(w.paths("prompts", { trusted: false, cliPaths: [join(w.project, "prompts/p.md")] })).toEqual([join(w.project, "prompts/p.md")]);
  });
});

describe(".agents/skills", () => {
  test("cwd and each ancestor up to the git root, nearest first", () => {
    const w = world();
    expect(projectAgentsSkillDirs(w.cwd, w.home)).toEqual([join(w.cwd, ".agents/skills"), join(w.repo, ".agents/skills")]);
  });

  test("outside a repository every ancestor counts, except the user's ~/.agents/skills", () => {
    const w = world();
    const dir = join(w.home, "proj");
    mkdirSync(dir, { recursive: true });
    const dirs = projectAgentsSkillDirs(dir, w.home);
    expect(dirs[0]).toBe(join(dir, ".agents/skills"));
    expect(dirs).not.toContain(join(w.home, ".agents/skills"));
    expect(dirs.at(-1)).toBe("/.agents/skills");
  });

  test("root-level .md files are not skills there, unlike in .pig/skills", () => {
    const w = world();
    w.write(w.repo, { ".agents/skills/loose.md": skill, ".agents/skills/real/SKILL.md": skill });
    w.write(w.project, { "skills/loose.md": skill });
    expect(w.paths("skills")).toEqual([join(w.project, "skills/loose.md"), join(w.repo, ".agents/skills/real/SKILL.md")]);
  });
});

describe("dedupe and CLI paths", () => {
  test("the same file reached through a symlink is used once, at its first place", () => {
    const w = world();
    w.write(w.agentDir, { "skills/shared/SKILL.md": skill });
    mkdirSync(join(w.project, "skills"), { recursive: true });
    symlinkSync(join(w.agentDir, "skills/shared"), join(w.project, "skills/shared"));
    const result = resolveResourcePaths("skills", w.options({ cliPaths: [join(w.agentDir, "skills/shared/SKILL.md")] }));
    expect(result.resources.map((r) => r.path)).toEqual([join(w.project, "skills/shared/SKILL.md")]);
    expect(result.resources[0]!.sourceInfo.scope).toBe("project");
  });

  test("a CLI path can bring back a file the settings disabled", () => {
    const w = world();
    w.write(w.agentDir, { "prompts/a.md": "" });
    expect(w.paths("prompts", { userEntries: ["!a.md"], cliPaths: ["~/.pig/agent/prompts/a.md"] })).toEqual([join(w.agentDir, "prompts/a.md")]);
  });

  test("missing CLI paths are errors naming the path, per kind", () => {
    const w = world();
    const messages = (kind: ResourceKind) => resolveResourcePaths(kind, w.options({ cliPaths: ["gone"] })).diagnostics;
    expect(messages("skills")).toEqual([{ type: "error", message: "Skill path does not exist: gone", path: "gone" }]);
    expect(messages("prompts")[0]!.message).toBe("Prompt template path does not exist: gone");
    expect(messages("themes")[0]!.message).toBe("Theme path does not exist: gone");
    expect(messages("extensions")[0]!.message).toBe("Extension path does not exist: gone");
  });

  test("CLI paths resolve against cwd; CLI template dirs are read one level deep", () => {
    const w = world();
    w.write(w.cwd, { "tpl/a.md": "", "tpl/sub/b.md": "", "tpl/notes.txt": "" });
    expect(w.paths("prompts", { cliPaths: ["tpl"] })).toEqual([join(w.cwd, "tpl/a.md")]);
  });

  test("a CLI file of the wrong type is reported and skipped", () => {
    const w = world();
    w.write(w.cwd, { "notes.txt": "" });
    const result = resolveResourcePaths("skills", w.options({ cliPaths: ["notes.txt"] }));
    expect(result.resources).toEqual([]);
    expect(result.diagnostics[0]!.type).toBe("warning");
    expect(result.diagnostics[0]!.path).toBe(join(w.cwd, "notes.txt"));
  });
});

describe("sourceInfo", () => {
  test("per origin: settings entry, auto, package, CLI (user/project/temporary), -e path", () => {
    const w = world();
    w.write(w.agentDir, { "lib/e.md": "", "prompts/a.md": "" });
    w.write(w.project, { "prompts/p.md": "" });
    w.write(w.root, { "pkg/prompts/k.md": "", "loose/l.md": "", "ext.ts": "" });
    const infos = resolveResourcePaths(
      "prompts",
      w.options({
        userEntries: ["lib"],
        packageDirs: [{ source: "npm:pkg", scope: "user", root: join(w.root, "pkg"), paths: [join(w.root, "pkg/prompts")] }],
        cliPaths: [join(w.root, "loose/l.md")],
      }),
    ).resources.map((r) => r.sourceInfo);
    expect(infos).toEqual([
      { path: join(w.project, "prompts/p.md"), source: "auto", scope: "project", origin: "top-level", baseDir: w.project },
      { path: join(w.agentDir, "lib/e.md"), source: "local", scope: "user", origin: "top-level" },
      { path: join(w.agentDir, "prompts/a.md"), source: "auto", scope: "user", origin: "top-level", baseDir: w.agentDir },
      { path: join(w.root, "pkg/prompts/k.md"), source: "npm:pkg", scope: "user", origin: "package", baseDir: join(w.root, "pkg") },
      { path: join(w.root, "loose/l.md"), source: "local", scope: "temporary", origin: "top-level", baseDir: join(w.root, "loose") },
    ]);
    const ext = resolveResourcePaths("extensions", w.options({ cliPaths: [join(w.root, "ext.ts")] })).resources[0]!;
    expect(ext.sourceInfo).toEqual({ path: join(w.root, "ext.ts"), source: "cli", scope: "temporary", origin: "top-level" });
  });

  test("CLI paths under the user's or project's kind dir take that scope", () => {
    const w = world();
    w.write(w.agentDir, { "prompts/a.md": "", "skills/s/SKILL.md": skill });
    w.write(w.project, { "prompts/b.md": "" });
    const prompts = resolveResourcePaths(
      "prompts",
      w.options({ includeDiscovered: false, cliPaths: [join(w.agentDir, "prompts/a.md"), join(w.project, "prompts/b.md")] }),
    ).resources.map((r) => [r.sourceInfo.scope, r.sourceInfo.baseDir]);
    expect(prompts).toEqual([
      ["user", join(w.agentDir, "prompts")],
      ["project", join(w.project, "prompts")],
    ]);
    const skills = resolveResourcePaths("skills", w.options({ includeDiscovered: false, cliPaths: [join(w.agentDir, "skills/s")] })).resources;
    expect(skills.map((r) => [r.sourceInfo.scope, r.sourceInfo.baseDir])).toEqual([["user", join(w.agentDir, "skills/s")]]);
  });
});
