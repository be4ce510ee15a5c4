// The pure half of the extension comparison (pi-extensions.ts, pi-packages.ts): what an extension
// changed in one agent's run relative to that agent's own baseline run (the same world without
// the extension), and where pig's change differs from Pi's. No I/O here; observe-agent.ts records.
//
// Normalised before anything is compared, because it must differ between the two agents or runs:
// - each world's temp directory (`<world>`) and the agent's install directory (`<install>`);
// - the agent's name in text: "pig" is read as "pi";
// - the built-in tools, which each agent describes in its own words: only a change an extension
//   makes to them (a new description or schema relative to the baseline) is compared;
// - the instructions each agent writes around the skills it lists (`<skills>`): only the
//   `<available_skills>` list is compared.
// The rest of the system prompt is compared relative to the baseline too, so pig's and Pi's own
// wording cancels out and only what the extension added, removed or rewrote is left.

export interface Command {
  name: string;
  /** `extension`, `prompt` or `skill`. */
  source: string;
}

export interface ToolDeclaration {
  description: string;
  parameters: unknown;
}

/** One `extension_ui_request` the agent wrote: its method and every field but the id. */
export interface UiCall {
  /** `start` (before the first prompt), `prompt` (during it), `tools` (while its tools were called). */
  phase: string;
  method: string;
  fields: Record<string, unknown>;
}

/** One extension error the agent reported (an `extension_error` line, or a load failure on stderr). */
export interface ExtensionError {
  event: string;
  error: string;
}

/** What the agent reported at the end of one call of a tool by the scripted model. */
export interface ToolOutcome {
  isError: boolean;
  text: string;
}

/** What one agent made of one set-up, as observe-agent.ts records it. */
export interface Observation {
  loaded: boolean;
  /** The load error or why the run did not finish. */
  problem?: string;
  /** The first request's system (or developer) message text. */
  systemPrompt: string;
  tools: Record<string, ToolDeclaration>;
  /** Roles and texts of the first request's other messages. */
  messages: string[];
  /** The first request's other fields (model, stream options, …), messages and tools left out. */
  requestFields: Record<string, unknown>;
  commands: Command[];
  flags: string[];
  ui: UiCall[];
  errors: ExtensionError[];
  /** By tool name: the outcome when the scripted model called it (extension tools only). */
  toolOutcomes: Record<string, ToolOutcome>;
  stderr: string;
}

/** Paths that differ between runs and agents, replaced by a placeholder before comparing. */
export interface Placeholders {
  world: string;
  install: string;
}

export function normaliseText(text: string, at: Placeholders): string {
  let out = text;
  if (at.install) out = out.split(at.install).join("<install>");
  if (at.world) out = out.split(at.world).join("<world>");
  // The real path of a temp dir can differ from the one given (macOS /private): both forms.
  // "pig" as a word, not inside a path or a name like pig-bench.
  return out.replace(/\/private<world>/g, "<world>").replace(/(?<![\w/.-])pig(?![\w/.-])/g, "pi");
}

/** `value` with `change` applied to every string inside it; the shape kept. */
function mapStrings<T>(value: T, change: (text: string) => string): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? change(v) : v))) as T;
}

/** Every string inside `value` normalised; the shape kept. */
export function normaliseValue<T>(value: T, at: Placeholders): T {
  return mapStrings(value, (text) => normaliseText(text, at));
}

/**
 * The system prompt cut into named sections: `intro` (text before the first tag), each
 * `<tag>…</tag>` block by its tag, and text between or after blocks as `text after <tag>`.
 * Repeated names get `#2`, `#3`.
 */
export function promptSections(prompt: string): Map<string, string> {
  const out = new Map<string, string>();
  const add = (name: string, body: string) => {
    const text = body.trim();
    if (text === "") return;
    let key = name;
    for (let n = 2; out.has(key); n++) key = `${name}#${n}`;
    out.set(key, text);
  };
  const block = /^<([a-z][\w-]*)>\n[\s\S]*?\n<\/\1>$/gm;
  let last = 0;
  let previous = "intro";
  for (const m of prompt.matchAll(block)) {
    add(previous === "intro" ? "intro" : `text after <${previous}>`, prompt.slice(last, m.index));
    add(`<${m[1]}>`, m[0]);
    previous = m[1]!;
    last = m.index + m[0].length;
  }
  add(previous === "intro" ? "intro" : `text after <${previous}>`, prompt.slice(last));
  return out;
}

/** What an extension did to the system prompt, by section. */
export interface PromptEffect {
  added: Record<string, string>;
  removed: string[];
  /** Sections present in both whose lines changed: the lines added and the number removed. */
  changed: Record<string, { addedLines: string[]; removedLines: number }>;
}

function lineChanges(before: string, after: string): { addedLines: string[]; removedLines: number } {
  const left = before.split("\n");
  const right = after.split("\n");
  const pool = new Map<string, number>();
  for (const line of left) pool.set(line, (pool.get(line) ?? 0) + 1);
  const addedLines: string[] = [];
  for (const line of right) {
    const n = pool.get(line) ?? 0;
    if (n > 0) pool.set(line, n - 1);
    else addedLines.push(line);
  }
  let removedLines = 0;
  for (const n of pool.values()) removedLines += n;
  return { addedLines, removedLines };
}

export function promptEffect(run: string, baseline: string): PromptEffect {
  const now = promptSections(run);
  const before = promptSections(baseline);
  const effect: PromptEffect = { added: {}, removed: [], changed: {} };
  for (const [name, text] of now) {
    const old = before.get(name);
    if (old === undefined) effect.added[name] = text;
    else if (old !== text) effect.changed[name] = lineChanges(old, text);
  }
  for (const name of before.keys()) if (!now.has(name)) effect.removed.push(name);
  return effect;
}

/**
 * What an extension did to one run, relative to the same agent's baseline run: request fields
 * added or changed, commands and flags added, UI calls and errors beyond the baseline's, and the
 * outcomes of its tools' calls.
 */
export interface Effect extends Pick<Observation, "loaded" | "problem" | "requestFields" | "commands" | "flags" | "ui" | "errors" | "toolOutcomes"> {
  prompt: PromptEffect;
  /** Tools added, or built-in tools whose declaration the extension changed. */
  tools: Record<string, ToolDeclaration>;
  toolsRemoved: string[];
  /** The first request's messages, when they differ from the baseline's. */
  messages?: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The UI calls of `run` less those the baseline made too (each counted once). */
function newUiCalls(run: UiCall[], baseline: UiCall[]): UiCall[] {
  const pool = baseline.map((c) => JSON.stringify(c));
  return run.filter((c) => {
    const at = pool.indexOf(JSON.stringify(c));
    if (at < 0) return true;
    pool.splice(at, 1);
    return false;
  });
}

export function effectOf(runRaw: Observation, baselineRaw: Observation, runAt: Placeholders, baselineAt: Placeholders): Effect {
  const run = normaliseValue({ ...runRaw, stderr: "" }, runAt);
  const baseline = normaliseValue({ ...baselineRaw, stderr: "" }, baselineAt);
  const tools: Record<string, ToolDeclaration> = {};
  for (const [name, declaration] of Object.entries(run.tools)) if (!same(declaration, baseline.tools[name])) tools[name] = declaration;
  const requestFields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(run.requestFields)) if (!same(value, baseline.requestFields[key])) requestFields[key] = value;
  const knownCommands = new Set(baseline.commands.map((c) => `${c.source} ${c.name}`));
  const baselineErrors = new Set(baseline.errors.map((e) => JSON.stringify(e)));
  return {
    loaded: run.loaded,
    ...(run.problem !== undefined ? { problem: run.problem } : {}),
    prompt: promptEffect(run.systemPrompt, baseline.systemPrompt),
    tools,
    toolsRemoved: Object.keys(baseline.tools).filter((name) => !(name in run.tools)),
    ...(same(run.messages, baseline.messages) ? {} : { messages: run.messages }),
    requestFields,
    commands: run.commands.filter((c) => !knownCommands.has(`${c.source} ${c.name}`)),
    flags: run.flags.filter((f) => !baseline.flags.includes(f)),
    ui: newUiCalls(run.ui, baseline.ui),
    errors: run.errors.filter((e) => !baselineErrors.has(JSON.stringify(e))),
    toolOutcomes: run.toolOutcomes,
  };
}

/** One way pig's effect differs from Pi's: the part of the comparison, and how. */
export interface Difference {
  part: "load" | "system prompt" | "tools" | "messages" | "request" | "commands" | "flags" | "ui" | "errors" | "tool results";
  detail: string;
}

const names = (commands: Command[], source: string) =>
  commands
    .filter((c) => c.source === source)
    .map((c) => c.name)
    .sort();
const list = (items: string[]) => (items.length === 0 ? "none" : items.join(", "));
const short = (text: string, max = 80) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** What of an added section is the extension's: all of it, but for the agent's own words around a list. */
export function comparableSection(name: string, text: string): string {
  if (name.startsWith("<skills>")) {
    const at = text.indexOf("<available_skills>");
    return at < 0 ? text : text.slice(at, text.indexOf("</available_skills>", at) + "</available_skills>".length);
  }
  return text;
}

/** Two records by key: different keys make one line; otherwise `each` compares the values of each key. */
function byKey<T>(verb: string, a: Record<string, T>, b: Record<string, T>, each: (name: string, x: T, y: T) => string[]): string[] {
  const keysA = Object.keys(a).sort();
  const keysB = Object.keys(b).sort();
  if (!same(keysA, keysB)) return [`${verb} ${list(keysA)} vs ${list(keysB)}`];
  return keysB.flatMap((name) => each(name, a[name]!, b[name]!));
}

function promptDifferences(pig: PromptEffect, pi: PromptEffect): string[] {
  const out = byKey("adds", pig.added, pi.added, (name, a, b) =>
    comparableSection(name, a) === comparableSection(name, b) ? [] : [`${name} reads "${short(a)}" vs "${short(b)}"`],
  );
  if (!same([...pig.removed].sort(), [...pi.removed].sort())) out.push(`removes ${list(pig.removed)} vs ${list(pi.removed)}`);
  // Removed lines are the agent's own wording: only whether some were removed must agree.
  return out.concat(
    byKey("changes", pig.changed, pi.changed, (name, a, b) => [
      ...(same(a.addedLines, b.addedLines) ? [] : [`${name} gains "${short(a.addedLines.join(" / "))}" vs "${short(b.addedLines.join(" / "))}"`]),
      ...(a.removedLines > 0 === b.removedLines > 0 ? [] : [`${name} loses ${a.removedLines} vs ${b.removedLines} lines`]),
    ]),
  );
}

function toolDifferences(pig: Effect, pi: Effect): string[] {
  const out = byKey("declares", pig.tools, pi.tools, (name, a, b) => [
    ...(a.description === b.description ? [] : [`description of ${name}`]),
    ...(same(a.parameters, b.parameters) ? [] : [`schema of ${name}`]),
  ]);
  if (!same(pig.toolsRemoved, pi.toolsRemoved)) out.push(`drops ${list(pig.toolsRemoved)} vs ${list(pi.toolsRemoved)}`);
  return out;
}

/** What is on screen after a phase's calls, by what each sets (`setStatus:KEY`, …), and the rest in order. */
const STATE_METHODS: Record<string, string> = { setStatus: "statusKey", setWidget: "widgetKey", setTitle: "" };

/**
 * A phase's UI calls as compared: notices and dialogs in order; statuses, widgets and the title
 * by their last value (how often an extension updates its status while a run streams depends on
 * timing, not on the agent).
 */
export function uiSummary(calls: UiCall[]): { said: string[]; shown: Record<string, string> } {
  const said: string[] = [];
  const shown: Record<string, string> = {};
  for (const c of calls) {
    const keyField = STATE_METHODS[c.method];
    const { [keyField ?? ""]: key, ...rest } = c.fields;
    const value = JSON.stringify(keyField === undefined ? c.fields : rest);
    if (keyField === undefined) said.push(`${c.method} ${value}`);
    else shown[`${c.method}${key === undefined ? "" : `:${String(key)}`}`] = value;
  }
  return { said, shown };
}

/** Text with the SGR sequences a theme adds taken out (pig's extension runtime styles nothing). */
export const unstyled = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");

function uiDifferences(pig: UiCall[], pi: UiCall[]): string[] {
  const out: string[] = [];
  for (const phase of ["start", "prompt", "tools"]) {
    const a = uiSummary(pig.filter((c) => c.phase === phase));
    const b = uiSummary(pi.filter((c) => c.phase === phase));
    if (same(a, b)) continue;
    const plain = (calls: UiCall[]) => uiSummary(calls.filter((c) => c.phase === phase).map((c) => ({ ...c, fields: mapStrings(c.fields, unstyled) })));
    if (same(plain(pig), plain(pi))) {
      out.push(`${phase}: the same text, styled by Pi's theme and plain in pig`);
      continue;
    }
    if (!same(a.said, b.said)) out.push(`${phase}: says ${short(list(a.said), 100)} vs ${short(list(b.said), 100)}`);
    const keys = [...new Set([...Object.keys(a.shown), ...Object.keys(b.shown)])].sort();
    for (const key of keys) {
      if (a.shown[key] !== b.shown[key]) out.push(`${phase}: ${key} ${short(a.shown[key] ?? "not set", 60)} vs ${short(b.shown[key] ?? "not set", 60)}`);
    }
  }
  return out;
}

/** Errors are told apart by the event only: each runtime words a thrown TypeError its own way. */
function errorDifferences(pig: ExtensionError[], pi: ExtensionError[]): string[] {
  const events = (errors: ExtensionError[]) => errors.map((e) => e.event).sort();
  if (same(events(pig), events(pi))) return [];
  const label = (errors: ExtensionError[]) => list(errors.map((e) => `${e.event} ("${short(e.error, 60)}")`));
  return [`${label(pig)} vs ${label(pi)}`];
}

function outcomeDifferences(pig: Record<string, ToolOutcome>, pi: Record<string, ToolOutcome>): string[] {
  const out: string[] = [];
  for (const name of [...new Set([...Object.keys(pi), ...Object.keys(pig)])].sort()) {
    const a = pig[name];
    const b = pi[name];
    if (!a || !b) out.push(`${name} ${a ? "ran" : "did not run"} vs ${b ? "ran" : "did not run"}`);
    else if (a.isError !== b.isError) out.push(`${name} isError ${a.isError} ("${short(a.text, 60)}") vs ${b.isError} ("${short(b.text, 60)}")`);
  }
  return out;
}

/** Where pig's effect differs from Pi's; empty when they are the same. */
export function compareEffects(pig: Effect, pi: Effect): Difference[] {
  if (!pi.loaded || !pig.loaded) {
    return pig.loaded === pi.loaded ? [] : [{ part: "load", detail: pig.loaded ? `loads in pig only (Pi: ${pi.problem ?? "?"})` : `does not load in pig: ${pig.problem ?? "?"}` }];
  }
  const out: Difference[] = [];
  const add = (part: Difference["part"], details: string[]) => {
    for (const detail of details) out.push({ part, detail });
  };
  add("system prompt", promptDifferences(pig.prompt, pi.prompt));
  add("tools", toolDifferences(pig, pi));
  if (!same(pig.messages, pi.messages)) add("messages", [`${short((pig.messages ?? ["unchanged"]).join(" | "), 120)} vs ${short((pi.messages ?? ["unchanged"]).join(" | "), 120)}`]);
  add("request", byKey("changes", pig.requestFields, pi.requestFields, (name, a, b) => (same(a, b) ? [] : [`value of ${name}`])));
  for (const source of ["extension", "skill", "prompt"]) {
    const a = names(pig.commands, source);
    const b = names(pi.commands, source);
    if (!same(a, b)) add("commands", [`${source}: ${list(a)} vs ${list(b)}`]);
  }
  if (!same([...pig.flags].sort(), [...pi.flags].sort())) add("flags", [`${list(pig.flags)} vs ${list(pi.flags)}`]);
  add("ui", uiDifferences(pig.ui, pi.ui));
  add("errors", errorDifferences(pig.errors, pi.errors));
  add("tool results", outcomeDifferences(pig.toolOutcomes, pi.toolOutcomes));
  return out;
}

/** A short account of what the extension did under Pi, for the tables. */
export function summariseEffect(effect: Effect): string {
  const parts: string[] = [];
  const commands = names(effect.commands, "extension");
  if (commands.length > 0) parts.push(`commands ${commands.map((c) => `/${c}`).join(", ")}`);
  const tools = Object.keys(effect.tools).sort();
  if (tools.length > 0) parts.push(`tools ${tools.join(", ")}`);
  if (effect.flags.length > 0) parts.push(`flags ${effect.flags.map((f) => `--${f}`).join(", ")}`);
  const sections = [...Object.keys(effect.prompt.added), ...Object.keys(effect.prompt.changed)];
  if (sections.length > 0 || effect.prompt.removed.length > 0) parts.push("system prompt");
  if (effect.messages) parts.push("messages");
  if (Object.keys(effect.requestFields).length > 0) parts.push("request fields");
  const methods = [...new Set(effect.ui.map((c) => c.method))];
  if (methods.length > 0) parts.push(`UI ${methods.join(", ")}`);
  if (effect.errors.length > 0) parts.push(`errors in ${[...new Set(effect.errors.map((e) => e.event))].join(", ")}`);
  const failed = Object.entries(effect.toolOutcomes).filter(([, o]) => o.isError);
  if (Object.keys(effect.toolOutcomes).length > 0) parts.push(`${Object.keys(effect.toolOutcomes).length} tool calls (${failed.length} isError)`);
  return parts.join("; ");
}
