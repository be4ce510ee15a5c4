/**
 * The npm package's launcher and install script, built as release.ts builds them and run by Node
 * in a node_modules laid out as npm lays it out, with a stand-in for the platform binary (a shell
 * script saying what it was given). The real binary, installed from a registry, is in
 * test/e2e/npm-install.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleNpmScript } from "../../scripts/release/npm-packages.ts";
import { noBinaryMessage, thisMachine } from "../../scripts/release/npm-machine.ts";
import { onMusl } from "../../src/util/c-library.ts";
import { platformPackageName } from "../../src/util/platform-package.ts";
import { tempDir } from "../helpers/tmp.ts";

const machine = thisMachine();
const target = machine.target;
if (!target) throw new Error(`these tests run on a release target, not ${machine.description}`);
const platformPackage = platformPackageName(target.id);

const built = tempDir("pig-npm-scripts-");
await bundleNpmScript("npm-launcher.ts", join(built, "pig"), true);
await bundleNpmScript("npm-install-script.ts", join(built, "install.cjs"), false);

/** A global prefix with the main package and, unless `binary` is undefined, a platform package whose `bin/pig` is that shell script. */
function layout(binary: string | undefined, hoisted = false): { prefix: string; main: string; link: string; platformBinary: string } {
  const prefix = tempDir("pig-npm-prefix-");
  const modules = join(prefix, "lib", "node_modules");
  const main = join(modules, "pig-coding-agent");
  mkdirSync(join(main, "bin"), { recursive: true });
  writeFileSync(join(main, "package.json"), JSON.stringify({ name: "pig-coding-agent", version: "1.2.3", bin: { pig: "bin/pig" } }));
  writeFileSync(join(main, "bin", "package.json"), '{ "type": "commonjs" }\n');
  writeFileSync(join(main, "bin", "pig"), readFileSync(join(built, "pig")), { mode: 0o755 });
  writeFileSync(join(main, "install.cjs"), readFileSync(join(built, "install.cjs")));
  const platformDir = hoisted ? join(modules, platformPackage) : join(main, "node_modules", platformPackage);
  const platformBinary = join(platformDir, "bin", "pig");
  if (binary !== undefined) {
    mkdirSync(join(platformDir, "bin"), { recursive: true });
    writeFileSync(join(platformDir, "package.json"), JSON.stringify({ name: platformPackage, version: "1.2.3" }));
    writeFileSync(platformBinary, `#!/bin/sh\n${binary}\n`);
    chmodSync(platformBinary, 0o755);
  }
  mkdirSync(join(prefix, "bin"));
  const link = join(prefix, "bin", "pig");
  symlinkSync("../lib/node_modules/pig-coding-agent/bin/pig", link);
  return { prefix, main, link, platformBinary };
}

async function run(argv: string[], cwd?: string) {
  const proc = Bun.spawn(["node", ...argv], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code, signal: proc.signalCode };
}

describe("the npm launcher", () => {
  test("runs the platform package's binary through npm's link, with the same arguments, and exits with its code", async () => {
    for (const hoisted of [false, true]) {
      const { link } = layout('printf "%s|" "$@"; echo; echo to-stderr >&2; exit 7', hoisted);
      expect({ hoisted, ...(await run([link, "-p", "two words", "--x"])) }).toEqual({ hoisted, stdout: "-p|two words|--x|\n", stderr: "to-stderr\n", code: 7, signal: null });
    }
  });

  test("dies of the signal pig died of", async () => {
    const { link } = layout("kill -TERM $$");
    const got = await run([link]);
    expect({ code: got.code, signal: got.signal }).toEqual({ code: 143, signal: "SIGTERM" });
  });

  test("passes a SIGTERM sent to it on to pig, and ends as pig ends", async () => {
    const { link } = layout(`trap 'echo got-TERM; exit 143' TERM; echo ready; while :; do sleep 1 & wait $!; done`);
    const proc = Bun.spawn(["node", link], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    let seen = "";
    while (!seen.includes("ready\n")) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`pig ended before it was ready: ${seen}`);
      seen += new TextDecoder().decode(chunk.value);
    }
    proc.kill("SIGTERM");
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      seen += new TextDecoder().decode(chunk.value);
    }
    expect({ seen, code: await proc.exited }).toEqual({ seen: "ready\ngot-TERM\n", code: 143 });
  });

  test("without the platform package it names the package, the machine and what to do, and exits 1", async () => {
    const { link } = layout(undefined);
    const got = await run([link, "--version"]);
    expect(got).toEqual({ stdout: "", stderr: noBinaryMessage(machine, { found: false, packageName: platformPackage }).map((l) => `pig: ${l}\n`).join(""), code: 1, signal: null });
    expect(got.stderr).toContain(`the package ${platformPackage} is not installed`);
    expect(got.stderr).toContain(machine.description);
    expect(got.stderr).toContain("npm install pig-coding-agent --include=optional");
  });

  test("on a machine pig is not released for, the message lists the targets and points to a source build", () => {
    const lines = noBinaryMessage({ description: "freebsd x64", target: undefined }, undefined);
    expect(lines).toEqual([
      "pig-coding-agent has no binary for this machine (freebsd x64).",
      "It is released for linux-x64, linux-arm64, linux-x64-musl, linux-arm64-musl, darwin-x64, darwin-arm64, windows-x64.",
      "Build pig from source for this machine: https://github.com/pig-coding-agent/pig#install",
    ]);
  });
});

test("musl or glibc: the launcher's quick answer is what Node's diagnostic report says", () => {
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  expect(onMusl()).toBe(process.platform === "linux" && header?.glibcVersionRuntime === undefined);
});

describe("the npm install script", () => {
  test("puts the platform binary in the launcher's place as a hard link when it runs as the package's version", async () => {
    const { main, link, platformBinary } = layout('[ "$1" = --version ] && echo 1.2.3');
    const got = await run(["install.cjs"], main);
    expect(got).toEqual({ stdout: `pig-coding-agent: linked ${platformBinary} to ${join(main, "bin", "pig")}\n`, stderr: "", code: 0, signal: null });
    const [linked, original] = [statSync(join(main, "bin", "pig")), statSync(platformBinary)];
    expect({ sameFile: linked.ino === original.ino, mode: linked.mode & 0o777 }).toEqual({ sameFile: true, mode: 0o755 });
    const proc = Bun.spawnSync([link, "--version"]);
    expect(proc.stdout.toString()).toBe("1.2.3\n");
  });

  test("keeps the launcher, and succeeds, when the binary is missing, fails or says another version", async () => {
    const cases = [
      { binary: undefined, says: `kept the launcher: ${platformPackage} is not installed` },
      { binary: "exit 3", says: "--version gave exit 3" },
      { binary: "echo 9.9.9", says: '--version gave exit 0, "9.9.9", expected 1.2.3' },
    ];
    for (const c of cases) {
      const { main } = layout(c.binary);
      const got = await run(["install.cjs"], main);
      expect({ case: c.binary, code: got.code, said: got.stdout.includes(c.says), launcher: readFileSync(join(main, "bin", "pig"), "utf8").startsWith("#!/usr/bin/env node\n") }).toEqual({
        case: c.binary,
        code: 0,
        said: true,
        launcher: true,
      });
    }
  });
});
