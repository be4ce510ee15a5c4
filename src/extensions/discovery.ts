/**
 * Finding extensions, in upstream Pi's order under pig's directories, and deciding how each one
 * runs. Load order decides which extension sees an event first and who keeps a contested tool
 * name: `-e` paths, project settings entries, the project's `.pig/extensions/` (trusted projects
 * only), user settings entries, then `<agentDir>/extensions/`. A path seen twice loads once.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import { MANIFEST_FILE, ManifestError, readManifest } from "./manifest.ts";
import type { CommandSpec, ToolSpec } from "./protocol.ts";

export type ExtensionOrigin = "cli" | "project-settings" | "project" | "user-settings" | "user";

export interface ExtensionSource {
  /** Absolute path; the extension's id on the wire and in messages. */
  id: string;
  /** What the TypeScript runner imports (TS sources); for others the same as `id`. */
  entry: string;
  runtime: "typescript" | "command";
  /** For `command`: the argv. */
  command: string[];
  /** A TS extension that asked for a process of its own. */
  ownProcess: boolean;
  /** Credential variables it may see. */
  env: string[];
  activation: string[];
  tools: ToolSpec[];
  commands: CommandSpec[];
  /** Short name, for the log file. */
  name: string;
  origin: ExtensionOrigin;
}

export interface DiscoveryOptions {
  cwd: string;
  /** pig's agent directory (PIG_CODING_AGENT_DIR or ~/.pig/agent). */
  agentDir: string;
  projectTrusted: boolean;
  /** `-e/--extension` values, in order. */
  cliPaths?: readonly string[];
  /** `--no-extensions`: only the `-e` paths load. */
  noExtensions?: boolean;
  /** `extensions` of the project settings (relative to `<cwd>/.pig`). */
  projectSettingsPaths?: readonly string[];
  /** `extensions` of the user settings (relative to the agent dir). */
  userSettingsPaths?: readonly string[];
}

export interface DiscoveryResult {
  sources: ExtensionSource[];
  /** Upstream's wording: `Extension path does not exist: <p>`, `Failed to load extension "<path>": <error>`. */
  errors: string[];
}

const TS_EXTS = new Set([".ts", ".js", ".mjs"]);

export function discoverExtensions(options: DiscoveryOptions): DiscoveryResult {
  const sources: ExtensionSource[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const add = (found: ExtensionSource[]) => {
    for (const s of found) {
      const key = canonical(s.id);
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(s);
    }
  };
  const explicit = (entries: readonly string[] | undefined, base: string, origin: ExtensionOrigin) => {
    for (const entry of entries ?? []) {
      // Include/exclude patterns of the settings format are not supported for extensions yet.
      if (/[*?]/.test(entry) || /^[!+-]/.test(entry)) continue;
      const path = resolve(base, expandHome(entry));
      if (!existsSync(path)) {
        errors.push(`Extension path does not exist: ${path}`);
        continue;
      }
      add(fromPath(path, origin, errors, true));
    }
  };
  explicit(options.cliPaths, options.cwd, "cli");
  if (!options.noExtensions) {
    explicit(options.projectSettingsPaths, join(options.cwd, ".pig"), "project-settings");
    if (options.projectTrusted) add(fromDirectory(join(options.cwd, ".pig", "extensions"), "project", errors));
    explicit(options.userSettingsPaths, options.agentDir, "user-settings");
    add(fromDirectory(join(options.agentDir, "extensions"), "user", errors));
  }
  return { sources, errors };
}

/** One path named explicitly: a file, a manifest, a package directory, or a directory of extensions. */
function fromPath(path: string, origin: ExtensionOrigin, errors: string[], explicit: boolean): ExtensionSource[] {
  if (isFile(path)) {
    if (basename(path) === MANIFEST_FILE) return fromManifest(path, origin, errors);
    const ext = extname(path);
    if (TS_EXTS.has(ext)) return [typescriptSource(path, path, origin)];
    if (ext === ".py") return [commandSource(path, ["python3", path], origin)];
    if (explicit) errors.push(`Failed to load extension "${path}": not a .ts, .js, .mjs or .py file, nor a ${MANIFEST_FILE}`);
    return [];
  }
  const single = packageEntries(path, origin, errors);
  if (single) return single;
  return explicit ? fromDirectory(path, origin, errors) : [];
}

/** An extensions directory: each file and each package subdirectory, one level deep. */
function fromDirectory(dir: string, origin: ExtensionOrigin, errors: string[]): ExtensionSource[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const single = packageEntries(dir, origin, errors);
  if (single) return single;
  const out: ExtensionSource[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    if (isFile(path)) {
      if (TS_EXTS.has(extname(name)) || extname(name) === ".py") out.push(...fromPath(path, origin, errors, false));
    } else if (isDirectory(path)) {
      out.push(...(packageEntries(path, origin, errors) ?? []));
    }
  }
  return out;
}

/** A directory that is one extension (manifest, package.json `pi.extensions`, index file); else undefined. */
function packageEntries(dir: string, origin: ExtensionOrigin, errors: string[]): ExtensionSource[] | undefined {
  const manifest = join(dir, MANIFEST_FILE);
  if (isFile(manifest)) return fromManifest(manifest, origin, errors);
  const listed = packageJsonExtensions(dir);
  if (listed) return listed.flatMap((p) => fromPath(p, origin, errors, false));
  for (const index of ["index.ts", "index.js"]) {
    const path = join(dir, index);
    if (isFile(path)) return [typescriptSource(path, path, origin)];
  }
  return undefined;
}

function packageJsonExtensions(dir: string): string[] | undefined {
  const file = join(dir, "package.json");
  if (!isFile(file)) return undefined;
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, "utf8"));
    const pi = typeof pkg === "object" && pkg !== null ? (pkg as { pi?: { extensions?: unknown } }).pi : undefined;
    const list = pi?.extensions;
    if (!Array.isArray(list)) return undefined;
    return list.filter((p): p is string => typeof p === "string").map((p) => resolve(dir, p)).filter((p) => existsSync(p));
  } catch {
    return undefined;
  }
}

function fromManifest(file: string, origin: ExtensionOrigin, errors: string[]): ExtensionSource[] {
  try {
    const { manifest, main, command } = readManifest(file);
    const base = {
      id: file,
      env: manifest.env,
      activation: manifest.activation,
      tools: manifest.tools,
      commands: manifest.commands,
      name: manifest.name,
      origin,
    };
    if (main) {
      if (!existsSync(main)) throw new ManifestError(`${file}: main: ${main} does not exist`);
      return [{ ...base, entry: main, runtime: "typescript", command: [], ownProcess: manifest.process === "own" }];
    }
    return [{ ...base, entry: file, runtime: "command", command: command ?? [], ownProcess: true }];
  } catch (err) {
    errors.push(`Failed to load extension "${file}": ${(err as Error).message}`);
    return [];
  }
}

function typescriptSource(id: string, entry: string, origin: ExtensionOrigin): ExtensionSource {
  return {
    id,
    entry,
    runtime: "typescript",
    command: [],
    ownProcess: false,
    env: [],
    activation: ["onStartup"],
    tools: [],
    commands: [],
    name: nameOf(id),
    origin,
  };
}

function commandSource(id: string, command: string[], origin: ExtensionOrigin): ExtensionSource {
  return { ...typescriptSource(id, id, origin), runtime: "command", command, ownProcess: true };
}

function nameOf(path: string): string {
  const base = basename(path, extname(path));
  return base === "index" ? basename(resolve(path, "..")) : base;
}

function expandHome(p: string): string {
  return p === "~" ? homedir() : p.startsWith("~/") ? join(homedir(), p.slice(2)) : p;
}

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
