/**
 * The few lines pig prints when it starts: what it runs with (model, session, context files,
 * skills, templates, extensions, project trust) and what went wrong. Pure: the caller decides
 * where it goes (interactive: always unless quiet; print/json: stderr with --verbose) and
 * whether to colour it (NO_COLOR, TTY).
 */
import { createColors } from "picocolors";
import type { TrustReason } from "./trust.ts";
import { terminalSafe } from "../util/terminal-safe.ts";

export interface StartupReportInput {
  version: string;
  /** `provider/id`, or undefined when no model is available. */
  model?: string;
  thinkingLevel: string;
  cwd: string;
  session: { path?: string; continued: boolean };
  contextFiles: readonly { path: string }[];
  skills: readonly { name: string; path: string }[];
  templates: readonly { name: string; path: string }[];
  extensions: readonly string[];
  diagnostics: readonly { level: "warning" | "error"; message: string }[];
  trust?: { trusted: boolean; reason: TrustReason };
  /** The run's Piglet (named, or restored from the session). */
  piglet?: { name: string; path: string };
}

export interface StartupReportOptions {
  color: boolean;
  /** Paths under it are shown as `~/…`. */
  home?: string;
  /** Items shown per list before "+N more" (default 5). */
  maxItems?: number;
}

const LABEL_WIDTH = 11;

const TRUST_WORDS: Record<TrustReason, string> = {
  flag: "by flag",
  remembered: "remembered",
  extension: "decided by an extension",
  asked: "just decided",
  "nothing-to-trust": "",
  undecided: "not decided yet",
};

export function formatStartupReport(input: StartupReportInput, options: StartupReportOptions): string {
  const c = createColors(options.color);
  const max = Math.max(1, options.maxItems ?? 5);
  const home = options.home?.replace(/\/+$/, "");
  // Names and paths come from files: shown terminal-safe, pig's colours added around them.
  const short = (path: string): string =>
    terminalSafe(home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path);
  const list = (items: readonly string[]): string => {
    const shown = items.slice(0, max).map((item) => terminalSafe(item)).join(", ");
    return items.length > max ? `${shown} ${c.dim(`+${items.length - max} more`)}` : shown;
  };
  const line = (label: string, value: string): string => `${c.dim(label.padEnd(LABEL_WIDTH))}${value}`;

  const head = [c.bold(`pig ${input.version}`), input.model ? c.cyan(terminalSafe(input.model)) : c.yellow("no model"), `thinking ${input.thinkingLevel}`];
  const lines = [head.join(c.dim(" · ")), line("cwd", short(input.cwd))];

  const session = input.session.path
    ? `${input.session.continued ? "continued" : "new"} ${c.dim(short(input.session.path))}`
    : "not saved";
  lines.push(line("session", session));
  if (input.piglet) lines.push(line("piglet", `${input.piglet.name} ${c.dim(short(input.piglet.path))}`));

  if (input.contextFiles.length > 0) lines.push(line("context", list(input.contextFiles.map((f) => short(f.path)))));
  if (input.skills.length > 0) lines.push(line("skills", list(input.skills.map((s) => s.name))));
  if (input.templates.length > 0) lines.push(line("prompts", list(input.templates.map((t) => `/${t.name}`))));
  if (input.extensions.length > 0) lines.push(line("extensions", list(input.extensions.map(short))));

  const trust = input.trust;
  if (trust && trust.reason !== "nothing-to-trust") {
    const how = TRUST_WORDS[trust.reason];
    lines.push(
      line(
        "project",
        trust.trusted
          ? `${c.green("trusted")} ${c.dim(`(${how})`)}`
          : `${c.yellow("not trusted")} ${c.dim(`(${how}): its .pig/ settings, extensions, skills, prompts and themes are not loaded`)}`,
      ),
    );
  }

  lines.push(...diagnosticLines(input.diagnostics, options.color));
  return lines.join("\n");
}

/** The report's diagnostics alone, one line each: what `quietStartup` still shows. */
export function diagnosticLines(diagnostics: StartupReportInput["diagnostics"], color: boolean): string[] {
  const c = createColors(color);
  return diagnostics.map((d) => (d.level === "error" ? `${c.red("error:")} ${d.message}` : `${c.yellow("warning:")} ${d.message}`));
}
