/** The npm packages' manifests, as release.ts writes them (the packing and publishing are in test/e2e/npm-install.test.ts). */
import { describe, expect, test } from "bun:test";
import { mainManifest, platformManifest } from "../../scripts/release/npm-packages.ts";
import { NPM_TARGETS } from "../../src/util/platform-package.ts";

const target = (id: string) => NPM_TARGETS.find((t) => t.id === id)!;

describe("npm package manifests", () => {
  test("a binary package names its os, cpu and, on Linux, libc, and has no bin of its own", () => {
    const musl = platformManifest(target("linux-arm64-musl"), "1.2.3");
    expect(musl).toMatchObject({ name: "pig-coding-agent-linux-arm64-musl", version: "1.2.3", os: ["linux"], cpu: ["arm64"], libc: ["musl"], preferUnplugged: true });
    expect(musl.bin).toBeUndefined();
    const windows = platformManifest(target("windows-x64"), "1.2.3");
    expect(windows).toMatchObject({ name: "pig-coding-agent-windows-x64", os: ["win32"], cpu: ["x64"] });
    expect(windows.libc).toBeUndefined();
  });

  test("the main package pins exactly the binary packages built, runs its install script, and has no SDK fields without an SDK", () => {
    const manifest = mainManifest([target("linux-x64"), target("darwin-arm64")], "1.2.3", undefined);
    expect(manifest).toMatchObject({
      name: "pig-coding-agent",
      bin: { pig: "bin/pig" },
      scripts: { postinstall: "node install.cjs" },
      engines: { node: ">=20" },
      files: ["bin", "install.cjs", "README.md"],
      optionalDependencies: { "pig-coding-agent-linux-x64": "1.2.3", "pig-coding-agent-darwin-arm64": "1.2.3" },
    });
    expect({ exports: manifest.exports, types: manifest.types }).toEqual({ exports: undefined, types: undefined });
  });

  test("with the SDK, the main package takes its exports, types and dependencies and keeps its own bin, script and files", () => {
    const sdk = {
      type: "module",
      exports: { ".": { types: "./types/src/sdk/index.d.ts", import: "./lib/index.js" }, "./package.json": "./package.json" },
      types: "./types/src/sdk/index.d.ts",
      engines: { node: ">=20" },
      dependencies: { valibot: "^1.5.0" },
      files: ["lib", "types"],
    };
    const manifest = mainManifest([target("linux-x64")], "1.2.3", sdk);
    expect(manifest).toMatchObject({
      type: "module",
      types: sdk.types,
      exports: sdk.exports,
      dependencies: { valibot: "^1.5.0" },
      bin: { pig: "bin/pig" },
      scripts: { postinstall: "node install.cjs" },
      files: ["bin", "install.cjs", "README.md", "lib", "types"],
      optionalDependencies: { "pig-coding-agent-linux-x64": "1.2.3" },
    });
  });
});
