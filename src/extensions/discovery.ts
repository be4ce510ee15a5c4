/**
 * Finding extensions, in upstream Pi's order under pig's directories, and deciding how each one
 * runs. Load order decides which extension sees an event first and who keeps a contested tool
 * name: `-e` paths, project settings entries, the project's `.pig/extensions/` (trusted projects
 * only), user settings entries, then `<agentDir>/extensions/`. A path seen twice loads once.
 *
 * As upstream:
 * - a `-e` directory that is a package (resources/packages.ts) contributes the extensions of its
 *   manifest or its `extensions/` folder, and nothing else of it runs (its skills, prompts and
 *   themes are loaded with the other resources); any other `-e` directory is one extension;
 * - a settings `extensions` array mixes paths with filter patterns (resource-patterns.ts). The
 *   paths' extensions are filtered by every pattern of the array; the extensions found in the
 *   same scope's `extensions/` folder only by its `!`, `+` and `-` entries. A settings directory
 *   is read as an extensions folder, never as a package;
 * - the first place a file turns up decides: disabled there, it stays off even if a later
 *   settings scope or folder would enable it (`-e` paths always load).
 */
import { linkedExtensions } from "./linked.ts";
import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import { collectExtensionFiles, EXTENSION_MANIFEST_FILE as MANIFEST_FILE, extensionEntryPoints } from "../resources/resource-files.ts";
import { expandTilde } from "../resources/resource-paths.ts";
import { applyPatterns, enabledByOverrides, splitEntries } from "../resources/resource-patterns.ts";
import { readLocalPackage } from "../resources/packages.ts";
import { temporaryPackageDir } from "../resources/temporary-package-place.ts";
import type { CommandSpec, ToolSpec } from "./protocol.ts";

export type ExtensionOrigin = "cli" | "project-settings" | "project" | "user-settings" | "user";

export interface ExtensionSource {
  /** Absolute path; the extension's id on the wire and in messages. */
  id: string;
  /** What the TypeScript runner imports (TS sources); for others the same as `id`. */
  entry: string;
  /** `linked`: built into this Piglet Binary (linked.ts), run in pig's own process. */
  runtime: "typescript" | "command" | "linked";
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
  /** Extension files of installed packages (settings `packages`), loaded after everything else, as upstream. */
  packagePaths?: readonly { path: string; scope: "user" | "project" }[];
}

export interface DiscoveryResult {
  sources: ExtensionSource[];
  /** Upstream's wording: `Extension path does not exist: <p>`, `Failed to load extension "<path>": <error>`. */
  errors: string[];
}

const TS_EXTS = new Set([".ts", ".js", ".mjs"]);

/** A file that may load, with where it was found; `enabled: false` keeps it off and hides later sightings. */
interface Candidate {
  path: string;
  origin: ExtensionOrigin;
  enabled: boolean;
}

export function discoverExtensions(options: DiscoveryOptions): DiscoveryResult {
  const errors: string[] = [];
  const home = homedir();
  const cli = cliCandidates(options, home, errors);
  const discovered: Candidate[] = [];
  if (!options.noExtensions) {
    const projectBase = join(options.cwd, ".pig");
    const scope = (entries: readonly string[] | undefined, base: string, file: string, origins: [ExtensionOrigin, ExtensionOrigin], withFolder: boolean) => {
      const list = entries ?? [];
      discovered.push(...settingsCandidates(list, base, file, origins[0], home, errors));
      if (!withFolder) return;
      for (const path of collectExtensionFiles(join(base, "extensions"))) {
        discovered.push({ path, origin: origins[1], enabled: enabledByOverrides(path, list, base) });
      }
    };
    scope(options.projectSettingsPaths, projectBase, join(projectBase, "settings.json"), ["project-settings", "project"], options.projectTrusted);
    scope(options.userSettingsPaths, options.agentDir, join(options.agentDir, "settings.json"), ["user-settings", "user"], true);
    for (const { path, scope: from } of options.packagePaths ?? []) {
      discovered.push({ path, origin: from === "project" ? "project-settings" : "user-settings", enabled: true });
    }
  }
  const sources: ExtensionSource[] = [];
  const seen = new Set<string>();
  // A Piglet Binary's linked extensions come first, as if given with `-e`, --no-extensions or
  // not: they are part of the binary. The same file given again is the linked one.
  for (const l of linkedExtensions()) {
    seen.add(canonical(l.id));
    sources.push({ ...typescriptSource(l.id, l.id, "cli"), runtime: "linked" });
  }
  for (const { path, origin } of [...firstSightings(cli), ...firstSightings(discovered)]) {
    for (const source of sourcesOf(path, origin, errors)) {
      const key = canonical(source.id);
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(source);
    }
  }
  return { sources, errors };
}

/** Each `-e` value: a file, a package's extensions, or a directory that is one extension (or, in pig, a folder of them). */
function cliCandidates(options: DiscoveryOptions, home: string, errors: string[]): Candidate[] {
  const out: Candidate[] = [];
  // A linked extension is inside the binary: its path need not exist on this machine.
  const linked = new Set(linkedExtensions().map((l) => l.id));
  for (const raw of options.cliPaths ?? []) {
    const path = temporaryPackageDir(raw, options.cwd) ?? resolve(options.cwd, expandTilde(raw, home));
    if (linked.has(path)) continue;
    if (!existsSync(path)) {
      errors.push(`Extension path does not exist: ${path} (-e ${raw})`);
      continue;
    }
    if (!isDirectory(path)) {
      out.push({ path, origin: "cli", enabled: true });
      continue;
    }
    const pkg = readLocalPackage(path);
    const files = pkg ? pkg.extensions : collectExtensionFiles(path);
    if (!pkg && files.length === 0) errors.push(`Failed to load extension "${path}": no extension in this directory (-e ${raw})`);
    for (const file of files) out.push({ path: file, origin: "cli", enabled: true });
  }
  return out;
}

/** A settings array: its paths' extensions, each enabled or not by the array's patterns. */
function settingsCandidates(
  entries: readonly string[],
  base: string,
  settingsFile: string,
  origin: ExtensionOrigin,
  home: string,
  errors: string[],
): Candidate[] {
  const where = `in "extensions" of ${settingsFile}`;
  const { plain, patterns } = splitEntries(entries);
  for (const pattern of patterns) {
    if (/^[!+-]$/.test(pattern.trim())) errors.push(`Extension pattern "${pattern}" names nothing (${where})`);
  }
  const files: string[] = [];
  for (const entry of plain) {
    const path = resolve(base, expandTilde(entry, home));
    if (!existsSync(path)) errors.push(`Extension path does not exist: ${path} (${where}: "${entry}")`);
    else files.push(...(isDirectory(path) ? collectExtensionFiles(path) : [path]));
  }
  const enabled = applyPatterns(files, patterns, base);
  return files.map((path) => ({ path, origin, enabled: enabled.has(path) }));
}

/** Each file at its first sighting, and only if enabled there. */
function firstSightings(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = canonical(c.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return c.enabled;
  });
}

/** How a found path runs: a manifest, a TS/JS module, a Python file, or a directory's entry points. */
function sourcesOf(path: string, origin: ExtensionOrigin, errors: string[]): ExtensionSource[] {
  if (isDirectory(path)) {
    const entries = extensionEntryPoints(path);
    if (entries) return entries.flatMap((p) => (isDirectory(p) ? [] : sourcesOf(p, origin, errors)));
    errors.push(`Failed to load extension "${path}": no index.ts, index.js, package.json "pi.extensions" or ${MANIFEST_FILE} in this directory`);
    return [];
  }
  if (basename(path) === MANIFEST_FILE) return fromManifest(path, origin, errors);
  const ext = extname(path);
  if (TS_EXTS.has(ext)) return [typescriptSource(path, path, origin)];
  if (ext === ".py") return [commandSource(path, ["python3", path], origin)];
  errors.push(`Failed to load extension "${path}": not a .ts, .js, .mjs or .py file, nor a ${MANIFEST_FILE}`);
  return [];
}

function fromManifest(file: string, origin: ExtensionOrigin, errors: string[]): ExtensionSource[] {
  try {
    // Loaded when a manifest is found: its schemas and the protocol's are not a cost of a run
    // without manifests.
    const { readManifest, ManifestError } = require("./manifest.ts") as typeof import("./manifest.ts");
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

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
