import { describe, expect, test } from "bun:test";
import type { ScopeResourceFile } from "../../src/resources/resource-paths.ts";
import { packageFilterKeeps } from "../../src/resources/resource-patterns.ts";
import { packageFilterFor, patternPath, scopeListFor, scopeListKeeps, withFilters, type ResourceList } from "../../src/resources/resource-toggles.ts";

const root = "/pkgs/demo";
const prompts = ["a", "b", "wip"].map((n) => `${root}/prompts/${n}.md`);
const [a, b, wip] = prompts as [string, string, string];
const skill = `${root}/skills/hello/SKILL.md`;

const filterFor = (current: ResourceList, ...chosen: string[]) => packageFilterFor(prompts, current, new Set(chosen), root);

describe("a package entry's filter of one kind", () => {
  test("every file on: the filter is dropped", () => {
    expect(filterFor(["-prompts/b.md"], a, b, wip)).toBeUndefined();
    expect(filterFor([], a, b, wip)).toBeUndefined();
  });

  test("no file on: []", () => {
    expect(filterFor(undefined)).toEqual([]);
    expect(filterFor(["prompts/a.md"])).toEqual([]);
  });

  test("some on: exact -path for what goes off, relative to the package root", () => {
    expect(filterFor(undefined, a, wip)).toEqual(["-prompts/b.md"]);
    // From "none", the others are turned off one by one: a non-empty list is read as patterns.
    expect(filterFor([], a)).toEqual(["-prompts/b.md", "-prompts/wip.md"]);
  });

  test("what the person wrote stays where it still holds; +path turns on what it leaves off", () => {
    expect(filterFor(["!prompts/wip.md"], a, b, wip)).toBeUndefined();
    expect(filterFor(["!prompts/wip.md"], a, wip)).toEqual(["!prompts/wip.md", "-prompts/b.md", "+prompts/wip.md"]);
    expect(filterFor(["prompts/a.md"], a, b)).toEqual(["prompts/a.md", "+prompts/b.md"]);
    expect(filterFor(["-prompts/wip.md", "+prompts/b.md"], b)).toEqual(["-prompts/wip.md", "+prompts/b.md", "-prompts/a.md"]);
  });

  test("a +path or -path the choice contradicts goes, instead of a second entry fighting it", () => {
    expect(filterFor(["-prompts/a.md"], a, wip)).toEqual(["-prompts/b.md"]);
    expect(filterFor(["prompts/a.md", "+prompts/b.md"], a)).toEqual(["prompts/a.md"]);
    expect(filterFor(["prompts/wip.md", "-prompts/a.md"], a, wip)).toEqual(["prompts/wip.md", "+prompts/a.md"]);
    // A leading ./ names the same file.
    expect(filterFor(["-./prompts/a.md"], a, b)).toEqual(["-prompts/wip.md"]);
  });

  test("a filter that already gives the choice is returned as it is", () => {
    const current = ["prompts/*.md", "!prompts/wip.md"];
    expect(filterFor(current, a, b)).toBe(current);
    expect(filterFor(undefined, a, b, wip)).toBeUndefined();
  });

  test("a skill is named by its SKILL.md; an entry naming its folder counts as naming it", () => {
    const files = [skill, `${root}/skills/other/SKILL.md`];
    expect(packageFilterFor(files, undefined, new Set([files[1]!]), root)).toEqual(["-skills/hello/SKILL.md"]);
    expect(packageFilterFor(files, ["-skills/hello"], new Set(files), root)).toBeUndefined();
    expect(packageFilterFor(files, ["-skills/hello", "!skills/other/**"], new Set([skill]), root)).toEqual(["!skills/other/**"]);
  });

  test("whatever was written and whatever is chosen, the new filter loads exactly the choice", () => {
    const currents: ResourceList[] = [undefined, [], ["prompts/a.md"], ["!prompts/*.md"], ["-prompts/a.md", "+prompts/wip.md"], ["prompts/w*", "+prompts/b.md"]];
    const subsets = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => prompts.filter((_, i) => bits & (1 << i)));
    for (const current of currents) {
      for (const chosen of subsets) {
        const next = packageFilterFor(prompts, current, new Set(chosen), root);
        expect([...packageFilterKeeps(prompts, next, root)].sort()).toEqual([...chosen].sort());
      }
    }
  });
});

describe("a package entry with new filters", () => {
  test("a plain source gets the object form with the filters set", () => {
    expect(withFilters("npm:demo", { prompts: ["-prompts/b.md"] })).toEqual({ source: "npm:demo", prompts: ["-prompts/b.md"] });
    expect(withFilters("npm:demo", { skills: [] })).toEqual({ source: "npm:demo", skills: [] });
  });

  test("with every filter dropped and no other field, it is the source string again", () => {
    expect(withFilters({ source: "npm:demo", prompts: ["-prompts/b.md"] }, { prompts: undefined })).toBe("npm:demo");
    expect(withFilters({ source: "npm:demo", prompts: ["-x"], skills: [] }, { prompts: undefined })).toEqual({ source: "npm:demo", skills: [] });
  });

  test("other fields stay, in their order: autoload, fields pig does not know, kinds not changed", () => {
    const entry = { note: "mine", source: "git:host/x@v2", autoload: false, themes: ["!themes/dark.json"], prompts: ["-a"] };
    const next = withFilters(entry, { prompts: undefined, extensions: [] });
    expect(next).toEqual({ note: "mine", source: "git:host/x@v2", autoload: false, themes: ["!themes/dark.json"], extensions: [] });
    expect(Object.keys(next)).toEqual(["note", "source", "autoload", "themes", "extensions"]);
    expect(withFilters({ source: "npm:demo", autoload: false, prompts: ["-a"] }, { prompts: undefined })).toEqual({ source: "npm:demo", autoload: false });
    expect(entry.prompts).toEqual(["-a"]);
  });
});

describe("a settings file's own resource list", () => {
  const base = "/home/u/.pig/agent";
  const listed: ScopeResourceFile = { path: "/elsewhere/ext.ts", listed: true };
  const auto: ScopeResourceFile = { path: `${base}/extensions/auto.ts`, listed: false };
  const resources = [listed, auto];
  const listFor = (current: ResourceList, ...chosen: string[]) => scopeListFor(resources, current, new Set(chosen), base);

  test("its paths always stay; a file outside the settings folder is named by its absolute path", () => {
    expect(listFor(["/elsewhere/ext.ts"], auto.path)).toEqual(["/elsewhere/ext.ts", "-/elsewhere/ext.ts"]);
    expect(listFor(["/elsewhere/ext.ts"], listed.path)).toEqual(["/elsewhere/ext.ts", "-extensions/auto.ts"]);
    expect(listFor(["/elsewhere/ext.ts", "-extensions/auto.ts"], listed.path, auto.path)).toEqual(["/elsewhere/ext.ts"]);
  });

  test("a folder's file is turned back on past a !glob with +path; an unchanged list is returned as it is", () => {
    const current = ["/elsewhere/ext.ts", "!extensions/*"];
    expect(listFor(current, listed.path, auto.path)).toEqual([...current, "+extensions/auto.ts"]);
    expect(listFor(current, auto.path)).toEqual(["/elsewhere/ext.ts", "!extensions/*", "-/elsewhere/ext.ts", "+extensions/auto.ts"]);
    expect(listFor(current, listed.path)).toBe(current);
  });

  test("the new list loads exactly the choice", () => {
    for (const current of [undefined, ["/elsewhere/ext.ts"], ["/elsewhere/ext.ts", "!**/*.ts"], ["-extensions/auto.ts"]] as ResourceList[]) {
      const mine = current?.includes("/elsewhere/ext.ts") ? resources : [auto];
      for (const chosen of [[], [auto.path], mine.map((r) => r.path)]) {
        const next = scopeListFor(mine, current, new Set(chosen), base);
        expect([...scopeListKeeps(mine, next ?? [], base)].sort()).toEqual([...chosen].sort());
      }
    }
  });
});

test("pattern paths are relative with / separators inside the base, absolute outside it", () => {
  expect(patternPath(`${root}/prompts/a.md`, root)).toBe("prompts/a.md");
  expect(patternPath("/pkgs/other/a.md", root)).toBe("/pkgs/other/a.md");
  expect(patternPath("/pkgs/demo..x/a.md", root)).toBe("/pkgs/demo..x/a.md");
});
