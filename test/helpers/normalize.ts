/**
 * Making pig's and Pi's wire traffic comparable: ids and signatures the servers made up become
 * placeholders numbered by first appearance, temp paths and working directories become fixed
 * names, and the parts in our own words (system prompt, tool descriptions) are blanked.
 */

const GENERATED_ID =
  /\b(?:chatcmpl-fake-|msg_fake_|resp_fake_|fakesig_msg_fake_|fakesig_|rs_|msg_|fc_|call_|toolu_)[A-Za-z0-9_]+/g;
// Pi's spill files (`pi-bash-*.log` in the temp folder) and pig's (`bash-*.log` in its private folder there).
const BASH_LOG = /\/tmp\/pi-bash-[0-9a-f]+\.log|\/tmp\/pig-bash-[0-9a-f]+\.log|\/[^\s"]*\/pi-bash-[0-9a-f]+\.log|\/[^\s"]*\/pig-\d+\/\d+-[0-9a-f]+\/bash-[0-9a-f]+\.log/g;

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
/**
 * A system message with the text in our own words blanked: the sections keep their names and
 * order (the working directory is compared too), the tools their names and parameters.
 */
function systemInOwnWords(message: Json): Json {
  const sections = message.sections as Record<string, string | null> | undefined;
  const tools = message.toolsAdded as Json[] | undefined;
  return {
    ...message,
    ...(sections ? { sections: Object.fromEntries(Object.entries(sections).map(([k, v]) => [k, v === null || k === "cwd" ? v : "<own words>"])) } : {}),
    ...(tools ? { toolsAdded: tools.map((t) => ({ name: t.name, parameters: t.parameters })) } : {}),
  };
}

export function eventEssence(event: Json): Json | undefined {
  const type = event.type as string;
  if (type === "session" || type === "tool_execution_update") return undefined;
  const message = (m: unknown): unknown => {
    if (!m || typeof m !== "object") return m;
    const { timestamp, usage, ...rest } = m as Json;
    void timestamp;
    void usage;
    return rest.role === "system" ? systemInOwnWords(rest) : rest;
  };
  switch (type) {
    case "message_update": {
      const e = event.assistantMessageEvent as Json;
      const { partial, ...rest } = e;
      void partial;
      return { type, event: rest };
    }
    case "message_start": {
      // Whether the id of the response is in the partial message yet depends on when the first
      // chunk was read (in Pi, on when its listener ran): not compared at the start.
      const { responseId: _id, ...start } = (message(event.message) ?? {}) as Json;
      return { type, message: start };
    }
    case "message_end":
      return { type, message: message(event.message) };
    case "turn_end":
      return { type, message: message(event.message), toolResults: (event.toolResults as unknown[]).map(message) };
    case "agent_end":
      return { type, messages: (event.messages as unknown[]).map(message) };
    case "agent_settled":
      // `aborted` is upstream 1.x's addition, which Pi 0.87.1's recordings lack.
      return { type };
    default:
      return event;
  }
}

/**
 * A shell command's output arrives in pieces as the pipe gives them, which depends on timing:
 * consecutive `bash_execution_update` lines of one command are joined into one.
 */
export function joinBashUpdates<T extends Record<string, unknown>>(lines: readonly T[]): T[] {
  const out: T[] = [];
  for (const line of lines) {
    const last = out.at(-1);
    if (line.type === "bash_execution_update" && last?.type === "bash_execution_update" && last.id === line.id) {
      out[out.length - 1] = { ...last, delta: `${String(last.delta)}${String(line.delta)}` };
    } else out.push(line);
  }
  return out;
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

/**
 * Answers as Pi 0.73.1 had them: no `rawStopReason`, no `usage.reasoning`, and a partial answer
 * reads `stop` where 0.87 says `pending`.
 */
function asPi073Messages<T>(value: T): T {
  if (Array.isArray(value)) return value.map(asPi073Messages) as T;
  if (!value || typeof value !== "object") return value;
  const out = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, asPi073Messages(v)])) as Json;
  if (out.role !== "assistant") return out as T;
  const { rawStopReason: _raw, ...answer } = out;
  if (answer.stopReason === "pending") answer.stopReason = "stop";
  if (answer.usage && typeof answer.usage === "object") {
    const { reasoning: _reasoning, ...usage } = answer.usage as Json;
    answer.usage = usage;
  }
  return answer as T;
}

/**
 * `get_state`'s `messageCount` counts the system messages of the context too, which Pi 0.73.1
 * had none of: left out on both sides when comparing with 0.73.1 (the 0.87.1 replays compare it).
 */
export function withoutMessageCount(lines: Json[]): Json[] {
  return lines.map((line) => {
    if (line.type !== "response" || line.command !== "get_state" || !line.data || typeof line.data !== "object") return line;
    const { messageCount: _count, ...data } = line.data as Json;
    return { ...line, data };
  });
}

/**
 * Pi 0.87's HTTP error texts (`400: {"message":"…",…}`) in pig's words (`400 …`), the client's
 * sentence (docs/decisions.md, "HTTP error texts"); every other text is left as it is.
 */
export function withPigErrorTexts<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withPigErrorTexts) as T;
  if (!value || typeof value !== "object") return value;
  const out = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, withPigErrorTexts(v)])) as Json;
  const text = out.errorMessage;
  const match = typeof text === "string" ? /^(\d{3}): (\{.*\})$/s.exec(text) : null;
  if (match) {
    const body = JSON.parse(match[2]!) as Json;
    if (typeof body.message === "string") out.errorMessage = `${match[1]} ${body.message}`;
  }
  return out as T;
}

/**
 * An output cap kept inside the room the window leaves (Pi 0.87) depends on the prompt's length,
 * i.e. on each agent's own words: where Pi's was lowered below the model's `maxTokens`, ours must
 * have been lowered too, and the two are then taken as equal.
 */
export function sameOutputRoom(ours: Json, theirs: Json, maxTokens = 16384): Json {
  const key = "max_completion_tokens" in theirs ? "max_completion_tokens" : "max_tokens" in theirs ? "max_tokens" : undefined;
  const cap = key ? theirs[key] : undefined;
  if (key === undefined || typeof cap !== "number" || cap >= maxTokens) return ours;
  const mine = ours[key];
  if (typeof mine !== "number" || mine >= maxTokens) throw new Error(`${key}: Pi lowered it to ${cap} to fit the window, pig sent ${String(mine)}`);
  return { ...ours, [key]: cap };
}

function isSystem(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as Json).role === "system";
}

/**
 * A request body pig sent, compared with one Pi 0.73.1 sent: tool parameter schemas
 * (`parameters`, Anthropic's `input_schema`) and the `strict` flag are Pi 0.87.1's now (compared with 0.87.1's own in test/tools and the 0.87.1
 * replays), so they are left out on both sides.
 */
export function withoutToolSchemas(body: Json): Json {
  const tools = body.tools as Json[] | undefined;
  if (!tools) return body;
  return {
    ...body,
    tools: tools.map((tool) => {
      const { strict: _strict, parameters: _parameters, input_schema: _schema, ...rest } = tool;
      if (!tool.function) return rest;
      const { strict: _s, parameters: _p, ...fn } = tool.function as Json;
      return { ...rest, function: fn };
    }),
  };
}

const SEARCH_TOOLS = new Set(["grep", "find"]);
const BLANK_SEARCH = "<search result: Pi's machine had no rg/fd>";

/**
 * Pi 0.87.1's fixture 02 was recorded where `rg` and `fd` could not be had, so its grep and find
 * calls failed ("ripgrep (rg) is not available…"); pig searches with its own code and finds the
 * matches. Their results (in requests, tool results and events) are blanked on both sides; the
 * calls themselves, and everything else, are still compared.
 */
export function withoutSearchResults<T>(value: T): T {
  const searchCalls = new Set<string>();
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === "object") {
      const o = v as Json;
      const fn = o.function as Json | undefined;
      if (o.type === "function" && typeof o.id === "string" && fn && SEARCH_TOOLS.has(fn.name as string)) searchCalls.add(o.id);
      if (o.type === "toolCall" && typeof o.id === "string" && SEARCH_TOOLS.has(o.name as string)) searchCalls.add(o.id);
      Object.values(o).forEach(collect);
    }
  };
  collect(value);
  const blank = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(blank);
    if (!v || typeof v !== "object") return v;
    const o = Object.fromEntries(Object.entries(v as Json).map(([k, x]) => [k, blank(x)]));
    const search = SEARCH_TOOLS.has(o.toolName as string) || (o.role === "tool" && searchCalls.has(o.tool_call_id as string));
    if (!search) return o;
    if (o.role === "tool") return { ...o, content: BLANK_SEARCH };
    const { details: _details, ...rest } = o;
    return {
      ...rest,
      ...("content" in o ? { content: BLANK_SEARCH } : {}),
      ...("result" in o ? { result: BLANK_SEARCH } : {}),
      ...("partialResult" in o ? { partialResult: BLANK_SEARCH } : {}),
      ...("isError" in o ? { isError: "<blank>" } : {}),
    };
  };
  return blank(value) as T;
}

/** Events Pi 0.73.1 did not have: added by 0.80–0.82 (settled runs, RPC bash output, summary retries). */
const NEWER_EVENTS = new Set(["agent_settled", "bash_execution_update", "summarization_retry_scheduled", "summarization_retry_attempt_start", "summarization_retry_finished"]);

/** The commands whose responses say, since upstream 1.x, where the input went (`data.disposition`). */
const DISPOSED = new Set(["prompt", "steer", "follow_up"]);

/** Pi 1.x's timing of a tool's run (`durationMs` on its `tool_execution_end` and its result message), which 0.87.1 did not write. */
function withoutToolTimings<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutToolTimings) as T;
  if (!value || typeof value !== "object") return value;
  const out = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, withoutToolTimings(v)])) as Json;
  if (out.role !== "toolResult" && out.type !== "tool_execution_end") return out as T;
  const { durationMs: _timing, ...rest } = out;
  return rest as T;
}

/**
 * pig's RPC wire as Pi 0.87.1 wrote it: what pig sends that 1.x added on top (a prompt's, a
 * steer's and a follow-up's `data.disposition`, `agent_settled.aborted`, the tools' `durationMs`)
 * is set aside; everything else must match.
 */
export function asPi087Wire(lines: Json[]): Json[] {
  return lines.map(withoutToolTimings).map((line) => {
    if (line.type === "agent_settled") return { type: "agent_settled" };
    if (line.type !== "response" || !DISPOSED.has(line.command as string) || typeof line.data !== "object" || line.data === null) return line;
    const { disposition, ...data } = line.data as Json;
    void disposition;
    const { data: _dropped, ...rest } = line;
    void _dropped;
    return Object.keys(data).length > 0 ? { ...rest, data } : rest;
  });
}

/**
 * pig's wire lines as Pi 0.73.1 would have written them, for comparing with that version's
 * transcripts. pig speaks Pi 0.87.1's protocol, which changed on purpose since (docs/rpc.md,
 * "Changes since Pi 0.73.1"); only those changes are undone here, everything else must match:
 * the events 0.73.1 did not have are dropped, and so are the fields it did not send —
 * `toolcall_start`'s `id`/`toolName`, `agent_end.willRetry`, a compaction result's
 * `estimatedTokensAfter`. (`message_update`'s cumulative `message`, which 0.87.1 no longer sends,
 * is not compared at all: see eventEssence.)
 */
export function asPi073Wire(lines: Json[]): Json[] {
  return lines.map(asPi073Messages).flatMap((line): Json[] => {
    const type = line.type as string;
    if (NEWER_EVENTS.has(type)) return [];
    // The system message declaring the prompt and tools is 0.87's too (docs/sessions.md).
    if ((type === "message_start" || type === "message_end") && isSystem(line.message)) return [];
    if ((type === "agent_end" || type === "turn_end") && Array.isArray(line.messages)) line = { ...line, messages: line.messages.filter((m) => !isSystem(m)) };
    if (type === "response" && line.command === "get_messages" && Array.isArray((line.data as Json | undefined)?.messages)) {
      const data = line.data as Json;
      line = { ...line, data: { ...data, messages: (data.messages as Json[]).filter((m) => !isSystem(m)) } };
    }
    if (type === "message_update") {
      const delta = line.assistantMessageEvent as Json;
      if (delta.type !== "toolcall_start") return [line];
      const { id, toolName, ...rest } = delta;
      void id;
      void toolName;
      return [{ ...line, assistantMessageEvent: rest }];
    }
    if (type === "agent_end") {
      const { willRetry, ...rest } = line;
      void willRetry;
      return [rest];
    }
    const result = (type === "compaction_end" ? line.result : type === "response" && line.command === "compact" ? line.data : undefined) as Json | undefined;
    if (result && "estimatedTokensAfter" in result) {
      const { estimatedTokensAfter, ...rest } = result;
      void estimatedTokensAfter;
      return [type === "compaction_end" ? { ...line, result: rest } : { ...line, data: rest }];
    }
    return [line];
  });
}
