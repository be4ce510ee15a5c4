/**
 * pig from npm, as a user gets it: release.ts builds this machine's target at two versions with
 * `--npm`, the packages are published to a real registry (Verdaccio on loopback), and npm
 * installs them into temp prefixes with its own cache and config — `npm i -g`, `npx`, with the
 * optional binary package left out, with install scripts off — and then updates the install in
 * place to the next version. pig runs against the fake LLM server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostTargetId } from "../../src/cli/build-target.ts";
import { platformPackageName } from "../../src/util/platform-package.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";
import { startVerdaccio, type LocalRegistry } from "../helpers/verdaccio.ts";

const root = join(import.meta.dir, "..", "..");
const target = hostTargetId();
if (!target) throw new Error(`pig has no release target for ${process.platform} ${process.arch}`);
const platformPackage = platformPackageName(target);
const [FIRST, NEXT] = ["0.1.0", "0.1.1"];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(argv: string[], env: Record<string, string>, cwd: string): Promise<Ran> {
  const proc = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** `exec`, failing with everything the command said unless it succeeded. */
async function execOk(argv: string[], env: Record<string, string>, cwd: string): Promise<Ran> {
  const ran = await exec(argv, env, cwd);
  if (ran.code !== 0) throw new Error(`${argv.join(" ")} failed (exit ${ran.code}):\n${ran.stderr}${ran.stdout}`);
  return ran;
}

const work = tempDir("pig-npm-e2e-");
/** The tarballs of each version, binary packages first (the order to publish in). */
const tarballs = new Map<string, string[]>();
let registry: LocalRegistry | undefined;
let world: PigWorld | undefined;

/** Builds `version` for this machine with `--npm` and keeps only its tarballs (the rest is ~250 MB). */
async function release(version: string): Promise<string[]> {
  const out = join(work, `release-${version}`);
  await execOk([process.execPath, join(root, "scripts", "release.ts"), "--targets", target!, "--npm", "--version", version, "--out", out], { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? work }, root);
  const npmDir = join(out, "npm");
  const sums = readFileSync(join(npmDir, "SHA256SUMS"), "utf8");
  const files = [`${platformPackage}-${version}.tgz`, `pig-coding-agent-${version}.tgz`];
  for (const file of [...files, `${platformPackage}/bin/pig`]) expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${file.replaceAll(".", "\\.")}$`, "m"));
  const kept = files.map((file) => join(work, file));
  for (const [i, file] of files.entries()) writeFileSync(kept[i]!, readFileSync(join(npmDir, file)));
  rmSync(out, { recursive: true, force: true });
  return kept;
}

async function publish(version: string): Promise<void> {
  for (const tarball of tarballs.get(version)!) await execOk(["npm", "publish", tarball], registry!.npmEnv, work);
}

/**
 * The main package's own dependencies (the SDK's declarations name valibot's and TypeBox's
 * types), packed from this checkout's node_modules: the registry has no uplink to fetch them.
 */
async function publishDependencies(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  for (const name of ["valibot", "typebox"]) {
    expect(manifest.dependencies[name]).toBeDefined();
    const packed = await execOk(["npm", "pack", join(root, "node_modules", name), "--pack-destination", work, "--json", "--loglevel=error"], registry!.npmEnv, work);
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    await execOk(["npm", "publish", join(work, filename), "--tag", "latest"], registry!.npmEnv, work);
  }
}

function npmEnvWith(prefix: string): Record<string, string> {
  return { ...registry!.npmEnv, PATH: `${join(prefix, "bin")}:${registry!.npmEnv.PATH}` };
}

/** Runs the `pig` npm put on PATH under `prefix`, in the fake LLM's world. */
function pig(prefix: string, args: string[]): Promise<Ran> {
  return exec([join(prefix, "bin", "pig"), ...args], { ...world!.env, PATH: `${join(prefix, "bin")}:${world!.env.PATH}` }, world!.cwd);
}

beforeAll(async () => {
  const [first, next] = await Promise.all([release(FIRST), release(NEXT)]);
  tarballs.set(FIRST, first);
  tarballs.set(NEXT, next);
  registry = await startVerdaccio();
  world = await createWorld({ llm: { mode: "text" } });
  await publishDependencies();
  await publish(FIRST);
}, 600_000);

afterAll(async () => {
  await registry?.stop();
  await world?.close();
  // The installs and tarballs are ~1 GB: gone now, not when every test file has run.
  rmSync(work, { recursive: true, force: true });
  if (registry) rmSync(registry.dir, { recursive: true, force: true });
});

describe("pig from npm", () => {
  const prefix = join(work, "global");

  test("npm i -g pig-coding-agent puts the native binary on PATH: pig --version, pig -p against a model", async () => {
    await execOk(["npm", "install", "-g", "--prefix", prefix, "pig-coding-agent"], registry!.npmEnv, work);
    // The install script linked the platform binary in the launcher's place: pig starts without Node.
    const onPath = realpathSync(join(prefix, "bin", "pig"));
    const platformBinary = join(prefix, "lib", "node_modules", "pig-coding-agent", "node_modules", platformPackage, "bin", "pig");
    expect({ onPath, sameFile: statSync(onPath).ino === statSync(platformBinary).ino }).toEqual({
      onPath: join(prefix, "lib", "node_modules", "pig-coding-agent", "bin", "pig"),
      sameFile: true,
    });
    expect(await pig(prefix, ["--version"])).toEqual({ code: 0, stdout: `${FIRST}\n`, stderr: "" });
    const asked = await pig(prefix, ["-p", "hello from npm"]);
    expect(asked).toEqual({ code: 0, stdout: "ok\n", stderr: "" });
    expect(JSON.stringify(world!.llm.requests.at(-1)?.body)).toContain("hello from npm");
  }, 120_000);

  test("npx pig-coding-agent -p runs pig without a global install", async () => {
    const cwd = tempDir("pig-npx-");
    const before = world!.llm.requests.length;
    const ran = await exec(["npx", "--yes", "pig-coding-agent", "-p", "hello from npx"], { ...registry!.npmEnv, PIG_CODING_AGENT_DIR: world!.agentDir, PIG_NO_EXTERNAL_SEARCH: "1" }, cwd);
    expect({ code: ran.code, stdout: ran.stdout }).toEqual({ code: 0, stdout: "ok\n" });
    expect(world!.llm.requests.length).toBe(before + 1);
    expect(JSON.stringify(world!.llm.requests.at(-1)?.body)).toContain("hello from npx");
  }, 120_000);

  test("with --ignore-scripts the launcher stays and runs the binary through Node", async () => {
    const noScripts = join(work, "no-scripts");
    await execOk(["npm", "install", "-g", "--prefix", noScripts, "--ignore-scripts", "pig-coding-agent"], registry!.npmEnv, work);
    expect(readFileSync(join(noScripts, "bin", "pig"), "utf8").slice(0, 20)).toBe("#!/usr/bin/env node\n");
    expect(await pig(noScripts, ["--version"])).toEqual({ code: 0, stdout: `${FIRST}\n`, stderr: "" });
    expect(await pig(noScripts, ["-p", "through the launcher"])).toEqual({ code: 0, stdout: "ok\n", stderr: "" });
    rmSync(noScripts, { recursive: true, force: true });
  }, 120_000);

  test("a Node project installs pig-coding-agent from the registry and drives pig --mode rpc through its SDK", async () => {
    const project = tempDir("pig-npm-sdk-");
    writeFileSync(join(project, "package.json"), '{ "name": "uses-pig-sdk", "version": "1.0.0", "private": true, "type": "module" }\n');
    await execOk(["npm", "install", "pig-coding-agent"], registry!.npmEnv, project);
    writeFileSync(
      join(project, "ask.js"),
      `import { RpcClient } from "pig-coding-agent";
const client = new RpcClient({ args: ["--no-session"] });
await client.start();
try {
  const result = await client.prompt(process.argv[2]);
  console.log(JSON.stringify({ text: result.text }));
} finally {
  await client.stop();
}
`,
    );
    // No PIG_BINARY and no pig on PATH: the client finds the binary package npm installed beside it.
    const env: Record<string, string> = { ...world!.env, PATH: "/usr/local/bin:/usr/bin:/bin" };
    delete env.PIG_BINARY;
    const ran = await exec(["node", join(project, "ask.js"), "hello from the sdk"], env, world!.cwd);
    expect({ code: ran.code, stdout: ran.stdout, stderr: ran.stderr }).toEqual({ code: 0, stdout: `${JSON.stringify({ text: "ok" })}\n`, stderr: "" });
    expect(JSON.stringify(world!.llm.requests.at(-1)?.body)).toContain("hello from the sdk");
    rmSync(project, { recursive: true, force: true });
  }, 120_000);

  test("installed with --omit=optional, pig names the package it looked for and how to get it, and exits 1", async () => {
    // npm applies --omit to a project's dependencies only (a global package's are always installed).
    const project = tempDir("pig-npm-project-");
    writeFileSync(join(project, "package.json"), '{ "name": "uses-pig", "version": "1.0.0", "private": true }\n');
    await execOk(["npm", "install", "--omit=optional", "pig-coding-agent"], registry!.npmEnv, project);
    expect({ main: existsSync(join(project, "node_modules", "pig-coding-agent")), binary: existsSync(join(project, "node_modules", platformPackage)) }).toEqual({ main: true, binary: false });
    const ran = await exec([join(project, "node_modules", ".bin", "pig"), "--version"], world!.env, project);
    expect({ code: ran.code, stdout: ran.stdout }).toEqual({ code: 1, stdout: "" });
    expect(ran.stderr).toContain("pig: no binary for this machine (");
    expect(ran.stderr).toContain(`the package ${platformPackage} is not installed.`);
    expect(ran.stderr).toContain("npm install pig-coding-agent --include=optional");
    rmSync(project, { recursive: true, force: true });
  }, 120_000);

  test("pig update asks the registry it came from and updates the npm install in place; --check says what is newer; a version that does not exist changes nothing", async () => {
    await publish(NEXT);
    const update = (args: string[]) => exec([join(prefix, "bin", "pig"), "update", ...args], { ...npmEnvWith(prefix), PIG_CODING_AGENT_DIR: world!.agentDir }, work);
    const check = await update(["--check"]);
    expect({ code: check.code, said: `${check.stdout}${check.stderr}` }).toEqual({ code: 0, said: `pig ${NEXT} is available (this is ${FIRST}): run pig update\n` });

    const updated = await update([]);
    expect(updated.code).toBe(0);
    expect(`${updated.stdout}${updated.stderr}`).toContain(`npm install --global --prefix ${prefix} pig-coding-agent@${NEXT}`);
    expect(`${updated.stdout}${updated.stderr}`).toContain(`Updated pig ${FIRST} → ${NEXT} (npm, ${prefix})`);
    expect(await pig(prefix, ["--version"])).toEqual({ code: 0, stdout: `${NEXT}\n`, stderr: "" });
    // Still the native binary, linked by the new version's install script.
    expect(readFileSync(realpathSync(join(prefix, "bin", "pig"))).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));

    const current = await update([]);
    expect({ code: current.code, said: `${current.stdout}${current.stderr}` }).toEqual({ code: 0, said: `pig ${NEXT} is up to date (the newest release)\n` });

    const missing = await update(["--to", "9.9.9"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("npm view pig-coding-agent@9.9.9 version --json");
    // The failed update left the installed pig as it was.
    expect(await pig(prefix, ["--version"])).toEqual({ code: 0, stdout: `${NEXT}\n`, stderr: "" });
  }, 180_000);
});
