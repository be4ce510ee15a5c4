/**
 * The run's Piglet (resources/piglets.ts): the one named (`--piglet`, the SDK's `piglet`), else
 * the one the session last switched to (a `pig.piglet` custom entry), else a Piglet Binary's
 * default Piglet, read once trust is known
 * — a project's Piglets are read only in a trusted project. Its choices go into the run's config
 * as the matching flags would, and the flags given explicitly win over it.
 */
import { binaryIdentity } from "../binary-identity.ts";
import { readConfigText } from "../util/config-read.ts";
import { fieldLine } from "../resources/frontmatter.ts";
import type { Piglet } from "../resources/piglet.ts";
import { PigletError, UnknownPigletError, loadPiglet } from "../resources/piglets.ts";
import type { SessionStore } from "../session/store.ts";
import type { RuntimeConfig } from "./config.ts";
import { UserError } from "./errors.ts";

/** The custom entry a Piglet switch is recorded as: `{type:"custom", customType, data:{name}}`. */
export const PIGLET_ENTRY = "pig.piglet";

export interface RunPiglet {
  piglet: Piglet;
  /** Named for this run; false when restored from the session (its model then stays the session's). */
  explicit: boolean;
}

/** The name of the Piglet the session's active branch last switched to. */
export function recordedPiglet(store: SessionStore): string | undefined {
  // The records name each entry's type, so only custom entries are read (messages, most of a
  // long session's bytes, never are): opening a large session does not read it whole for this,
  // nor walk its branch when it holds no custom entry at all.
  if (!store.tree.holdsCustomEntries) return undefined;
  const branch = store.branchRecords();
  for (let i = branch.length - 1; i >= 0; i--) {
    const record = branch[i]!;
    if (record.type !== "custom") continue;
    const entry = store.readEntry(record);
    if (entry?.type !== "custom" || entry.customType !== PIGLET_ENTRY) continue;
    const name = (entry.data as { name?: unknown } | undefined)?.name;
    return typeof name === "string" ? name : undefined;
  }
  return undefined;
}

/** Records a switch to `name`, unless it is the one already recorded. */
export function recordPiglet(store: SessionStore, name: string): void {
  if (recordedPiglet(store) !== name) store.appendCustomEntry(PIGLET_ENTRY, { name });
}

/** Reads a Piglet, its problems as one clear line. */
export function readRunPiglet(name: string, where: { agentDir: string; cwd: string; trusted: boolean }, warnings: string[]): Piglet {
  try {
    const read = loadPiglet(name, where);
    warnings.push(...read.warnings);
    return read.piglet;
  } catch (error) {
    if (error instanceof PigletError || error instanceof UnknownPigletError) throw new UserError(error.message);
    throw error;
  }
}

/**
 * The Piglet of the run: named, or restored from the session. A restored one that cannot be read
 * any more is a warning: the session still opens, without it.
 */
export function choosePiglet(
  config: RuntimeConfig,
  store: SessionStore,
  where: { agentDir: string; cwd: string; trusted: boolean },
  warnings: string[],
): RunPiglet | undefined {
  if (config.piglet !== undefined) return { piglet: readRunPiglet(config.piglet, where, warnings), explicit: true };
  const recorded = recordedPiglet(store);
  if (recorded === undefined) {
    // A Piglet Binary's default Piglet: a new session takes all of it; a resumed one that
    // recorded none keeps its own model.
    const fallback = binaryIdentity().defaultPiglet;
    return fallback === undefined ? undefined : { piglet: readRunPiglet(fallback, where, warnings), explicit: store.branchRecords().length === 0 };
  }
  try {
    return { piglet: readRunPiglet(recorded, where, warnings), explicit: false };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    warnings.push(`the session's Piglet "${recorded}" is not restored: ${error.message}`);
    return undefined;
  }
}

/**
 * The config with the Piglet's choices where the config has none: model and thinking as
 * `--model`/`--thinking` (only when named for this run), tools as `--tools`, system prompt as
 * `--system-prompt`, its appended text before `--append-system-prompt`'s. Its lists of
 * extensions, skills and prompt templates are selections: as `-ne -e …`, `-ns --skill …` and
 * `-np --prompt-template …` — only what it names (and what the command line adds) loads.
 */
export function withPiglet(config: RuntimeConfig, run: RunPiglet | undefined): RuntimeConfig {
  if (!run) return config;
  const { piglet } = run;
  const flags = config.resources ?? {};
  const choice = config.extensions ?? {};
  return {
    ...config,
    ...(run.explicit && config.model === undefined && piglet.model !== undefined ? { model: piglet.model } : {}),
    ...(run.explicit && config.thinking === undefined && piglet.thinking !== undefined ? { thinking: piglet.thinking } : {}),
    ...(config.tools === undefined && !config.noTools && piglet.tools !== undefined ? { tools: piglet.tools } : {}),
    resources: {
      ...flags,
      ...(flags.systemPrompt === undefined && piglet.system !== undefined ? { systemPrompt: piglet.system } : {}),
      ...(piglet.appendSystem !== undefined ? { appendSystemPrompt: [piglet.appendSystem, ...(flags.appendSystemPrompt ?? [])] } : {}),
      ...(piglet.skills !== undefined ? { noSkills: true, skills: [...piglet.skills, ...(flags.skills ?? [])] } : {}),
      ...(piglet.prompts !== undefined ? { noPromptTemplates: true, promptTemplates: [...piglet.prompts, ...(flags.promptTemplates ?? [])] } : {}),
    },
    extensions: {
      ...choice,
      ...(piglet.extensions !== undefined ? { noExtensions: true, paths: [...piglet.extensions, ...(choice.paths ?? [])] } : {}),
    },
  };
}

/** A model the Piglet names that cannot be used, said as a fault of its file's `model` field. */
export function pigletModelError(piglet: Piglet, error: UserError): UserError {
  const read = readConfigText(piglet.filePath);
  const line = read.kind === "text" && piglet.filePath.endsWith(".md") ? fieldLine(read.text, "model") : undefined;
  return new UserError(`${piglet.filePath}${line ? `:${line}` : ""}: field "model": ${error.message}`, error.exitCode, error.warnings);
}
