/**
 * The benchmarks race Pi as its users run it: every Pi process starts from the file its
 * package's `bin` names (what `npm i -g` links as `pi`), on the Node it needs. Another entry (the
 * unbundled dist/cli.js of a release that ships a bundle, or a module imported straight from
 * dist/core) starts differently and makes a ratio flatter or harsher than what a user sees.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageBin, piCommand } from "../../scripts/bench/pi-install.ts";

const BENCH = join(import.meta.dir, "..", "..", "scripts", "bench");
const scratch = mkdtempSync(join(tmpdir(), "pig-pi-entry-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fakePackage(name: string, pkg: Record<string, unknown>, files: string[]): string {
  const dir = join(scratch, name);
  for (const f of files) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "#!/usr/bin/env node\n");
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
  return dir;
}

test("the command is the package's own bin, read from its package.json", () => {
  // 0.87.1 and later: the bundle; dist/cli.js is there too, and must not be chosen.
  const bundled = fakePackage("bundled", { name: "p", bin: { pi: "dist/bundle/cli.js" } }, ["dist/bundle/cli.js", "dist/cli.js"]);
  expect(piCommand("/node22", bundled)).toEqual(["/node22", join(bundled, "dist/bundle/cli.js")]);
  // 0.73.1: the unbundled entry is its bin.
  const plain = fakePackage("plain", { name: "p", bin: { pi: "./dist/cli.js" } }, ["dist/cli.js"]);
  expect(piCommand("node", plain)).toEqual(["node", join(plain, "dist/cli.js")]);
  const single = fakePackage("single", { name: "pi", bin: "cli.mjs" }, ["cli.mjs"]);
  expect(packageBin(single, "pi")).toBe("cli.mjs");
});

test("a package without a bin for pi, or naming a missing file, is refused by name", () => {
  const none = fakePackage("none", { name: "p" }, []);
  expect(() => packageBin(none, "pi")).toThrow(`${join(none, "package.json")}: no "bin" entry for pi`);
  const other = fakePackage("other", { name: "p", bin: { other: "x.js" } }, ["x.js"]);
  expect(() => packageBin(other, "pi")).toThrow('no "bin" entry for pi');
  const missing = fakePackage("missing", { name: "p", bin: { pi: "dist/bundle/cli.js" } }, []);
  expect(() => packageBin(missing, "pi")).toThrow('"bin".pi names dist/bundle/cli.js, which is missing');
});

// What a script would write to start Pi some other way than `PiInstall.cmd`.
const OTHER_ENTRIES: ReadonlyArray<[RegExp, string]> = [
  [/cli\.js/, "names a CLI file of Pi's package"],
  [/\bindexModule\b|\bsessionManagerModule\b|\bpiSessionModule\b/, "imports a module of Pi's package"],
  [/\bpkgDir\b/, "reaches into Pi's package directory"],
  [/\[\s*[\w.]*\.node\s*,/, "starts Pi's Node with its own arguments"],
  [/["']dist["']\s*,\s*["'](?:core|bundle|modes)["']|dist\/(?:core|bundle|modes)\//, "names a file under Pi's dist/"],
];

test("no benchmark starts Pi through an entry other than its package's bin", () => {
  const scripts = readdirSync(BENCH).filter((f) => f.endsWith(".ts") && f !== "pi-install.ts");
  expect(scripts.length).toBeGreaterThan(10);
  const offences: string[] = [];
  for (const file of scripts) {
    readFileSync(join(BENCH, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return; // prose may describe what is not done
        for (const [pattern, what] of OTHER_ENTRIES) if (pattern.test(line)) offences.push(`scripts/bench/${file}:${i + 1} ${what}: ${line.trim()}`);
      });
  }
  expect(offences).toEqual([]);
});

test("the rule catches each way of starting Pi otherwise", () => {
  const caught = (line: string) => OTHER_ENTRIES.some(([pattern]) => pattern.test(line));
  expect(caught('const cmd = [p.node, join(p.pkgDir, "dist", "cli.js")];')).toBe(true);
  expect(caught("const cmd = [pi.node, script, piSessionModule(pi, entry)];")).toBe(true);
  expect(caught('await import(join(root, "dist", "core", "session-manager.js"))')).toBe(true);
  expect(caught("const cmd = [...pi.cmd, '-p', 'hello'];")).toBe(false);
  expect(caught("dropPageCache([pig, ...new Set(pis.map((p) => p.node))]);")).toBe(false);
});
