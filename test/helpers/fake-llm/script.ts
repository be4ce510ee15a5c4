/**
 * The `.script.json` format of the fake LLM server (see the fixtures README,
 * "Fake LLM server and the `.script.json` format"): its valibot schema, the
 * loader, and the rule that picks which response answers a request.
 */
import { readFileSync } from "node:fs";
import * as v from "valibot";

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.integer(), v.minValue(1));

const ToolCallSchema = v.strictObject({
  name: v.string(),
  // An object is sent as its JSON text; a string is sent verbatim so a script can produce invalid JSON.
  arguments: v.union([v.string(), v.record(v.string(), v.unknown())]),
  id: v.optional(v.string()),
});

const UsageSchema = v.strictObject({
  prompt_tokens: v.optional(count),
  completion_tokens: v.optional(count),
  cached_tokens: v.optional(count),
});

const ErrorSchema = v.strictObject({
  status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
  message: v.string(),
  type: v.optional(v.string()),
  code: v.optional(v.nullable(v.string())),
  headers: v.optional(v.record(v.string(), v.string())),
});

/**
 * A response sent as it is, for faults no provider means to send: an HTML error page, a broken
 * event stream, a huge body. `repeatToBytes` repeats `body` until that many bytes were sent.
 */
const RawSchema = v.strictObject({
  status: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599))),
  contentType: v.optional(v.string()),
  body: v.string(),
  repeatToBytes: v.optional(positive),
  headers: v.optional(v.record(v.string(), v.string())),
});

// strictObject: a misspelt field (say `finish_reason`) is an error instead of being silently ignored.
const ResponseSchema = v.strictObject({
  text: v.optional(v.string()),
  thinking: v.optional(v.string()),
  reasoningField: v.optional(v.picklist(["reasoning_content", "reasoning", "reasoning_text"])),
  toolCalls: v.optional(v.array(ToolCallSchema)),
  finishReason: v.optional(v.string()),
  usage: v.optional(UsageSchema),
  delayMs: v.optional(count),
  chunkDelayMs: v.optional(count),
  /**
   * Frames on a fixed schedule instead: frame i is sent `i × chunkIntervalMs` after the first, so
   * a late timer or a slow reader does not lower the stream's average rate (a paced stream).
   */
  chunkIntervalMs: v.optional(positive),
  chunkSize: v.optional(positive),
  stallAfterChunks: v.optional(count),
  /**
   * While stalled, send this text every `stallKeepAliveMs` (default 50) until the client leaves:
   * SSE comments, a ping event, or a byte of an event that never ends.
   */
  stallKeepAlive: v.optional(v.pipe(v.string(), v.minLength(1))),
  stallKeepAliveMs: v.optional(positive),
  disconnectAfterChunks: v.optional(count),
  midStreamError: v.optional(v.string()),
  error: v.optional(ErrorSchema),
  raw: v.optional(RawSchema),
  /** No response at all (not even headers) until the client gives up or the server closes. */
  hang: v.optional(v.boolean()),
  repeat: v.optional(positive),
  /** Answers only requests whose raw body contains this text (or, for a list, any of these texts). */
  when: v.optional(v.union([v.string(), v.array(v.string())])),
  label: v.optional(v.string()),
});

const ResponseListSchema = v.array(ResponseSchema);

const ScriptObjectSchema = v.strictObject({
  responses: v.optional(ResponseListSchema),
  fallback: v.optional(ResponseSchema),
  chunkSize: v.optional(positive),
});

export type ScriptToolCall = v.InferOutput<typeof ToolCallSchema>;
export type ScriptUsage = v.InferOutput<typeof UsageSchema>;
export type ScriptError = v.InferOutput<typeof ErrorSchema>;
export type ScriptRaw = v.InferOutput<typeof RawSchema>;
export type ScriptResponse = v.InferOutput<typeof ResponseSchema>;
/** A script as written in a `.script.json` file: a bare response list or the object form. */
export type Script = ScriptResponse[] | v.InferOutput<typeof ScriptObjectSchema>;

/** The object form with its defaults applied. */
export interface LoadedScript {
  responses: ScriptResponse[];
  fallback: ScriptResponse;
  chunkSize: number;
}

export const DEFAULT_CHUNK_SIZE = 8;
export const OK_RESPONSE: ScriptResponse = { text: "ok" };

/** "responses[2].toolCalls[0].name" from a valibot issue path. */
function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = "";
  for (const item of issue.path ?? []) {
    const key = item.key;
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out || "(script)";
}

/** valibot's wording for object keys ("Invalid key: Expected never…") is cryptic in a script. */
function issueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.type === "strict_object" && issue.expected === "never") return "unknown field";
  if (issue.message.startsWith("Invalid key") && issue.received === "undefined") return "required field is missing";
  return issue.message;
}

/** Validates a script (parsed JSON or a typed value); the error names the offending field. */
export function parseScript(input: unknown, origin = "script"): LoadedScript {
  // Two separate schemas instead of a union: a union's error would only say "no variant matched".
  const result = Array.isArray(input)
    ? v.safeParse(ResponseListSchema, input)
    : v.safeParse(ScriptObjectSchema, input);
  if (!result.success) {
    const lines = result.issues.map((issue) => `${issuePath(issue)}: ${issueMessage(issue)}`);
    throw new Error(`Invalid fake-LLM ${origin}: ${lines.join("; ")}`);
  }
  const value: Script = result.output;
  if (Array.isArray(value)) return { responses: value, fallback: OK_RESPONSE, chunkSize: DEFAULT_CHUNK_SIZE };
  return {
    responses: value.responses ?? [],
    fallback: value.fallback ?? OK_RESPONSE,
    chunkSize: value.chunkSize ?? DEFAULT_CHUNK_SIZE,
  };
}

/** Reads and validates a `.script.json` file. */
export function loadScriptFile(path: string): LoadedScript {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read fake-LLM script ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseScript(json, `script ${path}`);
}

export type ServedSource = `script[${number}]` | "fallback" | "text";
export type ServedKind = "text" | "toolCalls" | `error:${number}`;

/** What the fixtures' `*.requests.jsonl` call `served`; `label` only when the response has one. */
export interface Served {
  source: ServedSource;
  kind: ServedKind;
  label?: string;
}

export interface Selection {
  response: ScriptResponse;
  /** Chunk size in effect: the response's own, else the script's. */
  chunkSize: number;
  served: Served;
}

/** Fixture values: an error entry is `error:<status>`, tool calls win over text (thinking-only counts as text). */
export function kindOf(response: ScriptResponse): ServedKind {
  if (response.error) return `error:${response.error.status}`;
  if (response.raw && (response.raw.status ?? 200) >= 400) return `error:${response.raw.status ?? 200}`;
  if (response.toolCalls && response.toolCalls.length > 0) return "toolCalls";
  return "text";
}

function selection(response: ScriptResponse, source: ServedSource, scriptChunkSize: number): Selection {
  const served: Served = { source, kind: kindOf(response) };
  if (response.label !== undefined) served.label = response.label;
  return { response, chunkSize: response.chunkSize ?? scriptChunkSize, served };
}

/** The stateless mode of the `next-request` runs: every request gets the text "ok". */
export function textModeSelection(): Selection {
  return selection(OK_RESPONSE, "text", DEFAULT_CHUNK_SIZE);
}

function matches(when: string | readonly string[], rawBody: string): boolean {
  return typeof when === "string" ? rawBody.includes(when) : when.some((text) => rawBody.includes(text));
}

/** Consumption state of one script: how many uses each response has left. */
export class ScriptCursor {
  private readonly left: number[];

  constructor(readonly script: LoadedScript) {
    this.left = script.responses.map((response) => response.repeat ?? 1);
  }

  /**
   * Precedence: the first `when` response with uses left whose substring (one of them, for a
   * list) occurs in the raw body;
   * else the first response without `when` that has uses left; else the fallback. A `when`
   * response is never served to a request that lacks its substring, wherever it sits in the list,
   * which is how scripts answer side requests (summaries) regardless of when they happen.
   */
  next(rawBody: string): Selection {
    const { responses } = this.script;
    let index = responses.findIndex(
      (r, i) => r.when !== undefined && (this.left[i] ?? 0) > 0 && matches(r.when, rawBody),
    );
    if (index < 0) index = responses.findIndex((r, i) => r.when === undefined && (this.left[i] ?? 0) > 0);
    const response = responses[index];
    if (index < 0 || response === undefined) return selection(this.script.fallback, "fallback", this.script.chunkSize);
    this.left[index] = (this.left[index] ?? 1) - 1;
    return selection(response, `script[${index}]`, this.script.chunkSize);
  }
}
