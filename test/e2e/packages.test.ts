/**
 * Packages through the built binary: `pig install` of a local git repository (file://) and of a
 * local path, in the user's and the project's settings; what a run then loads from them (skills,
 * prompt templates, extensions, per-kind filters), the trust gate for a project's packages, a
 * package that is named but not installed, `pig list`, `pig update` and `pig remove`.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary, runPig } from "../helpers/binary.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import type { PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { git } from "../helpers/git-repo.ts";
import { tempDir } from "../helpers/tmp.ts";

const { world, track } = extensionWorlds();


/** A pi package in a git repository: a skill, two prompt templates and an extension with a command. */
function packageRepo(): string {
  const repo = tempDir("pig-pkg-src-");
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "demo-pkg", version: "1.0.0", keywords: ["pi-package"], pi: { skills: ["skills"], prompts: ["prompts"], extensions: ["extensions/demo.ts"] } }),
    "skills/hello/SKILL.md": "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n",
    "prompts/greet.md": "---\ndescription: Greet someone\n---\nGreet $1 warmly.\n",
    "prompts/wave.md": "---\ndescription: Wave\n---\nWave at $1.\n",
    "extensions/demo.ts": 'export default function (pi) {\n  pi.registerCommand("demo", { description: "From the demo package", handler: async (_a, ctx) => ctx.ui.notify("demo ran", "info") });\n}\n',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(repo, name, ".."), { recursive: true });
    writeFileSync(join(repo, name), text);
  }
  git(repo, "init", "--quiet", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "--quiet", "-m", "one");
  git(repo, "tag", "v1");
  return repo;
}

type Json = Record<string, any>;

async function commandsOf(w: PigWorld, args: string[] = []): Promise<{ names: string[]; commands: Json[]; stderr: string[] }> {
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args }));
  const listed = await client.request({ type: "get_commands" });
  const commands = (listed.data as { commands: Json[] }).commands ?? [];
  const names = commands.map((c) => `${c.source}:${c.name}`).sort();
  expect(await client.close()).toBe(0);
  return { names, commands, stderr: client.stderr };
}

const pig = (w: PigWorld, args: string[]) => runPig(args, { cwd: w.cwd, env: w.env });

test("install from a git repository: a run loads its skill, templates and extension; remove takes them away", async () => {
  const w = await world();
  const repo = packageRepo();
  const installed = pig(w, ["install", `file://${repo}`]);
  expect(installed.stderr).toContain(`pig: cloning file://${repo}`);
  expect(installed.code).toBe(0);
  expect(installed.stdout).toContain(`installed file://${repo}`);
  expect(JSON.parse(readFileSync(join(w.agentDir, "settings.json"), "utf8")).packages).toEqual([`file://${repo}`]);
  const checkout = join(w.agentDir, "git", "file", ...repo.slice(1).split("/"));
  expect(existsSync(join(checkout, "package.json"))).toBe(true);

  const listed = pig(w, ["list"]);
  expect(listed.stdout).toBe(`file://${repo}  user\n  ${checkout}\n`);

  const { names } = await commandsOf(w);
  expect(names).toEqual(expect.arrayContaining(["extension:demo", "prompt:greet", "prompt:wave", "skill:skill:hello"]));

  const removed = pig(w, ["remove", `file://${repo}`]);
  expect(removed.code).toBe(0);
  expect(existsSync(checkout)).toBe(false);
  expect(JSON.parse(readFileSync(join(w.agentDir, "settings.json"), "utf8")).packages).toEqual([]);
  const after = await commandsOf(w);
  expect(after.names.some((n) => n === "extension:demo" || n === "prompt:greet")).toBe(false);
});

test("settings filters choose a package's resources per kind, with the settings' pattern syntax", async () => {
  const w = await world();
  const repo = packageRepo();
  expect(pig(w, ["install", repo]).code).toBe(0);
  // A local path is recorded as it is found (absolute, in the user's settings).
  const settingsFile = join(w.agentDir, "settings.json");
  const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
  expect(settings.packages).toEqual([repo]);
  settings.packages = [{ source: repo, prompts: ["!prompts/wave.md"], extensions: [], skills: ["skills/hello"] }];
  writeFileSync(settingsFile, JSON.stringify(settings));
  const { names } = await commandsOf(w);
  expect(names).toContain("prompt:greet");
  expect(names).toContain("skill:skill:hello");
  expect(names).not.toContain("prompt:wave");
  expect(names).not.toContain("extension:demo");
});

test("a project entry with autoload: false changes only what it names of the user's package; the user's entry loads the rest", async () => {
  const w = await world();
  const repo = packageRepo();
  expect(pig(w, ["install", `file://${repo}`]).code).toBe(0);
  mkdirSync(join(w.cwd, ".pig"), { recursive: true });
  writeFileSync(join(w.cwd, ".pig", "settings.json"), JSON.stringify({ packages: [{ source: `file://${repo}`, autoload: false, prompts: ["-prompts/wave.md"] }] }));
  const { names, commands } = await commandsOf(w, ["--trust"]);
  expect(names).toEqual(expect.arrayContaining(["extension:demo", "prompt:greet", "skill:skill:hello"]));
  expect(names).not.toContain("prompt:wave");
  // Files the delta left alone come from the user's entry; nothing was installed for the project.
  expect(commands.find((c) => c.name === "greet")?.sourceInfo).toMatchObject({ source: `file://${repo}`, scope: "user", origin: "package" });
  expect(existsSync(join(w.cwd, ".pig", "git"))).toBe(false);
  // Untrusted, the project's entry does not count: the user's package loads whole.
  expect((await commandsOf(w, ["--no-trust"])).names).toContain("prompt:wave");
});

test("a project's packages (-l) load only in a trusted project; one named but not installed is said", async () => {
  const w = await world();
  const repo = packageRepo();
  const local = pig(w, ["install", `file://${repo}@v1`, "-l"]);
  expect(local.code).toBe(0);
  expect(JSON.parse(readFileSync(join(w.cwd, ".pig", "settings.json"), "utf8")).packages).toEqual([`file://${repo}@v1`]);
  expect(existsSync(join(w.cwd, ".pig", "git", "file", ...repo.slice(1).split("/"), "package.json"))).toBe(true);

  expect((await commandsOf(w, ["--no-trust"])).names).not.toContain("prompt:greet");
  expect((await commandsOf(w, ["--trust"])).names).toContain("prompt:greet");

  // Not yet trusted (no decision remembered): update and list leave the project's package out.
  const untrusted = pig(w, ["update", "--extensions"]);
  expect(untrusted.code).toBe(0);
  expect(untrusted.stdout).not.toContain(`file://${repo}@v1`);
  expect(untrusted.stderr).toContain("1 package(s) of the project's settings left out: the project is not trusted (--trust includes them)");
  expect(pig(w, ["list"]).stdout).toBe("No packages (pig install <source> adds one).\n");
  const updated = pig(w, ["update", "--extensions", "--trust"]);
  expect(updated.code).toBe(0);
  expect(updated.stdout).toContain(`file://${repo}@v1: pinned (skipped)`);

  // Named in the user's settings but never installed: the run says so, naming it, and goes on.
  writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ ...JSON.parse(readFileSync(join(w.agentDir, "settings.json"), "utf8")), packages: ["npm:not-installed-pkg"] }));
  // Asynchronously: the fake model answers from this process.
  const proc = Bun.spawn([pigBinary(), "--trust", "-p", "hi"], { cwd: w.cwd, env: w.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(0);
  expect(stdout.length).toBeGreaterThan(0);
  expect(stderr).toContain("package npm:not-installed-pkg");
  expect(stderr).toContain("is not installed: run pig install npm:not-installed-pkg");
});

test("install and remove say what is wrong: a bad source, a failed clone, a package not in the settings", async () => {
  const w = await world();
  const bad = pig(w, ["install", "npm:Not A Name"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('package source "npm:Not A Name": "Not A Name" is not an npm package name');
  const missing = pig(w, ["install", `file://${tempDir("pig-pkg-none-")}/nothing`]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/cloning file:\/\/.*failed \(git exit \d+\)/);
  expect(existsSync(join(w.agentDir, "settings.json")) ? JSON.parse(readFileSync(join(w.agentDir, "settings.json"), "utf8")).packages : undefined).toBeUndefined();
  const notThere = pig(w, ["remove", "npm:nothing-here"]);
  expect(notThere.code).toBe(1);
  expect(notThere.stderr).toContain("remove: npm:nothing-here is not in the user's settings (a project's package needs -l)");
  const usage = pig(w, ["install"]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("install: name a package source");
});

test("an untrusted project's packages are not changed without --trust, and its settings never choose the npm command", async () => {
  const w = await world();
  const repo = packageRepo();
  // A project whose settings name an npm command that leaves a mark when it runs.
  const mark = join(w.cwd, "npm-command-ran");
  const fakeNpm = join(w.cwd, "fake-npm.sh");
  writeFileSync(fakeNpm, `#!/bin/sh\ntouch ${mark}\nexit 1\n`, { mode: 0o755 });
  mkdirSync(join(w.cwd, ".pig"), { recursive: true });
  writeFileSync(join(w.cwd, ".pig", "settings.json"), JSON.stringify({ npmCommand: [fakeNpm] }));

  const refused = pig(w, ["install", repo, "-l"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("install -l:");
  expect(refused.stderr).toContain("is not a trusted project, so pig does not change its packages (pass --trust to trust it for this command)");
  expect(JSON.parse(readFileSync(join(w.cwd, ".pig", "settings.json"), "utf8")).packages).toBeUndefined();
  const removeRefused = pig(w, ["remove", repo, "-l"]);
  expect(removeRefused.code).toBe(1);
  expect(removeRefused.stderr).toContain("remove -l:");

  // A user install of an npm tarball runs npm, never the untrusted project's command.
  const packed = Bun.spawnSync(["npm", "pack", "--silent", "--pack-destination", w.cwd], { cwd: repo, stdout: "pipe", stderr: "pipe" });
  expect(packed.exitCode).toBe(0);
  const tarball = join(w.cwd, packed.stdout.toString().trim());
  const user = pig(w, ["install", tarball]);
  expect(user.code).toBe(0);
  expect(existsSync(join(w.agentDir, "npm", "node_modules", "demo-pkg", "package.json"))).toBe(true);
  expect(existsSync(mark)).toBe(false);

  // Trusted for the command, -l writes the project's settings.
  const trusted = pig(w, ["install", repo, "-l", "--trust"]);
  expect(trusted.code).toBe(0);
  expect(JSON.parse(readFileSync(join(w.cwd, ".pig", "settings.json"), "utf8")).packages).toHaveLength(1);
});

test("-e with a git URL: the package is fetched for this run only and loads first; nothing is recorded", async () => {
  const w = await world();
  const repo = packageRepo();
  const { names, commands, stderr } = await commandsOf(w, ["-e", `file://${repo}`]);
  expect(names).toEqual(expect.arrayContaining(["extension:demo", "prompt:greet", "skill:skill:hello"]));
  expect(stderr).toContain(`pig: -e file://${repo}: cloning file://${repo}`);
  // Its resources name the source as typed, not the folder it was fetched into.
  const greet = commands.find((c) => c.name === "greet")!;
  expect(greet.sourceInfo).toMatchObject({ source: `file://${repo}`, scope: "temporary", origin: "package" });
  const settingsFile = join(w.agentDir, "settings.json");
  expect(existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, "utf8")).packages : undefined).toBeUndefined();
  // Fetched once: the next run finds it where it was put.
  const again = await commandsOf(w, ["-e", `file://${repo}`]);
  expect(again.names).toContain("extension:demo");
  expect(again.stderr.some((l) => l.includes("cloning"))).toBe(false);

  const bad = runPig(["-p", "hi", "-e", `file://${repo}-gone`], { cwd: w.cwd, env: w.env });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain(`pig: -e file://${repo}-gone: cloning file://${repo}-gone failed (git exit`);
});

test("an npm tarball (npm pack) installs by path into the scope's npm folder and loads; remove uninstalls it", async () => {
  const w = await world();
  const repo = packageRepo();
  const packed = Bun.spawnSync(["npm", "pack", "--silent", "--pack-destination", w.cwd], { cwd: repo, stdout: "pipe", stderr: "pipe" });
  expect(packed.exitCode).toBe(0);
  const tarball = join(w.cwd, packed.stdout.toString().trim());
  expect(tarball.endsWith("demo-pkg-1.0.0.tgz")).toBe(true);
  const installed = pig(w, ["install", tarball]);
  expect(installed.stderr).toContain("pig: installing");
  expect(installed.code).toBe(0);
  const dir = join(w.agentDir, "npm", "node_modules", "demo-pkg");
  expect(existsSync(join(dir, "package.json"))).toBe(true);
  expect(pig(w, ["list"]).stdout).toBe(`${tarball}  user\n  ${dir}\n`);
  const { names } = await commandsOf(w);
  expect(names).toEqual(expect.arrayContaining(["extension:demo", "prompt:greet", "skill:skill:hello"]));
  expect(pig(w, ["remove", tarball]).code).toBe(0);
  expect(existsSync(dir)).toBe(false);
});
