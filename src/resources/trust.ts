/**
 * Project trust. A checked-out repository can make pig run code or behave differently through
 * `.pig/` (settings, extensions, skills, prompts, themes, SYSTEM.md, APPEND_SYSTEM.md, project
 * packages) and `.agents/skills`. pig loads those only from projects the person trusts, asks once
 * per project, and remembers the answer in `<agentDir>/trust.json`. AGENTS.md / CLAUDE.md are
 * plain instructions to the model and load either way.
 *
 * The project is the git root above cwd (the nearest directory with a `.git` entry), else cwd;
 * both as real paths. So one answer covers every directory of a repository, including `.pig/`
 * dirs in its subdirectories.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import * as v from "valibot";
import { checkConfig, joinIssues } from "../util/config-issues.ts";
import { readConfigText } from "../util/config-read.ts";
import { isTerminal } from "../util/libc.ts";
import { parseJsonc } from "../util/jsonc.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { projectSettingsPath } from "./settings.ts";
import { withFileLock, writeFileAtomic } from "./settings-store.ts";

export type ProjectResourceKind =
  | "settings"
  | "package"
  | "extensions"
  | "skills"
  | "prompts"
  | "themes"
  | "piglets"
  | "system-prompt"
  | "append-system-prompt"
  | "agents-skills"
  | "mcp";

export interface ProjectResource {
  /** A file or directory path; for `package`, the package source as written in the settings. */
  path: string;
  kind: ProjectResourceKind;
}

function nonEmptyDir(path: string): boolean {
  try {
    return statSync(path).isDirectory() && readdirSync(path).length > 0;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The nearest directory at or above `dir` holding a `.git` entry (dir or worktree file). */
export function findGitRoot(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(join(current, ".git"))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The key a trust decision is stored under: the git root of cwd, else cwd (real paths). */
export function projectKey(cwd: string): string {
  const here = real(cwd);
  return findGitRoot(here) ?? here;
}

/** Package sources listed in the project settings file, read leniently (any parse error → none). */
function projectPackages(cwd: string): string[] {
  try {
    const raw = parseJsonc(readFileSync(projectSettingsPath(cwd), "utf8"));
    if (!isPlainObject(raw) || !Array.isArray(raw.packages)) return [];
    return raw.packages.flatMap((entry: unknown) => {
      if (typeof entry === "string") return [entry];
      if (isPlainObject(entry) && typeof entry.source === "string") return [entry.source];
      return [];
    });
  } catch {
    return [];
  }
}

/**
 * `.agents/skills` dirs the project contributes: cwd and its ancestors up to the git root (to
 * the filesystem root outside a repository), as skill discovery walks them; the person's own
 * `~/.agents/skills` is theirs, not the project's.
 */
function agentsSkillDirs(cwd: string, home: string): string[] {
  const start = real(cwd);
  const gitRoot = findGitRoot(start);
  const userDir = join(real(home), ".agents", "skills");
  const dirs: string[] = [];
  let current = start;
  for (;;) {
    const candidate = join(current, ".agents", "skills");
    if (candidate !== userDir) dirs.push(candidate);
    if (current === gitRoot) break;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return dirs;
}

/** What the project at `cwd` would make pig load. Empty directories do not count. */
export function findProjectResources(cwd: string, home: string = homedir()): ProjectResource[] {
  const dir = join(real(cwd), ".pig");
  const found: ProjectResource[] = [];
  const settings = join(dir, "settings.json");
  if (isFile(settings)) {
    found.push({ path: settings, kind: "settings" });
    for (const source of projectPackages(cwd)) found.push({ path: source, kind: "package" });
  }
  for (const kind of ["extensions", "skills", "prompts", "themes", "piglets"] as const) {
    if (nonEmptyDir(join(dir, kind))) found.push({ path: join(dir, kind), kind });
  }
  if (isFile(join(dir, "SYSTEM.md"))) found.push({ path: join(dir, "SYSTEM.md"), kind: "system-prompt" });
  if (isFile(join(dir, "APPEND_SYSTEM.md"))) found.push({ path: join(dir, "APPEND_SYSTEM.md"), kind: "append-system-prompt" });
  // MCP servers are programs to start and places to send requests to.
  if (isFile(join(dir, "mcp.json"))) found.push({ path: join(dir, "mcp.json"), kind: "mcp" });
  for (const skills of agentsSkillDirs(cwd, home)) {
    if (nonEmptyDir(skills)) found.push({ path: skills, kind: "agents-skills" });
  }
  return found;
}

// ---- trust.json -------------------------------------------------------------------------------

const DecisionSchema = v.looseObject({ trusted: v.boolean(), decidedAt: v.string() });
const TrustFileSchema = v.looseObject({ version: v.literal(1), projects: v.record(v.string(), DecisionSchema) });
export type TrustDecision = v.InferOutput<typeof DecisionSchema>;

export interface TrustFile {
  /** Decisions by project key (see `projectKey`). */
  projects: Record<string, TrustDecision>;
  /** Top-level keys pig does not know, written back as they were. */
  others: Record<string, unknown>;
  diagnostics: string[];
  /** The file exists but is not a valid trust file. */
  broken: boolean;
}

export function trustFilePath(agentDir: string): string {
  return join(agentDir, "trust.json");
}

function parseTrust(path: string): TrustFile {
  const read = readConfigText(path);
  if (read.kind === "absent") return { projects: {}, others: {}, diagnostics: [], broken: false };
  let problem: string;
  if (read.kind === "unreadable") problem = read.reason;
  else {
    try {
      const raw = parseJsonc(read.text);
      const checked = checkConfig(TrustFileSchema, raw, read.text);
      const warnings = checked.unknownKeys.map((words) => `${path}: ${words}; pig ignores it and keeps it`);
      if (checked.success) {
        const { version: _version, projects, ...others } = checked.output;
        return { projects, others, diagnostics: warnings, broken: false };
      }
      problem = joinIssues(checked.issues, 3);
    } catch (error) {
      problem = `not valid JSON: ${(error as Error).message}`;
    }
  }
  return {
    projects: {},
    others: {},
    broken: true,
    diagnostics: [`${path}: ${problem}; no project counts as trusted until it is fixed or replaced`],
  };
}

/** The remembered decisions. A broken file gives none and a diagnostic; it is never changed here. */
export function readTrust(agentDir: string): TrustFile {
  return parseTrust(trustFilePath(agentDir));
}

/**
 * Remembers a decision for `projectDir` (any directory inside the project). A broken trust.json
 * is moved aside to `trust.json.broken-<time>` first, never overwritten; the returned
 * diagnostics say so.
 */
export function recordTrust(agentDir: string, projectDir: string, trusted: boolean, now: Date = new Date()): string[] {
  const path = trustFilePath(agentDir);
  mkdirSync(agentDir, { recursive: true });
  return withFileLock(path, () => {
    const current = parseTrust(path);
    const diagnostics = [...current.diagnostics];
    if (current.broken) {
      const aside = `${path}.broken-${now.toISOString().replace(/[:.]/g, "-")}`;
      renameSync(path, aside);
      diagnostics.push(`moved the unusable ${path} to ${aside} and started a new one`);
    }
    const projects = { ...current.projects, [projectKey(projectDir)]: { trusted, decidedAt: now.toISOString() } };
    // 0600: the file lists the person's project paths.
    writeFileAtomic(path, `${JSON.stringify({ ...current.others, version: 1, projects }, null, 2)}\n`, 0o600);
    return diagnostics;
  });
}

// ---- Deciding ---------------------------------------------------------------------------------

export type TrustReason = "flag" | "remembered" | "extension" | "asked" | "nothing-to-trust" | "undecided";

export interface TrustOutcome {
  trusted: boolean;
  reason: TrustReason;
  /** For stderr: why project resources were skipped and how to decide. */
  message?: string;
  /** The project key the decision applies to. */
  project: string;
  found: ProjectResource[];
  diagnostics: string[];
}

export type TrustAsker = (found: ProjectResource[], project: string) => Promise<boolean | undefined>;

export interface DecideTrustOptions {
  cwd: string;
  agentDir: string;
  /** `--trust` (true) / `--no-trust` (false): this run only, never remembered. */
  flag?: boolean;
  /** Whether the run may ask (interactive mode). The default asker also needs TTYs. */
  interactive: boolean;
  /** Returns true/false, or undefined when the person cancelled. Defaults to `askTrust`. */
  ask?: TrustAsker;
  /**
   * Extensions' `project_trust` answer, asked when no decision is remembered, before the person
   * is; undefined when none decided. `remember` stores the answer as the person's would be.
   */
  askExtensions?: () => Promise<{ trusted: boolean; remember: boolean } | undefined>;
  home?: string;
}

/** Whether a question can be put to a person: both stdin and stdout are terminals. */
export function canAsk(): boolean {
  return isTerminal(0) && isTerminal(1);
}

function describe(found: ProjectResource[], project: string): string[] {
  return found.map((r) => (r.kind === "package" ? `package ${r.path}` : relative(project, r.path) || r.path));
}

/** Flag, then nothing to trust, then a remembered decision, then extensions, then asking; else not trusted. */
export async function decideTrust(options: DecideTrustOptions): Promise<TrustOutcome> {
  const found = findProjectResources(options.cwd, options.home);
  const project = projectKey(options.cwd);
  const base = { project, found, diagnostics: [] as string[] };
  if (options.flag !== undefined) return { ...base, trusted: options.flag, reason: "flag" };
  if (found.length === 0) return { ...base, trusted: true, reason: "nothing-to-trust" };

  const remembered = readTrust(options.agentDir);
  base.diagnostics.push(...remembered.diagnostics);
  const decision = remembered.projects[project];
  if (decision) return { ...base, trusted: decision.trusted, reason: "remembered" };

  const byExtension = await options.askExtensions?.();
  if (byExtension) {
    if (byExtension.remember) {
      try {
        base.diagnostics.push(...recordTrust(options.agentDir, project, byExtension.trusted));
      } catch (error) {
        base.diagnostics.push(`could not remember the decision for ${project}: ${(error as Error).message}`);
      }
    }
    return { ...base, trusted: byExtension.trusted, reason: "extension" };
  }

  const ask = options.ask ?? (options.interactive && canAsk() ? askTrust : undefined);
  if (options.interactive && ask) {
    const answer = await ask(found, project);
    if (answer === undefined) {
      return {
        ...base,
        trusted: false,
        reason: "undecided",
        message: `Not trusting ${project} for this run (no answer given); pig will ask again next time.`,
      };
    }
    try {
      base.diagnostics.push(...recordTrust(options.agentDir, project, answer));
    } catch (error) {
      base.diagnostics.push(`could not remember the decision for ${project}: ${(error as Error).message}`);
    }
    return { ...base, trusted: answer, reason: "asked" };
  }
  return {
    ...base,
    trusted: false,
    reason: "undecided",
    message:
      `pig: ignoring project resources in ${project} (${describe(found, project).join(", ")}): this project has not been trusted yet. ` +
      `Run pig interactively there once to decide, or pass --trust to trust it for this run (--no-trust skips them without this note).`,
  };
}

/** The default question: a @clack/prompts confirmation listing what was found. */
export async function askTrust(
  found: ProjectResource[],
  project: string,
  streams: { input?: Readable; output?: Writable } = {},
): Promise<boolean | undefined> {
  // Loaded on demand: print and JSON runs never ask and need not pay for the prompt library.
  const { confirm, isCancel, note } = await import("@clack/prompts");
  const io = { ...(streams.input ? { input: streams.input } : {}), ...(streams.output ? { output: streams.output } : {}) };
  const list = describe(found, project).join("\n");
  note(
    [
      list,
      "",
      "Trusting the project lets pig load these files.",
      "Extensions and packages run code; settings can pick the shell.",
      "AGENTS.md and CLAUDE.md are read either way.",
      "pig remembers the answer; --trust / --no-trust override it once.",
    ].join("\n"),
    `${project} has its own pig configuration`,
    io,
  );
  const answer = await confirm({ message: `Trust ${project}?`, initialValue: false, ...io });
  return isCancel(answer) ? undefined : answer;
}
