import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverExtensions } from "../../src/extensions/discovery.ts";
import { readManifest } from "../../src/extensions/manifest.ts";

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
      `Extension path does not exist: ${join(root, "nope.ts")}`,
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
