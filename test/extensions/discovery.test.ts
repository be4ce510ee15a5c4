import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverExtensions, type DiscoveryOptions } from "../../src/extensions/discovery.ts";
import { readManifest } from "../../src/extensions/manifest.ts";
import { loadResources } from "../../src/resources/load-resources.ts";

let root: string;
let cwd: string;
let agentDir: string;

function write(path: string, text = "export default () => {};\n"): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pig-disc-"));
  cwd = join(root, "project");
  agentDir = join(root, "agent");
  mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("discoverExtensions", () => {
  test("loads -e, project settings, project dir, user settings, user dir, in that order, each path once", () => {
    const cli = write(join(root, "cli.ts"));
    const projSetting = write(join(root, "ps.js"));
    const proj = write(join(cwd, ".pig/extensions/p.ts"));
    const userSetting = write(join(root, "us.mjs"));
    const user = write(join(agentDir, "extensions/u.py"), "print()\n");
    const userPkg = write(join(agentDir, "extensions/pkg/index.ts"));
    const r = discoverExtensions({
      cwd,
      agentDir,
      projectTrusted: true,
      cliPaths: [cli, cli],
      projectSettingsPaths: [projSetting],
      userSettingsPaths: [userSetting, user],
    });
    expect(r.errors).toEqual([]);
    expect(r.sources.map((s) => s.id)).toEqual([cli, projSetting, proj, userSetting, user, userPkg]);
    expect(r.sources.map((s) => s.runtime)).toEqual(["typescript", "typescript", "typescript", "typescript", "command", "typescript"]);
    expect(r.sources[4]!.command).toEqual(["python3", user]);
    expect(r.sources[5]!.name).toBe("pkg");
  });

  test("an untrusted project's extensions do not load; --no-extensions keeps only -e", () => {
    const cli = write(join(root, "cli.ts"));
    write(join(cwd, ".pig/extensions/p.ts"));
    write(join(agentDir, "extensions/u.ts"));
    expect(discoverExtensions({ cwd, agentDir, projectTrusted: false }).sources.map((s) => s.origin)).toEqual(["user"]);
    expect(discoverExtensions({ cwd, agentDir, projectTrusted: true, cliPaths: [cli], noExtensions: true }).sources.map((s) => s.id)).toEqual([cli]);
  });

  test("reports missing paths and bad manifests in upstream's words", () => {
    const bad = write(join(root, "bad/pig-extension.json"), JSON.stringify({ name: "bad", command: [] }));
    const r = discoverExtensions({ cwd, agentDir, projectTrusted: false, cliPaths: [join(root, "nope.ts"), join(root, "bad")] });
    expect(r.errors).toEqual([
      `Extension path does not exist: ${join(root, "nope.ts")} (-e ${join(root, "nope.ts")})`,
      `Failed to load extension "${bad}": ${bad}: command: must name a program`,
    ]);
  });

  test("a manifest directory runs its command with pre-declared tools and its activation", () => {
    const dir = join(agentDir, "extensions/guard");
    const file = write(
      join(dir, "pig-extension.json"),
      JSON.stringify({
        name: "guard",
        protocol: "pig-ext/1",
        command: ["./bin/guard", "--serve"],
        env: ["GITHUB_TOKEN"],
        activation: ["onTool:git_status"],
        tools: [{ name: "git_status", description: "status", parameters: { type: "object" } }],
      }),
    );
    const [s] = discoverExtensions({ cwd, agentDir, projectTrusted: false }).sources;
    expect(s).toMatchObject({
      id: file,
      runtime: "command",
      command: [join(dir, "bin/guard"), "--serve"],
      env: ["GITHUB_TOKEN"],
      activation: ["onTool:git_status"],
      name: "guard",
    });
    expect(s!.tools.map((t) => t.name)).toEqual(["git_status"]);
  });
});

/** The ids discovery loads (errors must be empty), with trust on unless told. */
function ids(options: Partial<DiscoveryOptions>): string[] {
  const r = discoverExtensions({ cwd, agentDir, projectTrusted: true, ...options });
  expect(r.errors).toEqual([]);
  return r.sources.map((s) => s.id);
}

describe("settings patterns", () => {
  test("a plain glob keeps only the matching extensions of the array's paths, not the folder's", () => {
    const a1 = write(join(agentDir, "lib/a1.ts"));
    write(join(agentDir, "lib/b.ts"));
    const auto = write(join(agentDir, "extensions/c.ts"));
    write(join(agentDir, "lib/a22.ts"));
    expect(ids({ userSettingsPaths: ["lib", "a?.ts"] })).toEqual([a1, auto]);
    expect(ids({ userSettingsPaths: ["lib", "lib/b*"] })).toEqual([join(agentDir, "lib/b.ts"), auto]);
  });

  test("!glob drops matches from the array's paths and from the scope's extensions folder", () => {
    const a = write(join(agentDir, "lib/a.ts"));
    write(join(agentDir, "lib/b1.ts"));
    write(join(agentDir, "extensions/b2.ts"));
    const c = write(join(agentDir, "extensions/c.ts"));
    expect(ids({ userSettingsPaths: ["lib", "!b*"] })).toEqual([a, c]);
  });

  test("+path brings back an excluded file, matched exactly against the path relative to the settings dir", () => {
    const keep = write(join(agentDir, "extensions/keep.ts"));
    write(join(agentDir, "extensions/drop.ts"));
    write(join(agentDir, "extensions/keep-too.ts"));
    expect(ids({ userSettingsPaths: ["!*.ts", "+extensions/keep.ts"] })).toEqual([keep]);
    expect(ids({ userSettingsPaths: ["!*.ts", "+./extensions/keep.ts"] })).toEqual([keep]);
  });

  test("-path removes a file, even one a +path names", () => {
    write(join(agentDir, "lib/a.ts"));
    const b = write(join(agentDir, "lib/b.ts"));
    const auto = write(join(agentDir, "extensions/u.ts"));
    expect(ids({ userSettingsPaths: ["lib", "-lib/a.ts"] })).toEqual([b, auto]);
    expect(ids({ userSettingsPaths: ["+extensions/u.ts", "-extensions/u.ts"] })).toEqual([]);
    // A -path that is relative to nothing on disk matches nothing and removes nothing.
    expect(ids({ userSettingsPaths: ["-u.ts"] })).toEqual([auto]);
  });

  test("project entries and patterns are relative to <cwd>/.pig and filter the project folder", () => {
    const tool = write(join(cwd, "tools/t.ts"));
    write(join(cwd, ".pig/extensions/off.ts"));
    const on = write(join(cwd, ".pig/extensions/on.ts"));
    const r = discoverExtensions({ cwd, agentDir, projectTrusted: true, projectSettingsPaths: ["../tools", "!extensions/off.ts"] });
    expect(r.errors).toEqual([]);
    expect(r.sources.map((s) => [s.id, s.origin])).toEqual([
      [tool, "project-settings"],
      [on, "project"],
    ]);
  });

  test("a file disabled where it is first found stays off in later scopes; -e loads it regardless", () => {
    const shared = write(join(agentDir, "extensions/shared.ts"));
    // The project lists the user's file and excludes it: the user's folder no longer loads it.
    expect(ids({ projectSettingsPaths: [shared, "!shared.ts"] })).toEqual([]);
    expect(ids({ userSettingsPaths: ["!*"], cliPaths: [shared] })).toEqual([shared]);
  });

  test("a missing path and an empty pattern are errors naming the settings file and the entry", () => {
    const ok = write(join(agentDir, "extensions/ok.ts"));
    const r = discoverExtensions({ cwd, agentDir, projectTrusted: true, projectSettingsPaths: ["gone.ts"], userSettingsPaths: ["!"] });
    expect(r.errors).toEqual([
      `Extension path does not exist: ${join(cwd, ".pig/gone.ts")} (in "extensions" of ${join(cwd, ".pig/settings.json")}: "gone.ts")`,
      `Extension pattern "!" names nothing (in "extensions" of ${join(agentDir, "settings.json")})`,
    ]);
    expect(r.sources.map((s) => s.id)).toEqual([ok]);
  });
});

describe("-e directories", () => {
  test("a package.json pi manifest lists the extensions: paths and globs, filtered by its !/+/- entries", () => {
    const pkg = join(root, "pkg");
    write(join(pkg, "index.ts"));
    const main = write(join(pkg, "src/main.ts"));
    const a = write(join(pkg, "lib/a.ts"));
    write(join(pkg, "lib/skip.ts"));
    write(join(pkg, "package.json"), JSON.stringify({ pi: { extensions: ["./src/main.ts", "lib/*.ts", "!lib/skip.ts"] } }));
    expect(ids({ cliPaths: [pkg] })).toEqual([main, a]);
  });

  test("a manifest without extensions, or a conventional folder without extensions/, runs nothing", () => {
    const skillsOnly = join(root, "skills-only");
    write(join(skillsOnly, "index.ts"));
    write(join(skillsOnly, "package.json"), JSON.stringify({ name: "x", pi: { skills: ["./skills"] } }));
    // upstream's subagent/ example: an index.ts beside a prompts/ folder
    const subagent = join(root, "subagent");
    write(join(subagent, "index.ts"));
    write(join(subagent, "prompts/implement.md"), "Implement $@\n");
    expect(ids({ cliPaths: [skillsOnly, subagent] })).toEqual([]);
  });

  test("a package's extensions/ folder is read like an extensions directory", () => {
    const pkg = join(root, "pkg");
    write(join(pkg, "index.ts"));
    const one = write(join(pkg, "extensions/one.ts"));
    const sub = write(join(pkg, "extensions/sub/index.ts"));
    write(join(pkg, "extensions/notes.md"), "no\n");
    write(join(pkg, "themes/t.json"), "{}");
    expect(ids({ cliPaths: [pkg] })).toEqual([one, sub]);
  });

  test("a directory that is no package is one extension: its index (not package.json main), else (pig) each file in it", () => {
    const listed = join(root, "listed");
    write(join(listed, "entry.ts"));
    write(join(listed, "package.json"), JSON.stringify({ name: "listed", main: "entry.ts" }));
    write(join(listed, "index.ts"));
    const indexed = join(root, "indexed");
    const index = write(join(indexed, "index.js"));
    const loose = join(root, "loose");
    const a = write(join(loose, "a.ts"));
    const b = write(join(loose, "b.py"), "print()\n");
    const r = discoverExtensions({ cwd, agentDir, projectTrusted: false, cliPaths: [listed, indexed, loose] });
    expect(r.errors).toEqual([]);
    expect(r.sources.map((s) => s.id)).toEqual([join(listed, "index.ts"), index, a, b]);
  });

  test("pig's own manifest makes a directory one extension even with package folders beside it", () => {
    const dir = join(root, "guard");
    const manifest = write(join(dir, "pig-extension.json"), JSON.stringify({ name: "guard", command: ["./guard"] }));
    write(join(dir, "extensions/other.ts"));
    expect(ids({ cliPaths: [dir] })).toEqual([manifest]);
  });

  test("an -e directory with nothing to run is an error naming it", () => {
    const empty = join(root, "empty");
    mkdirSync(empty);
    const r = discoverExtensions({ cwd, agentDir, projectTrusted: false, cliPaths: [empty] });
    expect(r.errors).toEqual([`Failed to load extension "${empty}": no extension in this directory (-e ${empty})`]);
  });

  test("a settings directory is an extensions directory, not a package", () => {
    const dir = join(root, "subagent");
    const index = write(join(dir, "index.ts"));
    write(join(dir, "prompts/implement.md"), "x\n");
    expect(ids({ userSettingsPaths: [dir] })).toEqual([index]);
  });

  test("a package's skills, prompts and themes load with the run's resources, also under --no-skills and friends", () => {
    const manifestPkg = join(root, "mpkg");
    write(join(manifestPkg, "package.json"), JSON.stringify({ pi: { skills: ["./s"], prompts: ["p/*.md", "!p/hidden.md"] } }));
    write(join(manifestPkg, "s/lint/SKILL.md"), "---\nname: lint\ndescription: Lints\n---\nLint it.\n");
    write(join(manifestPkg, "p/review.md"), "Review $@\n");
    write(join(manifestPkg, "p/hidden.md"), "no\n");
    const folderPkg = join(root, "fpkg");
    write(join(folderPkg, "prompts/implement.md"), "Implement $@\n");
    const theme = write(join(folderPkg, "themes/night.json"), "{}");
    const loaded = loadResources({
      cwd,
      agentDir,
      home: root,
      trusted: false,
      userSettings: {},
      projectSettings: {},
      extensionPaths: [manifestPkg, folderPkg, join(root, "not-there")],
      flags: { noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true },
    });
    expect(loaded.skills.map((s) => s.name)).toEqual(["lint"]);
    expect(loaded.templates.map((t) => t.name)).toEqual(["review", "implement"]);
    expect(loaded.templates[0]!.sourceInfo).toMatchObject({ source: manifestPkg, scope: "temporary", origin: "package" });
    expect(loaded.themes).toEqual([theme]);
  });
});

describe("readManifest", () => {
  test("names the file and the field of a mistake", () => {
    const file = write(join(root, "m/pig-extension.json"), JSON.stringify({ name: "x", command: ["a"], activation: ["sometimes"] }));
    expect(() => readManifest(file)).toThrow(`${file}: activation.0:`);
    const ts = write(join(root, "t/pig-extension.json"), JSON.stringify({ name: "x", runtime: "typescript" }));
    expect(() => readManifest(ts)).toThrow(`${ts}: main: required when runtime is "typescript"`);
    const proto = write(join(root, "p/pig-extension.json"), JSON.stringify({ name: "x", command: ["a"], protocol: "pig-ext/2" }));
    expect(() => readManifest(proto)).toThrow(`${proto}: protocol: must be "pig-ext/1"`);
  });
});
