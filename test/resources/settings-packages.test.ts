import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deltaStates, installedPackages, settingsPackages } from "../../src/resources/settings-packages.ts";
import type { Settings } from "../../src/resources/settings.ts";

const root = mkdtempSync(join(tmpdir(), "pig-settings-packages-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder with two prompts, a skill and an extension; a fresh world per test. */
function world(name: string) {
  const dir = join(root, name);
  const pkg = join(dir, "tools");
  for (const [rel, text] of [
    ["prompts/a.md", "A"],
    ["prompts/b.md", "B"],
    ["skills/s1/SKILL.md", "---\nname: s1\ndescription: one\n---\n"],
    ["extensions/x.ts", "export default () => {};\n"],
  ] as const) {
    mkdirSync(join(pkg, rel, ".."), { recursive: true });
    writeFileSync(join(pkg, rel), text);
  }
  const where = { agentDir: join(dir, "agent"), cwd: join(dir, "project"), trusted: true };
  mkdirSync(where.agentDir, { recursive: true });
  mkdirSync(join(where.cwd, ".pig"), { recursive: true });
  const load = (user: Settings, project: Settings) => {
    const named = settingsPackages(user, project, where);
    const installed = installedPackages(named.packages, where);
    return { named, installed, problems: [...named.problems, ...installed.problems] };
  };
  return { pkg, where, load, rel: (files: readonly string[]) => files.map((f) => f.slice(pkg.length + 1)) };
}

describe("deltaStates", () => {
  const files = ["/p/prompts/a.md", "/p/prompts/b.md", "/p/prompts/c.md"];
  test("names only the files its patterns match; the last pattern naming a file wins", () => {
    const states = deltaStates(files, ["prompts/*.md", "-prompts/b.md", "!prompts/c.md"], "/p");
    expect([...states]).toEqual([
      ["/p/prompts/a.md", true],
      ["/p/prompts/b.md", false],
      ["/p/prompts/c.md", false],
    ]);
  });
  test("+ and - compare exactly; a glob does not stand in for them", () => {
    expect([...deltaStates(files, ["+prompts/a.md", "-prompts/*.md"], "/p")]).toEqual([["/p/prompts/a.md", true]]);
  });
  test("no patterns state nothing", () => {
    expect(deltaStates(files, [], "/p").size).toBe(0);
  });
});

describe("autoload: false", () => {
  test("alone, an entry loads only what its patterns turn on", () => {
    const w = world("alone");
    const { installed, problems } = w.load({ packages: [{ source: w.pkg, autoload: false, prompts: ["+prompts/a.md"] }] }, {});
    expect(problems).toEqual([]);
    expect(installed.packages).toHaveLength(1);
    const files = installed.packages[0]!.files;
    expect(w.rel(files.prompts)).toEqual(["prompts/a.md"]);
    expect(files.skills).toEqual([]);
    expect(files.extensions).toEqual([]);
  });

  test("a project delta over the user's entry turns one file off and the user's entry loads the rest", () => {
    const w = world("delta-off");
    const { named, installed, problems } = w.load({ packages: [w.pkg] }, { packages: [{ source: w.pkg, autoload: false, prompts: ["-prompts/a.md"] }] });
    expect(problems).toEqual([]);
    expect(named.packages.map((p) => [p.scope, p.delta])).toEqual([
      ["project", true],
      ["user", false],
    ]);
    const [delta, user] = installed.packages;
    expect(delta!.scope).toBe("project");
    expect(delta!.files.prompts).toEqual([]);
    expect(user!.scope).toBe("user");
    expect(w.rel(user!.files.prompts)).toEqual(["prompts/b.md"]);
    expect(w.rel(user!.files.skills)).toEqual(["skills/s1/SKILL.md"]);
    expect(w.rel(user!.files.extensions)).toEqual(["extensions/x.ts"]);
  });

  test("a project delta can turn on what the user's filter leaves off", () => {
    const w = world("delta-on");
    const { installed } = w.load({ packages: [{ source: w.pkg, prompts: [] }] }, { packages: [{ source: w.pkg, autoload: false, prompts: ["+prompts/b.md"] }] });
    const [delta, user] = installed.packages;
    expect(w.rel(delta!.files.prompts)).toEqual(["prompts/b.md"]);
    expect(user!.files.prompts).toEqual([]);
  });

  test("a project delta reads the user's installation: a relative user path and no project copy", () => {
    const w = world("delta-relative");
    const { installed, problems } = w.load({ packages: ["../tools"] }, { packages: [{ source: w.pkg, autoload: false, skills: ["-skills/s1"] }] });
    expect(problems).toEqual([]);
    expect(installed.packages.map((p) => p.root)).toEqual([w.pkg, w.pkg]);
    expect(installed.packages.flatMap((p) => p.files.skills)).toEqual([]);
    expect(w.rel(installed.packages[1]!.files.prompts)).toEqual(["prompts/a.md", "prompts/b.md"]);
  });

  test("without autoload: false the same package in both scopes loads once, as the project's", () => {
    const w = world("replace");
    const { installed } = w.load({ packages: [w.pkg] }, { packages: [{ source: w.pkg, prompts: ["prompts/a.md"] }] });
    expect(installed.packages).toHaveLength(1);
    expect(installed.packages[0]!.scope).toBe("project");
    expect(w.rel(installed.packages[0]!.files.prompts)).toEqual(["prompts/a.md"]);
  });

  test("in an untrusted project the delta is ignored and the user's entry loads everything", () => {
    const w = world("untrusted");
    const named = settingsPackages({ packages: [w.pkg] }, { packages: [{ source: w.pkg, autoload: false, prompts: ["-prompts/a.md"] }] }, { ...w.where, trusted: false });
    const installed = installedPackages(named.packages, w.where);
    expect(installed.packages.map((p) => p.scope)).toEqual(["user"]);
    expect(w.rel(installed.packages[0]!.files.prompts)).toEqual(["prompts/a.md", "prompts/b.md"]);
  });
});
