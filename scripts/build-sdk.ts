/**
 * Builds the TypeScript SDK as the `pig-coding-agent` package ships it: ESM JavaScript that runs
 * on Node ≥ 20 and Bun (bundled, so it imports only Node's own modules) and `.d.ts` files from
 * `tsc --emitDeclarationOnly`, checked to need nothing a consumer lacks. `packageFields` are the
 * package.json fields that publish them (paths relative to `outDir`, the package's root).
 *
 *   bun scripts/build-sdk.ts [outDir]     (default dist/sdk)
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { declarationClosure, rewriteRelativeSpecifiers } from "./sdk/declarations.ts";

const ROOT = join(import.meta.dir, "..");

/** Each subpath the package exports: its source, and whether it has code to run (else types only). */
const ENTRIES = [
  // The RPC client, its errors and the protocol's types.
  { subpath: ".", source: "src/sdk/index.ts", runs: true },
  // Where pig keeps sessions (the agent directory, a project's session directory).
  { subpath: "./session-paths", source: "src/session/paths.ts", runs: true },
  // The extension API's types, for extension authors: pig itself provides the module when it loads an extension.
  { subpath: "./extension", source: "src/extensions/api/index.ts", runs: false },
] as const;

/** Packages the declarations may import: the package depends on them (their ranges are pig's own). */
const TYPE_DEPENDENCIES = ["valibot", "typebox"] as const;

const sourceToJs = (source: string) => `./lib/${relative("src", source).replace(/\.ts$/, ".js")}`;
const sourceToDts = (source: string) => `./types/${relative("src", source).replace(/\.ts$/, ".d.ts")}`;

function run(command: string[], what: string): void {
  const proc = Bun.spawnSync(command, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`${what} failed (exit ${proc.exitCode}):\n${proc.stdout.toString()}${proc.stderr.toString()}`);
}

/** The JavaScript of the entries that run, bundled for Node; refused if it imports anything but Node's modules. */
async function buildJavaScript(outDir: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: ENTRIES.filter((e) => e.runs).map((e) => join(ROOT, e.source)),
    root: join(ROOT, "src"),
    outdir: join(outDir, "lib"),
    target: "node",
    format: "esm",
    splitting: false,
  });
  if (!result.success) throw new Error(`bundling the SDK failed:\n${result.logs.join("\n")}`);
  for (const output of result.outputs) {
    const text = await output.text();
    const foreign = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!).filter((s) => !s.startsWith("node:"));
    if (foreign.length > 0) throw new Error(`${relative(outDir, output.path)} imports ${foreign.join(", ")}: the SDK's code may use only Node's modules`);
  }
}

/** The declarations: tsc over the entries, then only the files they reach, rewritten and checked. */
function buildDeclarations(outDir: string): void {
  const work = mkdtempSync(join(tmpdir(), "pig-sdk-types-"));
  chmodSync(work, 0o700);
  try {
    const emitted = join(work, "out");
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        lib: ["ES2023", "ESNext.Disposable"],
        // The sources are checked with Bun's types (they run in pig); the consumer check below holds the declarations to Node's.
        types: ["bun-types"],
        typeRoots: [join(ROOT, "node_modules/@types"), join(ROOT, "node_modules")],
        strict: true,
        skipLibCheck: true,
        declaration: true,
        emitDeclarationOnly: true,
        allowImportingTsExtensions: true,
        resolveJsonModule: true,
        rootDir: join(ROOT, "src"),
        outDir: emitted,
      },
      files: [...ENTRIES.map((e) => join(ROOT, e.source)), join(ROOT, "src/types/text-imports.d.ts")],
    };
    writeFileSync(join(work, "tsconfig.json"), JSON.stringify(tsconfig, null, 2), { mode: 0o600 });
    run([join(ROOT, "node_modules/.bin/tsc"), "-p", join(work, "tsconfig.json")], "tsc --emitDeclarationOnly");
    const entries = ENTRIES.map((e) => relative("src", e.source).replace(/\.ts$/, ".d.ts"));
    const read = (path: string) => (existsSync(join(emitted, path)) ? readFileSync(join(emitted, path), "utf8") : undefined);
    const closure = declarationClosure(entries, read, new Set(TYPE_DEPENDENCIES));
    if (closure.problems.length > 0) throw new Error(`the SDK's declarations are not fit to publish:\n${closure.problems.join("\n")}`);
    for (const file of closure.files) {
      const target = join(outDir, "types", file);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, rewriteRelativeSpecifiers(read(file)!));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function dependencyRanges(): Record<string, string> {
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  return Object.fromEntries(TYPE_DEPENDENCIES.map((name) => [name, own.dependencies[name]!]));
}

export async function buildSdk(outDir: string): Promise<{ packageFields: Record<string, unknown> }> {
  rmSync(join(outDir, "lib"), { recursive: true, force: true });
  rmSync(join(outDir, "types"), { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await buildJavaScript(outDir);
  buildDeclarations(outDir);
  const exports = Object.fromEntries(
    ENTRIES.map((e) => [e.subpath, e.runs ? { types: sourceToDts(e.source), import: sourceToJs(e.source) } : { types: sourceToDts(e.source) }]),
  );
  return {
    packageFields: {
      type: "module",
      exports: { ...exports, "./package.json": "./package.json" },
      types: sourceToDts(ENTRIES[0].source),
      engines: { node: ">=20" },
      // The declarations name valibot's and TypeBox's types (messages, tool parameters); the code needs neither.
      dependencies: dependencyRanges(),
      files: ["lib", "types"],
    },
  };
}

if (import.meta.main) {
  const outDir = process.argv[2] ?? join(ROOT, "dist", "sdk");
  const { packageFields } = await buildSdk(outDir);
  writeFileSync(join(outDir, "package-fields.json"), `${JSON.stringify(packageFields, null, 2)}\n`);
  console.log(`built the SDK in ${outDir} (package.json fields: ${join(outDir, "package-fields.json")})`);
}
