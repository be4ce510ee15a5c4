/**
 * Finding the npm install a running pig belongs to, from the paths npm gives it. The update itself,
 * against a real registry, is in test/e2e/npm-install.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findNpmInstall, updateNpmInstall } from "../../src/cli/update-npm.ts";
import { tempDir } from "../helpers/tmp.ts";

function file(path: string, content = "") {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
}

/** npm's global layout under a prefix: the main package, its binary package nested or hoisted, npm's link. */
function globalInstall(options: { hoisted?: boolean; link?: boolean } = {}) {
  const prefix = tempDir("pig-npm-global-");
  const packageDir = join(prefix, "lib", "node_modules", "pig-coding-agent");
  file(join(packageDir, "package.json"), JSON.stringify({ name: "pig-coding-agent", version: "0.4.1" }));
  const platformDir = options.hoisted ? join(prefix, "lib", "node_modules", "pig-coding-agent-linux-x64") : join(packageDir, "node_modules", "pig-coding-agent-linux-x64");
  file(join(platformDir, "bin", "pig"), "binary");
  mkdirSync(join(packageDir, "bin"));
  linkSync(join(platformDir, "bin", "pig"), join(packageDir, "bin", "pig"));
  if (options.link !== false) {
    mkdirSync(join(prefix, "bin"));
    symlinkSync("../lib/node_modules/pig-coding-agent/bin/pig", join(prefix, "bin", "pig"));
  }
  return { prefix, packageDir, platformBinary: join(platformDir, "bin", "pig") };
}

describe("findNpmInstall", () => {
  test("from npm's link on PATH, the hard-linked binary, or the binary package's own file, nested or hoisted", () => {
    for (const hoisted of [false, true]) {
      const { prefix, packageDir, platformBinary } = globalInstall({ hoisted });
      const expected = { packageDir, prefix, version: "0.4.1" };
      for (const path of [join(prefix, "bin", "pig"), join(packageDir, "bin", "pig"), platformBinary]) {
        expect({ hoisted, path, found: findNpmInstall(path) }).toEqual({ hoisted, path, found: expected });
      }
    }
  });

  test("a Windows prefix: node_modules directly under it, with npm's pig.cmd", () => {
    const prefix = tempDir("pig-npm-win-");
    const packageDir = join(prefix, "node_modules", "pig-coding-agent");
    file(join(packageDir, "package.json"), JSON.stringify({ name: "pig-coding-agent", version: "2.0.0" }));
    const exe = join(packageDir, "node_modules", "pig-coding-agent-windows-x64", "bin", "pig.exe");
    file(exe, "MZ");
    file(join(prefix, "pig.cmd"), "@node ...");
    expect(findNpmInstall(exe)).toEqual({ packageDir, prefix, version: "2.0.0" });
  });

  test("not an npm install: dist/pig, a project's or npx's copy (no global link), another package's binary, an unreadable manifest", () => {
    const other = tempDir("pig-npm-other-");
    file(join(other, "dist", "pig"), "binary");
    expect(findNpmInstall(join(other, "dist", "pig"))).toBeUndefined();
    const project = globalInstall({ link: false });
    expect(findNpmInstall(join(project.packageDir, "bin", "pig"))).toBeUndefined();
    const stranger = join(other, "lib", "node_modules", "not-pig", "bin", "pig");
    file(stranger, "binary");
    file(join(other, "bin", "pig"));
    expect(findNpmInstall(stranger)).toBeUndefined();
    const broken = globalInstall();
    writeFileSync(join(broken.packageDir, "package.json"), "{ not json");
    expect(findNpmInstall(join(broken.prefix, "bin", "pig"))).toBeUndefined();
  });
});

describe("updateNpmInstall", () => {
  test("a version that is not one is refused before npm runs, naming it", async () => {
    const lines: string[] = [];
    const install = { packageDir: "/nowhere/lib/node_modules/pig-coding-agent", prefix: "/nowhere", version: "0.1.0" };
    await expect(updateNpmInstall(install, "1.2; rm -rf /", (l) => lines.push(l))).rejects.toThrow('pig update --to "1.2; rm -rf /": not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)');
    expect(lines).toEqual([]);
  });
});
