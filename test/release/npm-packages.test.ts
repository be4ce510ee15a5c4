/** The npm packages' manifests, as release.ts writes them (the packing and publishing are in test/e2e/npm-install.test.ts). */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mainManifest, platformManifest, sdkPackageFields } from "../../scripts/release/npm-packages.ts";
import { NPM_TARGETS } from "../../src/util/platform-package.ts";
import { tempDir } from "../helpers/tmp.ts";

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

  test("with an SDK build, the main package exports its index.js and index.d.ts; a build without them is named", () => {
    const sdk = tempDir("pig-sdk-build-");
    expect(() => sdkPackageFields(sdk)).toThrow(`the SDK build in ${sdk} has no index.js`);
    writeFileSync(join(sdk, "index.js"), "export {};\n");
    expect(() => sdkPackageFields(sdk)).toThrow(`the SDK build in ${sdk} has no index.d.ts`);
    writeFileSync(join(sdk, "index.d.ts"), "export {};\n");
    const manifest = mainManifest([target("linux-x64")], "1.2.3", sdkPackageFields(sdk));
    expect(manifest).toMatchObject({ types: "./sdk/index.d.ts", exports: { ".": { types: "./sdk/index.d.ts", default: "./sdk/index.js" } }, files: ["bin", "install.cjs", "README.md", "sdk"] });
  });
});
