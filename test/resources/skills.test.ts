import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ResourcePathOptions } from "../../src/resources/resource-paths.ts";
import { expandSkillCommand, loadSkills, skillsPromptBlock, type Skill } from "../../src/resources/skills.ts";
import { tempDir } from "../helpers/tmp.ts";
import { evalWithPermissions } from "../helpers/permissions.ts";

/** A temp HOME with an agent dir and a git project. */
function world() {
  const root = tempDir("pig-skills-");
  const home = join(root, "home");
  const agentDir = join(home, ".pig", "agent");
  const cwd = join(root, "repo");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const write = (base: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, rel)), { recursive: true });
      writeFileSync(join(base, rel), text);
    }
  };
  const load = (extra: Partial<ResourcePathOptions> = {}) => loadSkills({ cwd, agentDir, home, trusted: true, ...extra });
  return { root, home, agentDir, cwd, project: join(cwd, ".pig"), write, load };
}

const md = (name: string, description = `${name} helps`, extra = "") => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\nDo it.\n`;

describe("discovery", () => {
  test("a directory with SKILL.md is one skill and is not searched further", () => {
    const w = world();
    w.write(w.agentDir, {
      "skills/outer/SKILL.md": md("outer"),
      "skills/outer/inner/SKILL.md": md("inner"),
      "skills/outer/notes.md": md("notes"),
    });
    expect(w.load().skills.map((s) => s.name)).toEqual(["outer"]);
  });

  test("nested directories are searched; root .md files count, nested loose .md files do not", () => {
    const w = world();
    w.write(w.agentDir, {
      "skills/top.md": md("top"),
      "skills/group/a/SKILL.md": md("a"),
      "skills/group/loose.md": md("loose"),
    });
    expect(w.load().skills.map((s) => s.name).sort()).toEqual(["a", "top"]);
  });

  test("dot-names and node_modules are skipped; .gitignore, .ignore and .fdignore are honoured", () => {
    const w = world();
    w.write(w.agentDir, {
      "skills/.hidden/SKILL.md": md("hidden"),
      "skills/node_modules/dep/SKILL.md": md("dep"),
      "skills/.gitignore": "by-git/\n",
      "skills/.ignore": "by-ignore\n",
      "skills/nest/.fdignore": "by-fd/\n",
      "skills/by-git/SKILL.md": md("by-git"),
      "skills/by-ignore/SKILL.md": md("by-ignore"),
      "skills/nest/by-fd/SKILL.md": md("by-fd"),
      "skills/nest/kept/SKILL.md": md("kept"),
      "skills/ok/SKILL.md": md("ok"),
    });
    expect(w.load().skills.map((s) => s.name).sort()).toEqual(["kept", "ok"]);
  });

  test("an ignored SKILL.md does not make its directory a skill", () => {
    const w = world();
    w.write(w.agentDir, { "skills/x/.gitignore": "/SKILL.md\n", "skills/x/SKILL.md": md("x"), "skills/x/y/SKILL.md": md("y") });
    expect(w.load().skills.map((s) => s.name)).toEqual(["y"]);
  });

  test("symlinked skill directories and files are followed; a link cycle does not hang", () => {
    const w = world();
    w.write(w.root, { "elsewhere/linked/SKILL.md": md("linked"), "elsewhere/file.md": md("file") });
    mkdirSync(join(w.agentDir, "skills"), { recursive: true });
    symlinkSync(join(w.root, "elsewhere/linked"), join(w.agentDir, "skills/linked"));
    symlinkSync(join(w.root, "elsewhere/file.md"), join(w.agentDir, "skills/file.md"));
    symlinkSync(join(w.agentDir, "skills"), join(w.agentDir, "skills/loop"));
    symlinkSync(join(w.root, "nowhere"), join(w.agentDir, "skills/broken"));
    const { skills } = w.load();
    expect(skills.map((s) => s.name).sort()).toEqual(["file", "linked"]);
    expect(skills.find((s) => s.name === "linked")!.filePath).toBe(join(w.agentDir, "skills/linked/SKILL.md"));
  });

  test("--no-skills keeps only CLI skills", () => {
    const w = world();
    w.write(w.agentDir, { "skills/u/SKILL.md": md("u") });
    w.write(w.root, { "cli/c/SKILL.md": md("c") });
    const { skills } = w.load({ includeDiscovered: false, cliPaths: [join(w.root, "cli")] });
    expect(skills.map((s) => s.name)).toEqual(["c"]);
    expect(skills[0]!.sourceInfo).toEqual({
      path: join(w.root, "cli/c/SKILL.md"),
      source: "local",
      scope: "temporary",
      origin: "top-level",
      baseDir: join(w.root, "cli/c"),
    });
  });
});

describe("precedence and collisions", () => {
  test("project beats user beats CLI; every loser is reported with both paths", () => {
    const w = world();
    w.write(w.project, { "skills/dup/SKILL.md": md("dup", "project one") });
    w.write(w.agentDir, { "skills/dup/SKILL.md": md("dup", "user one") });
    w.write(w.root, { "cli/dup/SKILL.md": md("dup", "cli one") });
    const { skills, diagnostics } = w.load({ cliPaths: [join(w.root, "cli")] });
    expect(skills.map((s) => s.description)).toEqual(["project one"]);
    const collisions = diagnostics.filter((d) => d.type === "collision");
    expect(collisions.map((d) => d.collision)).toEqual([
      { resourceType: "skill", name: "dup", winnerPath: join(w.project, "skills/dup/SKILL.md"), loserPath: join(w.agentDir, "skills/dup/SKILL.md") },
      { resourceType: "skill", name: "dup", winnerPath: join(w.project, "skills/dup/SKILL.md"), loserPath: join(w.root, "cli/dup/SKILL.md") },
    ]);
    expect(collisions[0]!.message).toContain(join(w.project, "skills/dup/SKILL.md"));
    expect(collisions[0]!.path).toBe(join(w.agentDir, "skills/dup/SKILL.md"));
  });

  test(".agents/skills of the project and ~/.agents/skills are found, in their scopes", () => {
    const w = world();
    w.write(w.cwd, { ".agents/skills/p/SKILL.md": md("p") });
    w.write(w.home, { ".agents/skills/h/SKILL.md": md("h") });
    const { skills } = w.load();
    expect(skills.map((s) => [s.name, s.sourceInfo.scope, s.sourceInfo.source])).toEqual([
      ["p", "project", "auto"],
      ["h", "user", "auto"],
    ]);
  });

  test("an untrusted project's skills are not loaded", () => {
    const w = world();
    w.write(w.project, { "skills/p/SKILL.md": md("p") });
    w.write(w.cwd, { ".agents/skills/q/SKILL.md": md("q") });
    w.write(w.agentDir, { "skills/u/SKILL.md": md("u") });
    expect(w.load({ trusted: false, projectEntries: ["skills"] }).skills.map((s) => s.name)).toEqual(["u"]);
  });
});

describe("frontmatter and validation", () => {
  const loadOne = (text: string, dir = "my-skill") => {
    const w = world();
    w.write(w.agentDir, { [`skills/${dir}/SKILL.md`]: text });
    const result = w.load();
    return { ...result, file: join(w.agentDir, `skills/${dir}/SKILL.md`), messages: result.diagnostics.map((d) => d.message) };
  };

  test("a valid skill loads with no diagnostics; CRLF is fine", () => {
    const { skills, diagnostics, file } = loadOne("---\r\nname: my-skill\r\ndescription: Does things\r\n---\r\nBody\r\n");
    expect(diagnostics).toEqual([]);
    expect(skills).toEqual([
      {
        name: "my-skill",
        description: "Does things",
        filePath: file,
        baseDir: dirname(file),
        disableModelInvocation: false,
        sourceInfo: { path: file, source: "auto", scope: "user", origin: "top-level", baseDir: dirname(dirname(dirname(file))) },
      },
    ]);
  });

  test("the name falls back to the directory name", () => {
    expect(loadOne("---\ndescription: d\n---\n").skills[0]!.name).toBe("my-skill");
  });

  test("a missing or blank description keeps the skill out, with a diagnostic", () => {
    for (const text of ["---\nname: my-skill\n---\nbody", "---\nname: my-skill\ndescription: '  '\n---\n", "no frontmatter at all"]) {
      const { skills, diagnostics, file } = loadOne(text);
      expect(skills).toEqual([]);
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]!.type).toBe("warning");
      expect(diagnostics[0]!.path).toBe(file);
      expect(diagnostics[0]!.message).toContain("description");
    }
  });

  test("naming problems are warnings and the skill still loads", () => {
    const cases: [string, string, RegExp][] = [
      ["other-name", "my-skill", /differs from its directory/],
      ["a".repeat(65), "a".repeat(65), /65 characters.*64/],
      ["My_Skill", "My_Skill", /lowercase/],
      ["-lead", "-lead", /begin or end with a hyphen/],
      ["trail-", "trail-", /begin or end with a hyphen/],
      ["two--dashes", "two--dashes", /two hyphens/],
    ];
    for (const [name, dir, pattern] of cases) {
      const { skills, messages } = loadOne(md(name), dir);
      expect(skills.map((s) => s.name)).toEqual([name]);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(pattern);
    }
  });

  test("a description over 1024 characters is a warning", () => {
    const { skills, messages } = loadOne(md("my-skill", "x".repeat(1025)));
    expect(skills).toHaveLength(1);
    expect(messages).toEqual([expect.stringMatching(/1025 characters.*1024/)]);
  });

  test("invalid YAML is reported with the file and the parser's error, and the skill is not loaded", () => {
    const { skills, diagnostics, file } = loadOne("---\nname: my-skill\ndescription: [unclosed\n---\n");
    expect(skills).toEqual([]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.path).toBe(file);
    expect(diagnostics[0]!.message).toContain(file);
    expect(diagnostics[0]!.message).toMatch(/YAML/);
  });

  test("a non-text description is reported and the skill is not loaded", () => {
    const { skills, messages } = loadOne("---\nname: my-skill\ndescription: 42\n---\n");
    expect(skills).toEqual([]);
    expect(messages[0]).toContain('"description"');
  });

  test("disable-model-invocation: true marks the skill (only the boolean true counts)", () => {
    expect(loadOne(md("my-skill", "d", "disable-model-invocation: true\n")).skills[0]!.disableModelInvocation).toBe(true);
    expect(loadOne(md("my-skill", "d", "disable-model-invocation: 'true'\n")).skills[0]!.disableModelInvocation).toBe(false);
  });

  test("root-level skills are named after the skills directory unless they say otherwise (and then warn)", () => {
    const w = world();
    w.write(w.agentDir, { "skills/loose.md": md("loose") });
    const { skills, diagnostics } = w.load();
    expect(skills.map((s) => s.name)).toEqual(["loose"]);
    expect(diagnostics.map((d) => d.message)).toEqual([`${join(w.agentDir, "skills/loose.md")}: name "loose" differs from its directory name "skills"`]);
  });
});

function fakeSkill(over: Partial<Skill> = {}): Skill {
  return {
    name: "s",
    description: "d",
    filePath: "/x/s/SKILL.md",
    baseDir: "/x/s",
    disableModelInvocation: false,
    sourceInfo: { path: "/x/s/SKILL.md", source: "auto", scope: "user", origin: "top-level" },
    ...over,
  };
}

describe("prompt block", () => {
  test("leading blank line, three instruction lines, an empty line, then the XML list", () => {
    const block = skillsPromptBlock([fakeSkill({ name: "one", description: "First", filePath: "/a/one/SKILL.md" })]);
    const lines = block.split("\n");
    expect(block.startsWith("\n\n")).toBe(true);
    expect(lines.slice(2, 5).every((l) => l.length > 0)).toBe(true);
    expect(lines.slice(5)).toEqual([
      "",
      "<available_skills>",
      "  <skill>",
      "    <name>one</name>",
      "    <description>First</description>",
      "    <location>/a/one/SKILL.md</location>",
      "  </skill>",
      "</available_skills>",
    ]);
  });

  test("values are XML-escaped and hidden skills are left out", () => {
    const block = skillsPromptBlock([
      fakeSkill({ name: "a&b", description: `<tag> "q" 'a'`, filePath: "/p&q/SKILL.md" }),
      fakeSkill({ name: "hidden", disableModelInvocation: true }),
    ]);
    expect(block).toContain("    <name>a&amp;b</name>\n    <description>&lt;tag&gt; &quot;q&quot; &apos;a&apos;</description>\n    <location>/p&amp;q/SKILL.md</location>");
    expect(block).not.toContain("hidden");
  });

  test("no visible skills → empty string", () => {
    expect(skillsPromptBlock([])).toBe("");
    expect(skillsPromptBlock([fakeSkill({ disableModelInvocation: true })])).toBe("");
  });
});

describe("/skill: expansion", () => {
  function withSkill() {
    const w = world();
    w.write(w.agentDir, { "skills/fmt/SKILL.md": "---\r\nname: fmt\r\ndescription: Formats\r\n---\r\n\r\nRun the formatter.\r\nThen check.\r\n\r\n" });
    const { skills } = w.load();
    return { w, skills, file: join(w.agentDir, "skills/fmt/SKILL.md"), dir: join(w.agentDir, "skills/fmt") };
  }

  test("without arguments: the skill element with the trimmed body", () => {
    const { skills, file, dir } = withSkill();
    expect(expandSkillCommand("/skill:fmt", skills)).toEqual({
      text: `<skill name="fmt" location="${file}">\nReferences are relative to ${dir}.\n\nRun the formatter.\nThen check.\n</skill>`,
      skill: skills[0]!,
    });
  });

  test("with arguments: appended after a blank line, trimmed; blank arguments add nothing", () => {
    const { skills } = withSkill();
    expect(expandSkillCommand("/skill:fmt   src/a.ts  now ", skills).text).toEndWith("</skill>\n\nsrc/a.ts  now");
    expect(expandSkillCommand("/skill:fmt    ", skills).text).toEndWith("</skill>");
  });

  test("unknown skills and other text pass through unchanged", () => {
    const { skills } = withSkill();
    expect(expandSkillCommand("/skill:nope arg", skills)).toEqual({ text: "/skill:nope arg" });
    expect(expandSkillCommand("please /skill:fmt", skills)).toEqual({ text: "please /skill:fmt" });
    expect(expandSkillCommand("/skill:fmt\nmore", skills)).toEqual({ text: "/skill:fmt\nmore" });
  });

  test("the body is read at expansion time, so edits show up without reloading", () => {
    const { skills, file } = withSkill();
    writeFileSync(file, "---\nname: fmt\ndescription: Formats\n---\nNew body");
    expect(expandSkillCommand("/skill:fmt", skills).text).toContain("\n\nNew body\n</skill>");
  });

  test("a read error leaves the text unchanged and reports the error", () => {
    const { skills, file } = withSkill();
    rmSync(file);
    const result = expandSkillCommand("/skill:fmt go", skills);
    expect(result.text).toBe("/skill:fmt go");
    expect(result.error).toContain("ENOENT");
  });

  test("an unreadable file is an error too (permissions apply, as root too)", async () => {
    const { skills, file } = withSkill();
    chmodSync(file, 0o000);
    const result = (await evalWithPermissions(
      (src) => `
        import { expandSkillCommand } from ${src("resources/skills.ts")};
        console.log(JSON.stringify(expandSkillCommand("/skill:fmt", ${JSON.stringify(skills)})));`,
    )) as { error?: string; text?: string };
    // The text goes on as typed, and the error says why the skill did not expand.
    expect(result.text).toBe("/skill:fmt");
    expect(result.error).toContain("EACCES");
    expect(result.error).toContain(file);
  });
});
