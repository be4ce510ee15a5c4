/**
 * The Python SDK as a user gets it: `scripts/release.ts --wheel` builds the wheel and the sdist
 * at the release version, `pip install --no-index` puts each into a fresh venv (no package
 * index: nothing may need one), and an extension importing the installed package — not the
 * repository's sdk/python — loads in the built pig and answers the model through its tool.
 */
import { beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { runProgramOk as ok } from "../helpers/run-program.ts";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const SDK = join(ROOT, "sdk", "python");
const PYTHON = Bun.which("python3");
/** `python3 -m venv` needs ensurepip, which Debian ships apart (python3-venv). */
const HAS_VENV = PYTHON !== null && Bun.spawnSync([PYTHON, "-c", "import ensurepip, venv"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const RELEASE_VERSION = "1.2.3-rc.1";
const WHEEL_VERSION = "1.2.3rc1";

type Json = Record<string, any>;

const { world } = extensionWorlds();

/** A fresh venv in a temp dir, with a temp HOME and pip kept off every index and cache of the user. */
async function venv(): Promise<{ dir: string; path: string; env: Record<string, string> }> {
  const home = tempDir("pig-pyhome-");
  const dir = join(home, "venv");
  const path = `${join(dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`;
  const env = {
    PATH: path,
    HOME: home,
    VIRTUAL_ENV: dir,
    PIP_NO_INDEX: "1",
    PIP_NO_CACHE_DIR: "1",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PIP_CONFIG_FILE: "/dev/null",
  };
  await ok([PYTHON!, "-m", "venv", dir], home, env);
  return { dir, path, env };
}

// Reports where pig_ext came from; the tool's answer is one JSON text.
const EXTENSION = `import json, os, sys
import pig_ext
from pig_ext import Extension, ToolResult

ext = Extension("where-from")


@ext.tool("where_from", "Says where the pig_ext package was loaded from")
async def where_from(args, ctx):
    return ToolResult(json.dumps({
        "file": os.path.realpath(pig_ext.__file__),
        "version": pig_ext.__version__,
        "prefix": os.path.realpath(sys.prefix),
        "sdkOnPath": [p for p in sys.path if os.path.realpath(p).startswith(${JSON.stringify(SDK)})],
    }))


if __name__ == "__main__":
    ext.run()
`;

describeNeeding("python3 with venv (python3-venv)", HAS_VENV, "Python wheel", () => {
  let packages = "";
  /** One fresh venv (making one is the slow part): the wheel is installed into it. */
  let env: Record<string, string> = {};
  let venvDir = "";
  let venvPath = "";

  beforeAll(async () => {
    const out = tempDir("pig-pyrelease-");
    await ok([process.execPath, join(ROOT, "scripts", "release.ts"), "--version", RELEASE_VERSION, "--wheel", "--no-binaries", "--out", out], ROOT, {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    });
    packages = join(out, "python");
    ({ dir: venvDir, path: venvPath, env } = await venv());
  }, 240_000);

  test("the release writes the wheel and the sdist at the release version, with their SHA-256 sums", () => {
    const wheel = `pig_ext-${WHEEL_VERSION}-py3-none-any.whl`;
    const sdist = `pig_ext-${WHEEL_VERSION}.tar.gz`;
    expect(readdirSync(packages).sort()).toEqual(["SHA256SUMS", wheel, sdist].sort());
    const sum = (file: string) => createHash("sha256").update(readFileSync(join(packages, file))).digest("hex");
    expect(readFileSync(join(packages, "SHA256SUMS"), "utf8")).toBe(`${sum(wheel)}  ${wheel}\n${sum(sdist)}  ${sdist}\n`);
  });

  test("pip installs the wheel into a fresh venv from the directory, with no index, and a Python extension using it works in pig", async () => {
    const dir = venvDir;
    const install = await ok(["pip", "install", "--no-index", "--find-links", packages, "pig-ext"], dir, env);
    expect(install.stdout).toContain(`Successfully installed pig-ext-${WHEEL_VERSION}`);
    const shown = await ok(["pip", "show", "pig-ext"], dir, env);
    expect(shown.stdout).toMatch(new RegExp(`^Version: ${WHEEL_VERSION.replaceAll(".", "\\.")}$`, "m"));

    const w = await world([{ toolCalls: [{ name: "where_from", arguments: {} }] }, { text: "done" }]);
    const extension = join(tempDir("pig-pyext-"), "where_from.py");
    writeFileSync(extension, EXTENSION);
    // pig runs a .py extension with the python3 first on its PATH: the venv's, as once activated.
    const ran = await w.run(["-e", extension, "-p", "where is pig_ext from?"], { env: { PATH: venvPath, VIRTUAL_ENV: dir } });
    expect(ran.stderr).not.toContain("Failed to load extension");
    expect(ran).toMatchObject({ code: 0, stdout: "done\n" });
    const toolMessage = (w.llm.requests[1]!.body as { messages: Json[] }).messages.find((m) => m.role === "tool")!;
    const text = typeof toolMessage.content === "string" ? toolMessage.content : toolMessage.content.map((p: Json) => p.text ?? "").join("");
    const report = JSON.parse(text) as Json;
    // The venv's Python ran it, and pig_ext came from the venv's site-packages.
    expect(report).toMatchObject({ version: WHEEL_VERSION, sdkOnPath: [], prefix: realpathSync(dir) });
    expect(report.file).toStartWith(`${realpathSync(dir)}/lib/`);
    expect(report.file).toMatch(/\/site-packages\/pig_ext\/__init__\.py$/);
  }, 120_000);

  test("pip builds the sdist with the project's own backend, with no index, into the same wheel", async () => {
    const built = tempDir("pig-pysdist-");
    const sdist = join(packages, `pig_ext-${WHEEL_VERSION}.tar.gz`);
    await ok(["pip", "wheel", "--no-index", "--no-deps", "--wheel-dir", built, sdist], built, env);
    const wheel = `pig_ext-${WHEEL_VERSION}-py3-none-any.whl`;
    expect(readdirSync(built)).toEqual([wheel]);
    // Each file's name and SHA-256, from either wheel.
    const contents = async (file: string) =>
      JSON.parse(
        (
          await ok(
            ["python3", "-I", "-c", "import hashlib, json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(json.dumps({n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist()}))", file],
            built,
            env,
          )
        ).stdout,
      ) as Record<string, string>;
    const fromSdist = await contents(join(built, wheel));
    expect(fromSdist).toEqual(await contents(join(packages, wheel)));
    expect(Object.keys(fromSdist)).toContain("pig_ext/extension.py");
  }, 120_000);
});
