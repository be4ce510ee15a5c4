/**
 * `pig install <source> [-l]`, `pig remove|uninstall <source> [-l]`, `pig update <source>|--extensions` (update.ts routes them here) and
 * `pig list`: packages (resources/package-source.ts, package-install.ts) recorded in the user's
 * settings, or with `-l` the project's (`.pig/settings.json`). On a terminal a spinner shows the
 * step under way; elsewhere each step is one line on stderr. npm's and git's own output is
 * captured, and only its end is shown, when a step fails.
 */
import { spinner } from "@clack/prompts";
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { installPackage, isInstalled, packageDir, PackageInstallError, removePackage, scopeDir, updatePackage, type InstallPlace, type InstallScope } from "../resources/package-install.ts";
import { PackageSourceError, parsePackageSource, samePackage, type PackageSource } from "../resources/package-source.ts";
import { SettingsStore } from "../resources/settings-store.ts";
import { canAsk, decideTrust } from "../resources/trust.ts";
import type { Settings } from "../resources/settings.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";
import { hideUrlCredentials } from "../util/redact.ts";
import { CliError, tidyParseError, UsageError } from "./errors.ts";

export const PACKAGE_COMMANDS = ["install", "remove", "uninstall", "update", "list"] as const;

export const PACKAGES_HELP = `Usage:
  pig install <source> [-l]     Install a package and record it in settings
  pig remove <source> [-l]      Remove it (also: uninstall)
  pig update <source>           Update one package (pig update --extensions: all unpinned ones;
                                pig update alone updates pig itself, see pig update --help)
  pig list                      The packages of the user's and the project's settings
  pig config [-l] [--trust]     Choose which resources of each package load (checklists)

Sources: npm:<name>[@version], git:<host>/<path>[@ref], git:git@<host>:<path>[@ref],
https://… ssh://… git://… file://… [@ref], or a local path. A version or ref pins it.

Options:
  -l, --local   the project's settings (.pig/settings.json) and .pig/ instead of the user's
  --ignore-scripts  npm runs no install scripts of the package or its dependencies
                (install, update; also the npmIgnoreScripts setting)
  --trust       trust the project for this command (its settings and packages count)
  --no-trust    leave the project's settings and packages out
  -h, --help    this help

npm runs the install scripts (preinstall, install, postinstall) of what it installs, as you;
pig says so before it runs npm. --ignore-scripts (or "npmIgnoreScripts": true) stops them, and
a package that needs a build step may then not work.

A project counts only when it is trusted: -l asks on a terminal (and remembers the answer) and
is refused elsewhere without --trust; list and update leave an untrusted project's packages out.
`;

type Entry = NonNullable<Settings["packages"]>[number];
const rawOf = (entry: Entry) => (typeof entry === "string" ? entry : entry.source);

interface Context {
  store: SettingsStore;
  agentDir: string;
  cwd: string;
  /** `--ignore-scripts` was given. */
  ignoreScripts: boolean;
}

function settingsDir(scope: InstallScope, ctx: Context): string {
  return scopeDir({ agentDir: ctx.agentDir, cwd: ctx.cwd, scope });
}

function parse(raw: string, base: string): PackageSource {
  try {
    return parsePackageSource(raw, base);
  } catch (error) {
    if (error instanceof PackageSourceError) throw new CliError(error.message);
    throw error;
  }
}

/** Progress: a spinner on a terminal, a line per step on stderr otherwise. */
function progress(): { step(text: string): void; note(text: string): void; done(text: string): void; fail(text: string): void } {
  if (process.stderr.isTTY && process.stdout.isTTY) {
    const s = spinner();
    let started = false;
    let current = "";
    return {
      step(text) {
        if (started) s.message(shownStep(text));
        else s.start(shownStep(text));
        started = true;
        current = text;
      },
      // A note stays on the screen: the spinner's line is ended first, and the next step starts a new one.
      note(text) {
        if (started) s.stop(current);
        started = false;
        writeStderr(`pig: note: ${text}\n`);
      },
      done(text) {
        if (started) s.stop(shownStep(text));
        else writeStdout(`${shownStep(text)}\n`);
      },
      fail(text) {
        if (started) s.error(shownStep(text));
        else writeStderr(`${text}\n`);
      },
    };
  }
  return {
    step: (text) => writeStderr(`pig: ${text}\n`),
    note: (text) => writeStderr(`pig: note: ${text}\n`),
    done: (text) => writeStdout(`${shownStep(text)}\n`),
    fail: () => {},
  };
}

function entries(ctx: Context, scope: InstallScope): Entry[] {
  const settings = scope === "user" ? ctx.store.global : ctx.store.project;
  return [...(settings.packages ?? [])];
}

function save(ctx: Context, scope: InstallScope, list: Entry[]): void {
  const saved = scope === "user" ? ctx.store.setGlobal(["packages"], list) : ctx.store.setProject(["packages"], list);
  if (!saved) {
    const why = ctx.store.drainDiagnostics().map((d) => d.message).join("; ");
    throw new CliError(`could not record the package in the settings${why ? `: ${why}` : ""}`);
  }
}

/** What settings keep for a source: a local path absolute (user) or relative to `.pig/` (project). */
function recorded(raw: string, source: PackageSource, scope: InstallScope, ctx: Context): string {
  if (source.kind !== "local") return raw.trim();
  return scope === "user" ? source.path : relative(settingsDir(scope, ctx), source.path) || ".";
}

async function install(raw: string, scope: InstallScope, ctx: Context): Promise<number> {
  // A local path on the command line is the user's, relative to where they are.
  const source = parse(raw, ctx.cwd);
  const place: InstallPlace = { agentDir: ctx.agentDir, cwd: ctx.cwd, scope };
  const show = progress();
  let dir: string;
  try {
    dir = await installPackage(source, place, { ...npmOption(ctx), step: (s) => show.step(s), notice: (n) => show.note(n) });
  } catch (error) {
    if (!(error instanceof PackageInstallError)) throw error;
    show.fail(`could not install ${raw}`);
    throw new CliError(`install ${error.message}`);
  }
  const keep = recorded(raw, source, scope, ctx);
  const base = settingsDir(scope, ctx);
  const list = entries(ctx, scope);
  const at = list.findIndex((e) => names(e, base, source));
  if (at >= 0) {
    const old = list[at]!;
    list[at] = typeof old === "string" ? keep : { ...old, source: keep };
  } else list.push(keep);
  save(ctx, scope, list);
  show.done(`installed ${raw} (${dir}) in the ${scope === "user" ? "user's" : "project's"} settings`);
  return 0;
}

/** A settings entry as a source; undefined for one that cannot be read (said where the settings are listed). */
function parsedEntry(entry: Entry, base: string): PackageSource | undefined {
  try {
    return parsePackageSource(rawOf(entry), base);
  } catch (error) {
    if (error instanceof PackageSourceError) return undefined;
    throw error;
  }
}

/** Whether a settings entry names the package `source`. */
function names(entry: Entry, base: string, source: PackageSource): boolean {
  const parsed = parsedEntry(entry, base);
  return parsed !== undefined && samePackage(parsed, source);
}

async function remove(raw: string, scope: InstallScope, ctx: Context): Promise<number> {
  const wanted = parse(raw, ctx.cwd);
  const base = settingsDir(scope, ctx);
  const list = entries(ctx, scope);
  const kept = list.filter((e) => !names(e, base, wanted));
  if (kept.length === list.length) {
    throw new CliError(`remove: ${raw} is not in the ${scope === "user" ? "user's" : "project's"} settings${scope === "user" ? " (a project's package needs -l)" : ""}`);
  }
  const show = progress();
  try {
    await removePackage(wanted, { agentDir: ctx.agentDir, cwd: ctx.cwd, scope }, { ...npmOption(ctx), step: (s) => show.step(s) });
  } catch (error) {
    if (!(error instanceof PackageInstallError)) throw error;
    show.fail(`could not remove ${raw}`);
    throw new CliError(`remove ${error.message}`);
  }
  save(ctx, scope, kept);
  show.done(`removed ${raw}`);
  return 0;
}

/** How npm runs: the `npmCommand` setting, and no lifecycle scripts with `--ignore-scripts` or the `npmIgnoreScripts` setting. */
function npmOption(ctx: Context): { npmCommand?: string[]; ignoreScripts: boolean } {
  const settings = ctx.store.effective();
  const command = settings.npmCommand;
  const ignoreScripts = ctx.ignoreScripts || settings.npmIgnoreScripts;
  return { ...(command && command.length > 0 ? { npmCommand: command } : {}), ignoreScripts };
}

/** Every package of both settings files, the project's first; an entry that is not a source is said on stderr. */
function allPackages(ctx: Context): { source: PackageSource; scope: InstallScope }[] {
  return (["project", "user"] as const).flatMap((scope) =>
    entries(ctx, scope).flatMap((entry) => {
      const source = parsedEntry(entry, settingsDir(scope, ctx));
      if (!source) writeStderr(`pig: warning: ${JSON.stringify(rawOf(entry))} in the ${scope === "user" ? "user's" : "project's"} "packages" is not a package source; skipped\n`);
      return source ? [{ source, scope }] : [];
    }),
  );
}

async function update(only: string | undefined, ctx: Context): Promise<number> {
  const wanted = only !== undefined ? parse(only, ctx.cwd) : undefined;
  const targets = allPackages(ctx).filter((p) => !wanted || samePackage(p.source, wanted));
  if (wanted && targets.length === 0) throw new CliError(`update: ${only} is not in the user's or the project's settings`);
  const show = progress();
  const lines: string[] = [];
  let failed = 0;
  for (const { source, scope } of targets) {
    try {
      const updated = await updatePackage(
        source,
        { agentDir: ctx.agentDir, cwd: ctx.cwd, scope },
        { ...npmOption(ctx), step: (s) => show.step(`${source.raw}: ${s}`), notice: (n) => show.note(`${source.raw}: ${n}`) },
      );
      lines.push(`${source.raw}: ${updated ? "updated" : source.kind === "local" ? "a local path (nothing to update)" : "pinned (skipped)"}`);
    } catch (error) {
      if (!(error instanceof PackageInstallError)) throw error;
      failed++;
      lines.push(`${source.raw}: could not update: ${error.message}`);
    }
  }
  show.done(lines.length > 0 ? lines.join("\n") : "no packages in the settings");
  return failed > 0 ? 1 : 0;
}

/** A step's words name sources and quote npm and git: controls shown, URLs without their credentials (stderr lines get this in writeStderr). */
function shownStep(text: string): string {
  return terminalSafe(hideUrlCredentials(text));
}

function list(ctx: Context): number {
  const all = allPackages(ctx);
  if (all.length === 0) {
    writeStdout("No packages (pig install <source> adds one).\n");
    return 0;
  }
  for (const { source, scope } of all) {
    const place = { agentDir: ctx.agentDir, cwd: ctx.cwd, scope };
    const state = isInstalled(source, place) ? packageDir(source, place) : "not installed";
    writeStdout(terminalSafe(`${source.raw}  ${scope}${source.kind !== "local" && source.pinned ? "  pinned" : ""}\n  ${state}\n`));
  }
  return 0;
}

/**
 * Whether the project's settings count for this command. Writing to the project (`install -l`,
 * `remove -l`) needs trust: asked on a terminal, refused elsewhere. Reading it (`list`, `update`)
 * takes a remembered decision or the flag, and says what it left out.
 */
async function projectTrusted(command: string, writesProject: boolean, flag: boolean | undefined, cwd: string, dir: string): Promise<boolean> {
  const outcome = await decideTrust({ cwd, agentDir: dir, interactive: writesProject && canAsk(), ...(flag !== undefined ? { flag } : {}) });
  for (const line of outcome.diagnostics) writeStderr(`pig: warning: ${line}\n`);
  if (writesProject && !outcome.trusted) {
    throw new CliError(`${command} -l: ${outcome.project} is not a trusted project, so pig does not change its packages (pass --trust to trust it for this command)`);
  }
  return outcome.trusted;
}

/** Says on stderr that an untrusted project's packages were left out, when it names any. */
function noteUntrustedProject(cwd: string, dir: string): void {
  const project = SettingsStore.load({ agentDir: dir, cwd, includeProject: true }).project.packages ?? [];
  if (project.length > 0) writeStderr(`pig: ${project.length} package(s) of the project's settings left out: the project is not trusted (--trust includes them)\n`);
}

/** The package commands' flags; `pig update` takes them too and passes them on. */
export const PACKAGE_OPTIONS = {
  local: { type: "boolean", short: "l" },
  trust: { type: "boolean" },
  "no-trust": { type: "boolean" },
  "ignore-scripts": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runPackages(command: (typeof PACKAGE_COMMANDS)[number], argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: PACKAGE_OPTIONS,
    });
  } catch (error) {
    throw new UsageError(`${command}: ${tidyParseError(error)}`, "pig install --help");
  }
  if (parsed.values.help) {
    writeStdout(PACKAGES_HELP);
    return 0;
  }
  if (parsed.values.trust && parsed.values["no-trust"]) throw new UsageError(`${command}: --trust and --no-trust cannot be combined`, "pig install --help");
  const cwd = process.cwd();
  const dir = agentDir();
  const scope: InstallScope = parsed.values.local ? "project" : "user";
  const flag = parsed.values.trust ? true : parsed.values["no-trust"] ? false : undefined;
  const writesProject = scope === "project" && command !== "list" && command !== "update";
  const trusted = await projectTrusted(command, writesProject, flag, cwd, dir);
  if (!trusted && (command === "list" || command === "update") && flag === undefined) noteUntrustedProject(cwd, dir);
  // An untrusted project's settings are not read at all: they could name the npm command.
  const ignoreScripts = parsed.values["ignore-scripts"] === true;
  if (ignoreScripts && command !== "install" && command !== "update") {
    throw new UsageError(`${command}: --ignore-scripts applies to install and update only`, "pig install --help");
  }
  const ctx: Context = { store: SettingsStore.load({ agentDir: dir, cwd, includeProject: trusted }), agentDir: dir, cwd, ignoreScripts };
  const [first, ...rest] = parsed.positionals;
  if (rest.length > 0) throw new UsageError(`${command}: takes one source (got also ${JSON.stringify(rest[0])})`, "pig install --help");
  switch (command) {
    case "install":
    case "remove":
    case "uninstall":
      if (first === undefined) throw new UsageError(`${command}: name a package source`, "pig install --help");
      return command === "install" ? install(first, scope, ctx) : remove(first, scope, ctx);
    case "update":
      return update(first, ctx);
    case "list":
      if (first !== undefined) throw new UsageError(`list: takes no operands (got ${JSON.stringify(first)})`, "pig install --help");
      return list(ctx);
  }
}
