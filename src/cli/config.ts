/**
 * `pig config [-l] [--trust]`: which resources of each installed package (and of the settings
 * file itself) load, chosen in checklists and written back to the user's settings, or with `-l`
 * the project's, in upstream Pi's pattern syntax (resources/resource-toggles.ts). Nothing is
 * written until the person confirms the summary; Escape or Ctrl+C at any question writes nothing.
 */
import { cancel, confirm, intro, isCancel, log, note, outro } from "@clack/prompts";
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { configChoices, hasOwnFiles, type ConfigChoices } from "../resources/config-choices.ts";
import { RESOURCE_KINDS, type ResourceKind } from "../resources/resource-paths.ts";
import { packageFilterFor, scopeListFor, withFilters, type ResourceList } from "../resources/resource-toggles.ts";
import { globalSettingsPath, projectSettingsPath, type Settings } from "../resources/settings.ts";
import { SettingsStore, type SettingsScope } from "../resources/settings-store.ts";
import { askTrust, canAsk, decideTrust } from "../resources/trust.ts";
import { agentDir as defaultAgentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { askChecklist, changeLines, type ByKind, type Checklist } from "./config-checklists.ts";
import { CliError, tidyParseError, UsageError } from "./errors.ts";
import { PACKAGES_HELP } from "./packages.ts";

/** The exit code of a cancelled `pig config`, as for a run ended by Ctrl+C. */
export const CANCELLED = 130;

const HELP = "pig config --help";

/** In a project not yet trusted: the trust question (or `--trust`). False when the person cancelled it. */
async function trustProject(cwd: string, agentDir: string, flag: boolean): Promise<boolean> {
  let cancelled = false;
  const outcome = await decideTrust({
    cwd,
    agentDir,
    interactive: true,
    ...(flag ? { flag: true } : {}),
    ask: async (found, project) => {
      const answer = await askTrust(found, project);
      cancelled = answer === undefined;
      return answer;
    },
  });
  for (const d of outcome.diagnostics) writeStderr(`pig: warning: ${d}\n`);
  if (outcome.trusted) return true;
  if (cancelled) return false;
  throw new CliError(
    outcome.reason === "remembered"
      ? `config -l: ${outcome.project} is not trusted (decided earlier); pass --trust to change its settings`
      : `config -l: ${outcome.project} is not trusted; nothing written`,
  );
}

function byKind<T>(make: (kind: ResourceKind) => T): ByKind<T> {
  return { extensions: make("extensions"), skills: make("skills"), prompts: make("prompts"), themes: make("themes") };
}

interface Target {
  list: Checklist;
  /** Puts the choice into `settings`; the top-level keys it changed. */
  apply(chosen: ByKind<Set<string>>, settings: Settings): (keyof Settings & string)[];
}

function targets(choices: ConfigChoices, file: string): Target[] {
  const out: Target[] = choices.packages.map(({ pkg, root, files, enabled }) => ({
    list: { title: pkg.source.raw, base: root, files, enabled },
    apply(chosen, settings) {
      const filters: Partial<ByKind<ResourceList>> = {};
      for (const kind of RESOURCE_KINDS) {
        const next = packageFilterFor(files[kind], pkg.filters[kind], chosen[kind], root);
        if (next !== pkg.filters[kind]) filters[kind] = next;
      }
      if (Object.keys(filters).length === 0) return [];
      const list = [...(settings.packages ?? [])];
      list[pkg.index] = withFilters(pkg.entry, filters);
      settings.packages = list;
      return ["packages"];
    },
  }));
  const { own } = choices;
  if (hasOwnFiles(own)) {
    out.push({
      list: { title: `${file}: its own resources`, base: own.base, files: byKind((kind) => own.files[kind].map((f) => f.path)), enabled: own.enabled },
      apply(chosen, settings) {
        return RESOURCE_KINDS.filter((kind) => {
          const next = scopeListFor(own.files[kind], own.lists[kind], chosen[kind], own.base);
          if (next === own.lists[kind]) return false;
          settings[kind] = next === undefined ? undefined : [...next];
          return true;
        });
      },
    });
  }
  return out;
}

export async function runConfig(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: false, strict: true, options: { local: { type: "boolean", short: "l" }, trust: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    throw new UsageError(`config: ${tidyParseError(error)}`, HELP);
  }
  if (parsed.values.help) {
    writeStdout(PACKAGES_HELP);
    return 0;
  }
  if (!canAsk()) {
    throw new UsageError("config needs a terminal: it asks with checklists on stdin and stdout (or edit the settings' \"packages\" by hand, see docs/packages.md)", HELP);
  }
  const cwd = process.cwd();
  const agentDir = defaultAgentDir();
  const local = parsed.values.local === true;
  if (local && !(await trustProject(cwd, agentDir, parsed.values.trust === true))) {
    cancel("Nothing written.");
    return CANCELLED;
  }
  const scope: SettingsScope = local ? "project" : "global";
  const file = local ? projectSettingsPath(cwd) : globalSettingsPath(agentDir);
  const store = SettingsStore.load({ agentDir, cwd, includeProject: local });
  if (!store.writable(scope)) {
    const why = store.drainDiagnostics().map((d) => d.message).join("; ");
    throw new CliError(`config: pig cannot change ${file} as it is${why ? `: ${why}` : ""}`);
  }
  const settings = local ? store.project : store.global;
  const choices = configChoices(settings, local ? "project" : "user", { agentDir, cwd, home: homedir() });
  const all = targets(choices, file);
  if (all.length === 0) {
    for (const problem of choices.problems) writeStderr(`pig: warning: ${problem}\n`);
    writeStdout(
      choices.problems.length > 0
        ? `No package in ${file} can be configured.\n`
        : `No packages in ${file} (pig install <source>${local ? " -l" : ""} adds one).\n`,
    );
    return 0;
  }

  intro(`pig config: ${file}`);
  for (const problem of choices.problems) log.warn(problem);
  if (choices.packages.length === 0) log.info(`No packages in ${file}.`);
  const answers: ByKind<Set<string>>[] = [];
  for (const target of all) {
    const chosen = await askChecklist(target.list);
    if (!chosen) {
      cancel("Nothing written.");
      return CANCELLED;
    }
    answers.push(chosen);
  }

  const summary: string[] = [];
  const next = structuredClone(settings);
  const changed = new Set<keyof Settings & string>();
  all.forEach((target, i) => {
    const lines = changeLines(target.list, answers[i]!);
    if (lines.length === 0) return;
    summary.push(target.list.title, ...lines);
    for (const key of target.apply(answers[i]!, next)) changed.add(key);
  });
  const changes = [...changed].map((key) => [[key], next[key]] as const);
  if (changes.length === 0) {
    outro("Nothing changed; nothing written.");
    return 0;
  }
  note(summary.join("\n"), "Changes");
  const ok = await confirm({ message: `Save them to ${file}?` });
  if (isCancel(ok)) {
    cancel("Nothing written.");
    return CANCELLED;
  }
  if (!ok) {
    outro("Nothing written.");
    return 0;
  }
  if (!store.setAll(scope, changes)) {
    const why = store.drainDiagnostics().map((d) => d.message).join("; ");
    throw new CliError(`config: could not save ${file}${why ? `: ${why}` : ""}`);
  }
  outro(`Saved ${file}.`);
  return 0;
}
