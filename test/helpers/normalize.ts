/**
 * Making pig's and Pi's wire traffic comparable: ids and signatures the servers made up become
 * placeholders numbered by first appearance, temp paths and working directories become fixed
 * names, and the parts in our own words (system prompt, tool descriptions) are blanked.
 */

const GENERATED_ID =
  /\b(?:chatcmpl-fake-|msg_fake_|resp_fake_|fakesig_msg_fake_|fakesig_|rs_|msg_|fc_|call_|toolu_)[A-Za-z0-9_]+/g;
const BASH_LOG = /\/tmp\/pi-bash-[0-9a-f]+\.log|\/tmp\/pig-bash-[0-9a-f]+\.log|\/[^\s"]*\/pi-bash-[0-9a-f]+\.log/g;

const ENTRY_ID = /\b[0-9a-f]{8}\b/g;

export class Normalizer {
  private readonly ids = new Map<string, string>();
  private readonly entryIds = new Map<string, string>();

  constructor(
    private readonly paths: [from: string, to: string][] = [],
    private readonly options: { entryIds?: boolean } = {},
  ) {}

  string(value: string): string {
    let out = value;
    for (const [from, to] of this.paths) out = out.split(from).join(to);
    out = out.replace(BASH_LOG, "<bash-log>");
    if (this.options.entryIds) {
      out = out.replace(ENTRY_ID, (id) => {
        let name = this.entryIds.get(id);
        if (!name) {
          name = `<entry${this.entryIds.size + 1}>`;
          this.entryIds.set(id, name);
        }
        return name;
      });
    }
    return out.replace(GENERATED_ID, (id) => {
      let name = this.ids.get(id);
      if (!name) {
        name = `<id${this.ids.size + 1}>`;
        this.ids.set(id, name);
      }
      return name;
    });
  }

  value(input: unknown): unknown {
    if (typeof input === "string") return this.string(input);
    if (Array.isArray(input)) return input.map((item) => this.value(item));
    if (input && typeof input === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(input)) out[this.string(key)] = this.value(item);
      return out;
    }
    return input;
  }
}

type Json = Record<string, unknown>;

/** A request body with the system prompt and tool descriptions blanked. */
export function blankOwnWords(body: Json): Json {
  const out = structuredClone(body);
  const messages = (out.messages ?? out.input) as Json[] | undefined;
  const first = messages?.[0];
  const summarising = JSON.stringify(first?.content ?? out.system ?? "").includes("summarization");
  if (first && (first.role === "system" || first.role === "developer")) first.content = "<system prompt>";
  if (summarising) for (const message of messages ?? []) if (message.role === "user") blankInstructions(message);
  if (out.system) out.system = "<system prompt>";
  for (const tool of (out.tools as Json[] | undefined) ?? []) {
    if (tool.function) (tool.function as Json).description = "<description>";
    else tool.description = "<description>";
  }
  // The Responses API keys its prompt cache by the session id.
  if (typeof out.prompt_cache_key === "string") out.prompt_cache_key = "<session id>";
  return out;
}

/** Where a turn-prefix request (Pi ≥ 0.87) puts its instructions, after the conversation. */
const INSTRUCTIONS_HEADING = "\n\n# Instructions\n";

/**
 * A summarisation request's user text: the conversation (and previous summary) kept exactly, the
 * instructions (our own words) blanked, an "Additional focus" kept. Both layouts: tags
 * (`<conversation>…</conversation>`, then the instructions) and headings (`# Conversation`,
 * then `# Instructions` and the instructions).
 */
function blankInstructions(message: Json): void {
  const blocks = Array.isArray(message.content) ? (message.content as Json[]) : [{ type: "text", text: message.content }];
  for (const block of blocks) {
    if (typeof block.text !== "string") continue;
    const text = block.text;
    const heading = text.startsWith("# Conversation\n") ? text.lastIndexOf(INSTRUCTIONS_HEADING) : -1;
    const end = heading >= 0 ? heading : Math.max(text.lastIndexOf("</previous-summary>\n\n"), text.lastIndexOf("</conversation>\n\n"));
    if (end < 0) continue;
    const cut = heading >= 0 ? heading + INSTRUCTIONS_HEADING.length : text.indexOf("\n\n", end) + 2;
    const focus = /\n\nAdditional focus: [\s\S]*$/.exec(text)?.[0] ?? "";
    block.text = `${text.slice(0, cut)}<instructions>${focus}`;
  }
  if (!Array.isArray(message.content)) message.content = blocks[0]!.text;
}

/** The comparable essence of an event: volatile fields (usage, timestamps, partials) dropped. */
export function eventEssence(event: Json): Json | undefined {
  const type = event.type as string;
  if (type === "session" || type === "tool_execution_update") return undefined;
  const message = (m: unknown): unknown => {
    if (!m || typeof m !== "object") return m;
    const { timestamp, usage, ...rest } = m as Json;
    void timestamp;
    void usage;
    return rest;
  };
  switch (type) {
    case "message_update": {
      const e = event.assistantMessageEvent as Json;
      const { partial, ...rest } = e;
      void partial;
      return { type, event: rest };
    }
    case "message_start":
    case "message_end":
      return { type, message: message(event.message) };
    case "turn_end":
      return { type, message: message(event.message), toolResults: (event.toolResults as unknown[]).map(message) };
    case "agent_end":
      return { type, messages: (event.messages as unknown[]).map(message) };
    default:
      return event;
  }
}

/**
 * Parallel tool calls finish in whatever order they finish: within each run of consecutive
 * `tool_execution_end` events, order by call id (numbered by first appearance, so stable).
 */
export function sortParallelEnds(events: Record<string, unknown>[]): Record<string, unknown>[] {
  const out = [...events];
  for (let i = 0; i < out.length; ) {
    if (out[i]!.type !== "tool_execution_end") {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && out[j]!.type === "tool_execution_end") j++;
    const run = out.slice(i, j).sort((a, b) => String(a.toolCallId).localeCompare(String(b.toolCallId)));
    out.splice(i, j - i, ...run);
    i = j;
  }
  return out;
}

/**
 * Learns which of our ids stand where Pi's stood, by walking Pi's and our version of the same
 * response side by side: 8-hex strings at the same place map onto each other.
 */
export function learnEntryIds(theirs: unknown, ours: unknown, map: Map<string, string>): void {
  if (typeof theirs === "string" && typeof ours === "string") {
    if (/^[0-9a-f]{8}$/.test(theirs) && /^[0-9a-f]{8}$/.test(ours)) map.set(theirs, ours);
    return;
  }
  if (Array.isArray(theirs) && Array.isArray(ours)) {
    theirs.forEach((item, i) => learnEntryIds(item, ours[i], map));
    return;
  }
  if (theirs && ours && typeof theirs === "object" && typeof ours === "object") {
    for (const [key, value] of Object.entries(theirs)) learnEntryIds(value, (ours as Record<string, unknown>)[key], map);
  }
}

/** A command with Pi's ids replaced by ours. */
export function translateIds<T>(value: T, map: Map<string, string>): T {
  if (typeof value === "string") return (map.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((v) => translateIds(v, map)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = translateIds(v, map);
    return out as T;
  }
  return value;
}
