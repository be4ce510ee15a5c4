import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectThemeName, loadTheme, themeFileName, themeNames } from "../../src/modes/interactive/theme.ts";
import { loadResources } from "../../src/resources/load-resources.ts";
import { tempDir } from "../helpers/tmp.ts";

function themeFile(dir: string, file: string, content: unknown): string {
  const path = join(dir, file);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("loadTheme", () => {
  test("built-ins need no file; colour codes only with colour on", () => {
    expect(loadTheme("light", [], true).theme.name).toBe("light");
    expect(loadTheme(undefined, [], true).theme.fg("error", "x")).toBe("\x1b[38;2;204;102;102mx\x1b[39m");
    expect(loadTheme("dark", [], false).theme.fg("error", "x")).toBe("x");
  });

  test("a theme file is found by its name field; vars and 256-colour values resolve", () => {
    const dir = tempDir();
    const path = themeFile(dir, "file.json", { name: "ocean", vars: { sea: "#0000ff" }, colors: { accent: "sea", error: 196 } });
    expect(themeFileName(path)).toBe("ocean");
    const { theme, warnings } = loadTheme("ocean", [path], true);
    expect(warnings).toEqual([]);
    expect(theme.fg("accent", "a")).toBe("\x1b[38;2;0;0;255ma\x1b[39m");
    expect(theme.fg("error", "e")).toBe("\x1b[38;5;196me\x1b[39m");
    expect(theme.fg("muted", "m")).toBe("m");
  });

  test("the first file of a name wins", () => {
    const dir = tempDir();
    const first = themeFile(dir, "a.json", { name: "same", colors: { accent: "#010203" } });
    const second = themeFile(dir, "b.json", { name: "same", colors: { accent: "#ffffff" } });
    expect(loadTheme("same", [first, second], true).theme.fg("accent", "x")).toContain("38;2;1;2;3");
    expect(themeNames([first, second])).toEqual(["dark", "light", "same"]);
  });

  test("a file name still finds a theme whose name field differs", () => {
    const dir = tempDir();
    const path = themeFile(dir, "old-name.json", { name: "new-name", colors: { accent: "#010203" } });
    const { theme, warnings } = loadTheme("old-name", [path], true);
    expect(warnings).toEqual([]);
    expect(theme.name).toBe("new-name");
  });

  test("a broken file falls back to dark with a warning naming it; an unknown name is named too", () => {
    const dir = tempDir();
    const broken = themeFile(dir, "broken.json", { name: "broken", colors: "red" });
    const notJson = themeFile(dir, "torn.json", "{ nope");
    const a = loadTheme("broken", [broken], true);
    expect(a.theme.name).toBe("dark");
    expect(a.warnings).toEqual([`${broken}: "colors" (line 1, column 27) must be an object, not "red"; using the dark theme`]);
    const b = loadTheme("torn", [notJson], true);
    expect(b.warnings[0]).toStartWith(`${notJson}: not valid JSON: `);
    expect(b.warnings[0]).toContain("at line 1, column 3");
    expect(loadTheme("missing", [broken], true).warnings).toEqual(['Theme "missing" not found; using the dark theme']);
  });

  test("unknown keys and tokens are named with the closest known one; the theme still loads", () => {
    const dir = tempDir();
    const path = themeFile(dir, "typo.json", { name: "typo", colour: {}, colors: { acent: "#010203", error: "#040506" } });
    const { theme, warnings } = loadTheme("typo", [path], true);
    expect(theme.name).toBe("typo");
    expect(theme.fg("error", "x")).toContain("38;2;4;5;6");
    expect(warnings).toEqual([
      `${path}: unknown key "colour" at line 1, column 16 (did you mean "colors"?); ignored`,
      `${path}: unknown key "colors.acent" at line 1, column 38 (did you mean "colors.accent"?); ignored`,
    ]);
  });
});

describe("detectThemeName", () => {
  test("COLORFGBG with a light background picks light; anything else dark", () => {
    expect(detectThemeName({ COLORFGBG: "0;15" })).toBe("light");
    expect(detectThemeName({ COLORFGBG: "0;default;7" })).toBe("light");
    expect(detectThemeName({ COLORFGBG: "15;0" })).toBe("dark");
    expect(detectThemeName({})).toBe("dark");
  });
});

describe("theme files of a run", () => {
  function setup() {
    const agentDir = tempDir();
    const cwd = tempDir();
    const extra = tempDir();
    mkdirSync(join(agentDir, "themes"));
    mkdirSync(join(cwd, ".pig", "themes"), { recursive: true });
    themeFile(join(agentDir, "themes"), "user.json", { name: "user", colors: {} });
    themeFile(join(cwd, ".pig", "themes"), "project.json", { name: "project", colors: {} });
    const listed = themeFile(extra, "listed.json", { name: "listed", colors: {} });
    const cli = themeFile(extra, "cli.json", { name: "cli", colors: {} });
    return { agentDir, cwd, listed, cli };
  }
  const names = (paths: string[]) => paths.map((p) => themeFileName(p));

  test("project, user, settings entries and --theme, in precedence order", () => {
    const { agentDir, cwd, listed, cli } = setup();
    const resources = loadResources({
      cwd,
      agentDir,
      home: agentDir,
      trusted: true,
      userSettings: { themes: [listed] },
      projectSettings: {},
      flags: { themes: [cli] },
    });
    expect(names(resources.themes)).toEqual(["project", "listed", "user", "cli"]);
  });

  test("an untrusted project's themes are not used; --no-themes keeps only --theme", () => {
    const { agentDir, cwd, cli } = setup();
    const untrusted = loadResources({ cwd, agentDir, home: agentDir, trusted: false, userSettings: {}, projectSettings: {}, flags: {} });
    expect(names(untrusted.themes)).toEqual(["user"]);
    const only = loadResources({ cwd, agentDir, home: agentDir, trusted: true, userSettings: {}, projectSettings: {}, flags: { themes: [cli], noThemes: true } });
    expect(names(only.themes)).toEqual(["cli"]);
  });

  test("a --theme path that does not exist is reported", () => {
    const { agentDir, cwd } = setup();
    const missing = join(cwd, "nope.json");
    const resources = loadResources({ cwd, agentDir, home: agentDir, trusted: true, userSettings: {}, projectSettings: {}, flags: { themes: [missing] } });
    expect(resources.diagnostics.map((d) => d.message).join("\n")).toContain("nope.json");
  });
});
