import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { configChoices, hasOwnFiles } from "../../src/resources/config-choices.ts";
import { tempDir } from "../helpers/tmp.ts";

function world() {
  const root = tempDir("pig-config-choices-");
  const home = join(root, "home");
  const agentDir = join(home, ".pig", "agent");
  const cwd = join(root, "work");
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  };
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, home, agentDir, cwd, write, where: { agentDir, cwd, home } };
}

const skill = "---\nname: s\ndescription: d\n---\nbody\n";

test("each installed package with every file it provides, and what loads now under its entry's filters", () => {
  const w = world();
  const pkg = join(w.root, "pkg");
  w.write({
    [join(pkg, "package.json")]: JSON.stringify({ name: "p", pi: { prompts: ["prompts"], skills: ["skills"] } }),
    [join(pkg, "prompts", "a.md")]: "a",
    [join(pkg, "prompts", "b.md")]: "b",
    [join(pkg, "skills", "s", "SKILL.md")]: skill,
  });
  const choices = configChoices({ packages: ["npm:not-here", { source: pkg, prompts: ["-prompts/b.md"], skills: [] }] }, "user", w.where);
  expect(choices.problems).toEqual([expect.stringContaining("package npm:not-here")]);
  expect(choices.packages).toHaveLength(1);
  const [choice] = choices.packages;
  expect(choice!.pkg.index).toBe(1);
  expect(choice!.root).toBe(pkg);
  expect(choice!.files.prompts).toEqual([join(pkg, "prompts", "a.md"), join(pkg, "prompts", "b.md")]);
  expect([...choice!.enabled.prompts]).toEqual([join(pkg, "prompts", "a.md")]);
  expect(choice!.files.skills).toEqual([join(pkg, "skills", "s", "SKILL.md")]);
  expect([...choice!.enabled.skills]).toEqual([]);
});

test("a package that provides nothing is left out, saying so", () => {
  const w = world();
  const pkg = join(w.root, "empty");
  w.write({ [join(pkg, "package.json")]: JSON.stringify({ name: "e", pi: {} }) });
  const choices = configChoices({ packages: [pkg] }, "user", w.where);
  expect(choices.packages).toEqual([]);
  expect(choices.problems).toEqual([`package ${pkg} (${pkg}) provides no extensions, skills, prompt templates or themes`]);
});

test("the settings file's own resources: what its lists name and what its folders hold, with what loads now", () => {
  const w = world();
  const elsewhere = join(w.root, "mine", "x.md");
  w.write({
    [elsewhere]: "x",
    [join(w.agentDir, "prompts", "p.md")]: "p",
    [join(w.agentDir, "extensions", "e.ts")]: "export default () => {}",
    [join(w.home, ".agents", "skills", "k", "SKILL.md")]: skill,
  });
  const choices = configChoices({ prompts: [elsewhere, "-prompts/p.md"] }, "user", w.where);
  const { own } = choices;
  expect(hasOwnFiles(own)).toBe(true);
  expect(own.base).toBe(w.agentDir);
  expect(own.files.prompts).toEqual([
    { path: elsewhere, listed: true },
    { path: join(w.agentDir, "prompts", "p.md"), listed: false },
  ]);
  expect([...own.enabled.prompts]).toEqual([elsewhere]);
  expect(own.files.extensions).toEqual([{ path: join(w.agentDir, "extensions", "e.ts"), listed: false }]);
  expect(own.files.skills).toEqual([{ path: join(w.home, ".agents", "skills", "k", "SKILL.md"), listed: false }]);
  expect(own.lists.prompts).toEqual([elsewhere, "-prompts/p.md"]);
  expect(own.lists.skills).toBeUndefined();
});

test("the project's scope reads .pig/ and names its packages relative to it", () => {
  const w = world();
  const pkg = join(w.cwd, "vendor", "tools");
  w.write({
    [join(pkg, "prompts", "t.md")]: "t",
    [join(w.cwd, ".pig", "themes", "dark.json")]: "{}",
  });
  const choices = configChoices({ packages: ["../vendor/tools"] }, "project", w.where);
  expect(choices.problems).toEqual([]);
  expect(choices.packages.map((p) => [p.pkg.source.raw, p.root])).toEqual([["../vendor/tools", pkg]]);
  expect(choices.own.base).toBe(join(w.cwd, ".pig"));
  expect(choices.own.files.themes.map((f) => f.path)).toEqual([join(w.cwd, ".pig", "themes", "dark.json")]);
});

test("an autoload: false entry is left out of the checklists, saying where its patterns are", () => {
  const w = world();
  const pkg = join(w.root, "delta");
  w.write({ [join(pkg, "package.json")]: JSON.stringify({ name: "d", pi: { prompts: ["prompts"] } }), [join(pkg, "prompts", "a.md")]: "a" });
  const choices = configChoices({ packages: [{ source: pkg, autoload: false, prompts: ["+prompts/a.md"] }] }, "user", w.where);
  expect(choices.packages).toEqual([]);
  expect(choices.problems).toEqual([`package ${pkg} (${join(w.agentDir, "settings.json")}) has "autoload": false, so it loads only what its patterns name; edit them in that file`]);
});
