/**
 * The prompt and tool loadout carried in a transcript as system messages (Pi ≥ 0.87): replaying
 * them, rendering the prompt a request sends, and the message that moves a transcript from the
 * loadout it declares to the one an agent wants now. Pure.
 *
 * Replay rules: `content` text adds instructions after the earlier ones; `sections` set or (null)
 * remove prompt sections by name, keeping the position a name first had; `toolsRemoved` then
 * `toolsAdded` change the tool list; `replace: true` forgets everything declared before it.
 */
import * as v from "valibot";
import { SystemMessageSchema, type AgentMessage, type SystemMessage, type ToolDeclaration } from "./format.ts";

type SystemLike = Pick<SystemMessage, "role" | "content" | "sections" | "toolsAdded" | "toolsRemoved" | "replace" | "timestamp">;

/**
 * A system message that can be replayed: its fields have the shapes of the format (a null
 * `content` reads as "", as Pi reads it). One that does not — a file written by hand, or by
 * something broken — is left out of the replay rather than breaking every request.
 */
function isSystem(message: AgentMessage): message is SystemMessage {
  if (message.role !== "system") return false;
  const m = message as Record<string, unknown>;
  return v.is(SystemMessageSchema, m.content === null || m.content === undefined ? { ...m, content: "" } : m);
}

/** Whether `value` is a system message pig can replay (a compaction's checkpoint, say). */
export function isReplayableSystemMessage(value: unknown): value is SystemMessage {
  return typeof value === "object" && value !== null && isSystem(value as AgentMessage);
}

function textOf(content: SystemMessage["content"] | undefined | null): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("\n");
}

/** What currentSystemMessage answered for the first `length` messages of a context. */
export interface SystemSeen {
  readonly length: number;
  readonly message: SystemMessage | undefined;
}

/**
 * currentSystemMessage(messages), given what it answered for a prefix of them that has not
 * changed since: a turn appends an answer and tool results, none of them system messages, so
 * the replay is not walked again over the whole context before every request. A system message
 * after the prefix, or a prefix longer than the context, replays everything.
 */
export function currentSystemAfter(seen: SystemSeen | undefined, messages: readonly AgentMessage[]): SystemSeen {
  if (seen && seen.length <= messages.length) {
    let i = seen.length;
    while (i < messages.length && messages[i]!.role !== "system") i++;
    if (i === messages.length) return { length: i, message: seen.message };
  }
  return { length: messages.length, message: currentSystemMessage(messages) };
}

/**
 * Every system message of `messages` replayed into one: the prompt and tools in force after the
 * last of them. Undefined when there is none.
 */
export function currentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
  let found = false;
  let timestamp: number | undefined;
  let content: string[] = [];
  let sections = new Map<string, string>();
  let tools = new Map<string, ToolDeclaration>();
  for (const message of messages) {
    if (!isSystem(message)) continue;
    found = true;
    if (message.replace === true) {
      content = [];
      sections = new Map();
      tools = new Map();
      timestamp = undefined;
    }
    timestamp ??= message.timestamp;
    const text = textOf(message.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  if (!found) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.size > 0 ? { toolsAdded: [...tools.values()] } : {}),
    timestamp: timestamp ?? 0,
  };
}

/**
 * The text made for each system message: a run's requests all send the prompt of the same
 * replayed message. (Messages are not changed once made; convert.ts relies on that too.)
 */
const promptTexts = new WeakMap<object, string>();

/** The prompt text a system message stands for: its content, then its sections, blank-line separated. */
export function systemPromptText(message: SystemLike | undefined): string {
  if (!message) return "";
  const known = promptTexts.get(message);
  if (known !== undefined) return known;
  const parts = [textOf(message.content), ...Object.values(message.sections ?? {}).filter((s): s is string => s !== null)];
  const text = parts.filter((part) => part.length > 0).join("\n\n");
  promptTexts.set(message, text);
  return text;
}

/** The tools a replayed system message declares. */
export function declaredTools(message: SystemLike | undefined): ToolDeclaration[] {
  return message?.toolsAdded ?? [];
}

/** The section patch from `previous` to `next`: changed or new sections, and null for removed ones. */
export function sectionPatch(
  previous: Readonly<Record<string, string>>,
  next: Readonly<Record<string, string>>,
): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  for (const [name, text] of Object.entries(next)) if (previous[name] !== text) patch[name] = text;
  for (const name of Object.keys(previous)) if (next[name] === undefined) patch[name] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** A declaration as it is compared and stored: the three fields a model is told, plus any the writer added. */
function declarationKey(tool: ToolDeclaration): string {
  return JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters });
}

/** Tools to add and remove to go from `previous` to `next`; a tool declared differently is removed and added again. */
export function toolChanges(
  previous: readonly ToolDeclaration[],
  next: readonly ToolDeclaration[],
): { toolsAdded: ToolDeclaration[]; toolsRemoved: { name: string }[] } {
  const before = new Map(previous.map((tool) => [tool.name, declarationKey(tool)]));
  const after = new Map(next.map((tool) => [tool.name, declarationKey(tool)]));
  return {
    toolsAdded: next.filter((tool) => before.get(tool.name) !== after.get(tool.name)),
    toolsRemoved: previous.filter((tool) => after.get(tool.name) !== before.get(tool.name)).map((tool) => ({ name: tool.name })),
  };
}

/**
 * The system message that brings `messages` to the wanted prompt sections and tools, or
 * undefined when the transcript declares them already. With no system message yet (a new
 * session, or one from before Pi 0.87) it declares everything.
 */
export function loadoutUpdate(
  messages: readonly AgentMessage[],
  sections: Readonly<Record<string, string>>,
  tools: readonly ToolDeclaration[],
  now: number,
): SystemMessage | undefined {
  return loadoutUpdateFrom(currentSystemMessage(messages), sections, tools, now);
}

/** loadoutUpdate with the context's current system message already replayed (see currentSystemAfter). */
export function loadoutUpdateFrom(
  current: SystemMessage | undefined,
  sections: Readonly<Record<string, string>>,
  tools: readonly ToolDeclaration[],
  now: number,
): SystemMessage | undefined {
  const currentSections = Object.fromEntries(
    Object.entries(current?.sections ?? {}).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  const patch = sectionPatch(currentSections, sections);
  const { toolsAdded, toolsRemoved } = toolChanges(declaredTools(current), tools);
  if (!patch && toolsAdded.length === 0 && toolsRemoved.length === 0) return undefined;
  // Pi's key order (the tool fields come last), so pig's lines read like Pi's.
  return {
    role: "system",
    content: "",
    ...(patch ? { sections: patch } : {}),
    timestamp: now,
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    ...(toolsRemoved.length > 0 ? { toolsRemoved } : {}),
  };
}

/**
 * Estimated tokens (four characters each) of the system messages after the latest assistant
 * message: what a prompt or tool change written since the last answer adds to the request.
 */
export function systemTokensSinceAnswer(messages: readonly AgentMessage[]): number {
  let tokens = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== "assistant"; i--) {
    const message = messages[i]!;
    if (!isSystem(message)) continue;
    const tools = [...(message.toolsAdded ?? []), ...(message.toolsRemoved ?? [])];
    tokens += Math.ceil(systemPromptText(message).length / 4) + (tools.length > 0 ? Math.ceil(JSON.stringify(tools).length / 4) : 0);
  }
  return tokens;
}
