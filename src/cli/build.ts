/**
 * `pig build -e ./ext-a.ts -e ./ext-b.ts -o ./mypig`: a Piglet Binary — pig with the given
 * TypeScript extensions linked in. A generated entry module names the extensions
 * (extensions/linked.ts) and then starts pig's CLI; Bun bundles it, pig's sources and the
 * extensions (with their own npm dependencies) into one executable with the flags of
 * scripts/build-flags.ts. The extensions' imports of pig's host modules (`pig/extension`,
 * TypeBox, the Pi packages) are bound to the exports the runner serves at run time, so a
 * linked extension sees exactly what it would see out of process.
 *
 * Building needs pig's sources and Bun (a checkout with node_modules, or the npm package): a
 * compiled pig holds neither, so it hands the build to the checkout it finds (next to itself,
 * as `dist/pig` is, or named by PIG_SOURCE).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BinaryIdentity } from "../binary-identity.ts";
import { isCompiled } from "../extensions/host/runner-command.ts";
import { agentDir } from "../session/paths.ts";
import { bakePiglet } from "./build-piglet.ts";
import { HOST_MODULE_HOOK } from "../extensions/linked.ts";
import { type BuildTarget, checkExecutable, defaultRuntimeCache, parseTarget, readHead, runtimeFor } from "./build-target.ts";
import { CliError, tidyParseError, UsageError } from "./errors.ts";

export const BUILD_USAGE = `Usage: pig build -e <extension.ts> [-e <extension.ts> …] -o <output>
       pig build --piglet <name|file> [-e <extension.ts> …] -o <output>

Builds a Piglet Binary: one pig executable with these TypeScript extensions linked in. They load
first, in this order, in pig's own process; the binary still loads other extensions as pig does.

Options:
  -e, --extension <path>  a TypeScript/JavaScript extension file (repeatable)
      --piglet <name|file>
                          build this Piglet in as the binary's default: its extensions linked,
                          its skills and prompt templates carried inside, its fields as read
  -o, --output <path>     the executable to write
      --name <name>       the binary's own name, shown by --version and --help
      --binary-version <v>
                          the binary's own version, the first line of its --version
      --target <t>        build for another platform: linux-x64, linux-arm64, darwin-x64,
                          darwin-arm64, windows-x64 (and -musl / -baseline variants); that
                          platform's Bun runtime is fetched with npm into a cache once
  -h, --help              this help

Needs pig's sources and Bun: run it from a checkout or the npm package (node_modules installed).
A compiled pig uses the checkout it sits in (dist/pig) or the one PIG_SOURCE names.`;

const BINARY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The specifiers the runner serves extensions (runner/modules.ts); keep in step. */
const HOST_FILTER = /^(pig\/extension|typebox(\/.*)?|@sinclair\/typebox(\/.*)?|@(earendil-works|mariozechner)\/pi-[\w-]+(\/[\w-]+)?)$/;

export async function runBuild(argv: string[]): Promise<number> {
  let values: { extension?: string[]; output?: string; target?: string; piglet?: string; name?: string; "binary-version"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        extension: { type: "string", short: "e", multiple: true },
        output: { type: "string", short: "o" },
        target: { type: "string" },
        piglet: { type: "string" },
        name: { type: "string" },
        "binary-version": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`build: ${tidyParseError(error)}`, "pig build --help");
  }
  if (values.help) {
    console.log(BUILD_USAGE);
    return 0;
  }
  const extensions = (values.extension ?? []).map((p) => resolve(p));
  if (extensions.length === 0 && values.piglet === undefined) {
    throw new UsageError("build: name at least one extension with -e <path>, or a Piglet with --piglet <name>", "pig build --help");
  }
  if (!values.output) throw new UsageError("build: name the executable to write with -o <path>", "pig build --help");
  if (values.name !== undefined && !BINARY_NAME.test(values.name)) {
    throw new UsageError(`build: --name ${JSON.stringify(values.name)}: must be letters, digits, '.', '_' or '-'`, "pig build --help");
  }
  const ownVersion = values["binary-version"];
  if (ownVersion !== undefined && (ownVersion.trim() === "" || /[\r\n]/.test(ownVersion))) {
    throw new UsageError(`build: --binary-version ${JSON.stringify(ownVersion)}: must be one line of text`, "pig build --help");
  }
  for (const [i, path] of extensions.entries()) {
    if (!existsSync(path)) throw new CliError(`build: extension not found: ${path} (-e ${values.extension![i]})`);
    if (!/\.(ts|mts|js|mjs)$/.test(path)) throw new CliError(`build: ${path} (-e ${values.extension![i]}) is not a .ts, .mts, .js or .mjs file`);
  }
  let target: BuildTarget | undefined;
  try {
    target = values.target !== undefined ? parseTarget(values.target) : undefined;
  } catch (error) {
    throw new UsageError(`build: ${(error as Error).message}`, "pig build --help");
  }
  if (isCompiled()) return delegateToCheckout(argv);
  const baked = values.piglet !== undefined ? await bakePiglet(values.piglet, { cwd: process.cwd(), agentDir: agentDir() }) : undefined;
  for (const path of baked?.extensions ?? []) if (!extensions.includes(path)) extensions.push(path);
  const identity: BinaryIdentity = {
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(ownVersion !== undefined ? { version: ownVersion } : {}),
    ...(baked ? { defaultPiglet: baked.data.name } : {}),
    piglets: baked ? [baked.data] : [],
  };
  const outfile = resolve(values.output) + (target?.suffix && !values.output.endsWith(target.suffix) ? target.suffix : "");
  let runtime: string | undefined;
  if (target) {
    try {
      runtime = await runtimeFor(target, { bunVersion: Bun.version, cacheDir: defaultRuntimeCache() });
    } catch (error) {
      throw new CliError(`build --target ${values.target}: could not get the Bun runtime for ${target.id}: ${(error as Error).message}`);
    }
  }
  await buildPigletBinary({ extensions, identity, outfile, root: sourceRoot(), ...(target ? { target: { bunTarget: target.bunTarget, runtime } } : {}) });
  if (target) {
    const wrong = checkExecutable(readHead(outfile), target);
    if (wrong) throw new CliError(`build --target ${target.id}: ${outfile}: ${wrong}`);
  }
  const piglet = baked ? ` and the default Piglet ${baked.data.name}` : "";
  console.log(`built ${outfile}${target ? ` for ${target.id}` : ""} with ${extensions.length} linked extension${extensions.length === 1 ? "" : "s"}${piglet}`);
  return 0;
}

function sourceRoot(): string {
  return fileURLToPath(new URL("../..", import.meta.url));
}

/** A compiled pig has no sources to bundle: the build runs in a checkout's Bun. */
function delegateToCheckout(argv: string[]): number {
  const candidates = [process.env.PIG_SOURCE, join(dirname(process.execPath), "..")].filter((c): c is string => !!c);
  const root = candidates.map((c) => resolve(c)).find((c) => existsSync(join(c, "src", "cli", "main.ts")) && existsSync(join(c, "node_modules", ".bin", "bun")));
  if (!root) {
    throw new CliError(
      "build: this pig is a compiled executable without pig's sources; run `pig build` from a pig checkout " +
        "(npm ci, then node_modules/.bin/bun src/cli/main.ts build …) or set PIG_SOURCE to one" +
        (process.env.PIG_SOURCE ? ` (PIG_SOURCE=${process.env.PIG_SOURCE} has no src/cli/main.ts and node_modules/.bin/bun)` : ""),
    );
  }
  const proc = Bun.spawnSync([join(root, "node_modules", ".bin", "bun"), join(root, "src", "cli", "main.ts"), "build", ...argv], { stdio: ["inherit", "inherit", "inherit"] });
  return proc.exitCode ?? 1;
}

export interface PigletBuild {
  extensions: readonly string[];
  /** Its name, version and built-in Piglets (none: it says it is pig). */
  identity?: BinaryIdentity;
  outfile: string;
  /** pig's checkout (holds src/cli/main.ts). */
  root: string;
  /** Another platform: Bun's target name and that platform's runtime (none: this Bun's own). */
  target?: { bunTarget: string; runtime: string | undefined };
}

/** What `--version` shows for a linked extension: its package's name and version, or its path. */
export function linkedLabel(path: string): string {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
        if (typeof pkg.name === "string") return `${pkg.name}${typeof pkg.version === "string" ? ` ${pkg.version}` : ""} (${path})`;
      } catch {
        // Not readable as JSON: the path says enough.
      }
      return path;
    }
    if (dirname(dir) === dir) return path;
  }
}

export async function buildPigletBinary(build: PigletBuild): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "pig-build-"));
  try {
    const entry = join(work, "piglet-entry.ts");
    const src = (p: string) => JSON.stringify(join(build.root, "src", p));
    const items = build.extensions.map((path) => `  { id: ${JSON.stringify(path)}, label: ${JSON.stringify(linkedLabel(path))}, load: () => import(${JSON.stringify(path)}) },`);
    writeFileSync(
      entry,
      [
        `import { linkExtensions } from ${src("extensions/linked.ts")};`,
        `import { configureBinary } from ${src("binary-identity.ts")};`,
        "linkExtensions([",
        ...items,
        "]);",
        `configureBinary(${JSON.stringify(build.identity ?? { piglets: [] })});`,
        `await import(${src("cli/main.ts")});`,
        "",
      ].join("\n"),
    );
    mkdirSync(dirname(build.outfile), { recursive: true });
    const exportsOf = await hostExportNames();
    // The flags of scripts/build-flags.ts (COMPILE_FLAGS, PIG_FLAGS), as Bun.build options.
    const result = await Bun.build({
      entrypoints: [entry],
      compile: {
        outfile: build.outfile,
        autoloadDotenv: false,
        autoloadBunfig: false,
        autoloadPackageJson: true,
        jitPolicy: 8,
        ...(build.target ? { target: build.target.bunTarget as Bun.Build.CompileTarget } : {}),
        ...(build.target?.runtime ? { executablePath: build.target.runtime } : {}),
      },
      minify: true,
      bytecode: true,
      format: "esm",
      splitting: true,
      target: "bun",
      plugins: [
        {
          name: "pig-linked-host-modules",
          setup(b) {
            b.onResolve({ filter: HOST_FILTER }, (args) => ({ path: args.path, namespace: "pig-host" }));
            b.onLoad({ filter: /.*/, namespace: "pig-host" }, async (args) => ({ contents: hostModuleSource(args.path, await exportsOf(args.path)), loader: "js" }));
          },
        },
      ],
    });
    if (!result.success) throw new CliError(`build: Bun could not build the binary:\n${result.logs.map(describeLog).join("\n")}`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const e = error as { errors?: unknown[] };
    const detail = Array.isArray(e.errors) && e.errors.length > 0 ? e.errors.map(describeLog).join("\n") : describeLog(error);
    throw new CliError(`build: Bun could not build the binary:\n${detail}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One of Bun's build messages, with the file, line and column it is about. */
function describeLog(log: unknown): string {
  const l = log as { message?: unknown; position?: { file?: string; line?: number; column?: number } | null };
  const message = typeof l?.message === "string" ? l.message : String(log);
  const p = l?.position;
  return p?.file ? `  ${p.file}:${p.line ?? 0}:${p.column ?? 0}: ${message}` : `  ${message}`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(" "),
);

/** A host module in a linked extension: the runner's exports for it, read when the module loads. */
function hostModuleSource(specifier: string, names: readonly string[]): string {
  // The exports are bound as module-level names (TypeBox exports a `Symbol`, for one): this
  // module refers to nothing global but `globalThis`, and to one name of its own.
  const own = "__pig_host_exports__";
  const named = names.filter((n) => IDENTIFIER.test(n) && !RESERVED.has(n) && n !== own && n !== "globalThis");
  return [
    `const ${own} = await globalThis[${JSON.stringify(HOST_MODULE_HOOK)}](${JSON.stringify(specifier)});`,
    `export default ${own}.default;`,
    named.length ? `export const { ${named.join(", ")} } = ${own};` : "",
    "",
  ].join("\n");
}

/** The export names of each host module, as the runner serves them (loaded here, once each). */
async function hostExportNames(): Promise<(specifier: string) => Promise<string[]>> {
  const { HostModules } = await import("../extensions/runner/modules.ts");
  const modules = new HostModules();
  return async (specifier) => {
    if (!modules.specifiers.includes(specifier)) throw new Error(`${specifier} is not a module pig serves extensions`);
    return Object.keys(await modules.load(specifier)).filter((n) => n !== "default");
  };
}
