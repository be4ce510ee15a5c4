/**
 * pig's command line, read left to right in one pass as upstream does: `@path` arguments attach
 * files, other words are messages. pig's own flags are known in advance; a `--name` that is none
 * of them may be an extension's, so it is kept aside (with the word after it, which may be its
 * value) until extensions have registered their flags: `resolveExtensionFlags` then gives each
 * its value, and names an option nobody registered as a usage error.
 */
import * as v from "valibot";
import type { FlagRegistry } from "../extensions/flags.ts";
import { THINKING_LEVELS } from "../session/format.ts";
import { UsageError } from "./errors.ts";

type FlagKind = "boolean" | "string" | "list" | "optional-string";

interface FlagSpec {
  key: keyof CliArgs;
  kind: FlagKind;
}

const FLAGS: Record<string, FlagSpec> = {
  "--help": { key: "help", kind: "boolean" },
  "-h": { key: "help", kind: "boolean" },
  "--version": { key: "version", kind: "boolean" },
  "-v": { key: "version", kind: "boolean" },
  "--print": { key: "print", kind: "boolean" },
  "-p": { key: "print", kind: "boolean" },
  "--mode": { key: "mode", kind: "string" },
  "--continue": { key: "continue", kind: "boolean" },
  "-c": { key: "continue", kind: "boolean" },
  "--resume": { key: "resume", kind: "boolean" },
  "-r": { key: "resume", kind: "boolean" },
  "--session": { key: "session", kind: "string" },
  "--session-dir": { key: "sessionDir", kind: "string" },
  "--no-session": { key: "noSession", kind: "boolean" },
  "--name": { key: "name", kind: "string" },
  "-n": { key: "name", kind: "string" },
  "--piglet": { key: "piglet", kind: "string" },
  "--provider": { key: "provider", kind: "string" },
  "--model": { key: "model", kind: "string" },
  "--models": { key: "models", kind: "string" },
  "--thinking": { key: "thinking", kind: "string" },
  "--api-key": { key: "apiKey", kind: "string" },
  "--list-models": { key: "listModels", kind: "optional-string" },
  "--system-prompt": { key: "systemPrompt", kind: "string" },
  "--append-system-prompt": { key: "appendSystemPrompt", kind: "list" },
  "--tools": { key: "tools", kind: "string" },
  "-t": { key: "tools", kind: "string" },
  "--no-tools": { key: "noTools", kind: "boolean" },
  "-nt": { key: "noTools", kind: "boolean" },
  "--exclude-tools": { key: "excludeTools", kind: "string" },
  "--no-mcp": { key: "noMcp", kind: "boolean" },
  "--skill": { key: "skill", kind: "list" },
  "--no-skills": { key: "noSkills", kind: "boolean" },
  "-ns": { key: "noSkills", kind: "boolean" },
  "--prompt-template": { key: "promptTemplate", kind: "list" },
  "--no-prompt-templates": { key: "noPromptTemplates", kind: "boolean" },
  "-np": { key: "noPromptTemplates", kind: "boolean" },
  "--theme": { key: "theme", kind: "list" },
  "--no-themes": { key: "noThemes", kind: "boolean" },
  "--no-context-files": { key: "noContextFiles", kind: "boolean" },
  "-nc": { key: "noContextFiles", kind: "boolean" },
  "--trust": { key: "trust", kind: "boolean" },
  "--no-trust": { key: "noTrust", kind: "boolean" },
  "--verbose": { key: "verbose", kind: "boolean" },
  "--extension": { key: "extension", kind: "list" },
  "-e": { key: "extension", kind: "list" },
  "--no-extensions": { key: "noExtensions", kind: "boolean" },
  "-ne": { key: "noExtensions", kind: "boolean" },
};

const CliArgsSchema = v.object({
  help: v.optional(v.boolean()),
  version: v.optional(v.boolean()),
  print: v.optional(v.boolean()),
  mode: v.optional(v.picklist(["text", "json", "rpc"], 'must be "text", "json" or "rpc"')),
  continue: v.optional(v.boolean()),
  resume: v.optional(v.boolean()),
  session: v.optional(v.string()),
  sessionDir: v.optional(v.string()),
  noSession: v.optional(v.boolean()),
  name: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"))),
  piglet: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"))),
  provider: v.optional(v.string()),
  model: v.optional(v.string()),
  models: v.optional(v.string()),
  thinking: v.optional(v.picklist(THINKING_LEVELS, `must be one of ${THINKING_LEVELS.join(", ")}`)),
  apiKey: v.optional(v.string()),
  listModels: v.optional(v.union([v.string(), v.literal(true)])),
  systemPrompt: v.optional(v.string()),
  appendSystemPrompt: v.optional(v.array(v.string())),
  tools: v.optional(v.string()),
  noTools: v.optional(v.boolean()),
  excludeTools: v.optional(v.string()),
  noMcp: v.optional(v.boolean()),
  skill: v.optional(v.array(v.string())),
  noSkills: v.optional(v.boolean()),
  promptTemplate: v.optional(v.array(v.string())),
  noPromptTemplates: v.optional(v.boolean()),
  theme: v.optional(v.array(v.string())),
  noThemes: v.optional(v.boolean()),
  noContextFiles: v.optional(v.boolean()),
  trust: v.optional(v.boolean()),
  noTrust: v.optional(v.boolean()),
  verbose: v.optional(v.boolean()),
  extension: v.optional(v.array(v.string())),
  noExtensions: v.optional(v.boolean()),
  files: v.array(v.string()),
  messages: v.array(v.string()),
  /** `--name` options pig does not know, for `resolveExtensionFlags`. */
  pendingFlags: v.optional(
    v.array(
      v.object({
        name: v.string(),
        inline: v.optional(v.string()),
        /** Where the word after it went in `messages` (it is the value if the flag takes one). */
        nextMessage: v.optional(v.number()),
      }),
    ),
  ),
});

export type CliArgs = v.InferOutput<typeof CliArgsSchema>;
type PendingFlag = NonNullable<CliArgs["pendingFlags"]>[number];

const FLAG_NAMES: Partial<Record<keyof CliArgs, string>> = Object.fromEntries(
  Object.entries(FLAGS)
    .filter(([name]) => name.startsWith("--"))
    .map(([name, spec]) => [spec.key, name]),
);

export function parseCliArgs(argv: readonly string[]): CliArgs {
  const raw: Record<string, unknown> = { files: [], messages: [] };
  /** Each flag as the user wrote it (`-p` or `--print`), for messages about it. */
  const written: Partial<Record<keyof CliArgs, string>> = {};
  let onlyMessages = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyMessages) {
      (raw.messages as string[]).push(arg);
      continue;
    }
    if (arg === "--") {
      onlyMessages = true;
      continue;
    }
    if (arg.startsWith("@") && arg.length > 1) {
      (raw.files as string[]).push(arg.slice(1));
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      (raw.messages as string[]).push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = FLAGS[name];
    if (!spec && name.startsWith("--") && name.length > 2) {
      // Whether the next word is this flag's value is known only once extensions have said what
      // the flag is: a message for now, taken back if it turns out to be the value.
      const pending = { name: name.slice(2), ...(eq > 0 ? { inline: arg.slice(eq + 1) } : {}) } as PendingFlag;
      const next = argv[i + 1];
      if (eq < 0 && next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
        pending.nextMessage = (raw.messages as string[]).push(next) - 1;
        i++;
      }
      ((raw.pendingFlags ??= []) as PendingFlag[]).push(pending);
      continue;
    }
    if (!spec) throw new UsageError(`Unknown option '${name}'`);
    written[spec.key] = name;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const next = argv[i + 1];
    switch (spec.kind) {
      case "boolean":
        if (inline !== undefined) throw new UsageError(`${name} takes no value`);
        raw[spec.key] = true;
        break;
      case "optional-string":
        if (inline !== undefined) raw[spec.key] = inline;
        else if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
          raw[spec.key] = next;
          i++;
        } else raw[spec.key] = true;
        break;
      case "string":
      case "list": {
        let value = inline;
        if (value === undefined) {
          if (next === undefined) throw new UsageError(`${name} needs a value`);
          value = next;
          i++;
        }
        if (spec.kind === "list") raw[spec.key] = [...((raw[spec.key] as string[] | undefined) ?? []), value];
        else raw[spec.key] = value;
      }
    }
  }
  const result = v.safeParse(CliArgsSchema, raw);
  if (!result.success) {
    const issue = result.issues[0]!;
    const key = v.getDotPath(issue) as keyof CliArgs | null;
    const flag = (key && FLAG_NAMES[key]) ?? key ?? "argument";
    throw new UsageError(`${flag}: ${issue.message} (got ${JSON.stringify(issue.input)})`);
  }
  const args = result.output;
  if (args.noSession && (args.session || args.continue)) {
    throw new UsageError("--no-session cannot be combined with --session or --continue");
  }
  if (args.session && args.continue) throw new UsageError("--session and --continue cannot be combined");
  if (args.trust && args.noTrust) throw new UsageError("--trust and --no-trust cannot be combined");
  if (args.resume) {
    // The picker is a dialog in the terminal: it belongs to interactive mode, and chooses the session itself.
    const resume = written.resume!;
    for (const key of ["print", "mode", "continue", "session", "noSession"] as const) {
      if (args[key] === undefined) continue;
      const flag = written[key]!;
      const why = key === "print" || key === "mode" ? "the session picker needs interactive mode" : "both choose the session";
      throw new UsageError(`${resume} cannot be combined with ${flag}: ${why}`);
    }
  }
  return args;
}

/**
 * The second half of parsing, once extensions have registered their flags: each `--name` kept
 * aside gets its value in `flags` (a string flag takes `=value` or the word after it, which then
 * is no message; a boolean flag leaves that word a message), and an option no extension
 * registered is a usage error naming every such option.
 */
export function resolveExtensionFlags(args: CliArgs, flags: FlagRegistry): CliArgs {
  const pending = args.pendingFlags ?? [];
  if (pending.length === 0) return args;
  const unknown = pending.filter((p) => !flags.get(p.name)).map((p) => `'--${p.name}'`);
  if (unknown.length === 1) throw new UsageError(`Unknown option ${unknown[0]}`);
  if (unknown.length > 1) throw new UsageError(`Unknown options ${[...new Set(unknown)].join(", ")}`);
  const taken = new Set<number>();
  for (const p of pending) {
    const flag = flags.get(p.name)!;
    if (flag.type === "string") {
      const value = p.inline ?? (p.nextMessage !== undefined ? args.messages[p.nextMessage] : undefined);
      if (value === undefined) throw new UsageError(`Extension flag "--${p.name}" requires a value`);
      if (p.inline === undefined && p.nextMessage !== undefined) taken.add(p.nextMessage);
      flags.set(p.name, value);
    } else {
      if (p.inline !== undefined && p.inline !== "true" && p.inline !== "false") {
        throw new UsageError(`--${p.name} is a switch: it takes no value (or =true, =false), not "${p.inline}"`);
      }
      flags.set(p.name, p.inline !== "false");
    }
  }
  const { pendingFlags: _resolved, ...rest } = args;
  return { ...rest, messages: args.messages.filter((_, index) => !taken.has(index)) };
}

/** Comma-separated tool names (`--tools read,bash`). */
export function toolList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}
