/**
 * One entry of a session as HTML: messages of every role, tool calls with their results, and the
 * small notices for model, thinking level, name, compaction and branch summaries.
 *
 * Entries come from disk and are only shape-checked on load, so every field is read defensively:
 * a missing or oddly typed field renders as little as possible, never as an exception.
 */
import * as v from "valibot";
import { NestedToolCallsSchema } from "../session/format.ts";
import { cleanOutput, diffLineClass, escapeHtml as esc, oneLine, renderMarkdown, renderOutput } from "./html-text.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { formatCount } from "../util/count-text.ts";

type Obj = Record<string, unknown>;

export interface EntryFrame {
  readonly id: string;
  readonly timestamp: string;
  readonly label?: string | undefined;
}

/** A tool result found for a call, with the frame of its own entry. */
export interface FoundResult {
  readonly message: Obj;
  readonly frame: EntryFrame;
}

/** Finds (and claims) the result of a tool call by its id. */
export type ResultLookup = (toolCallId: string) => FoundResult | undefined;

/** A call's body: a shell command, a file's content, or replacements as a diff. */
export interface PresentedBody {
  kind: "command" | "file" | "diff";
  text: string;
}

/** A call as its tool presents it: header parts (an argument, or a muted extra) and a body. */
export interface PresentedCall {
  head: readonly { kind: "argument" | "extra"; text: string }[];
  body?: PresentedBody;
}

/**
 * How a tool's call is drawn, given by the caller (the tools' definitions say it; the export
 * knows no tool by name). Undefined: the arguments are shown as JSON.
 */
export type CallPresenter = (name: string, args: Obj, result: { isError: boolean; details: unknown } | undefined) => PresentedCall | undefined;

const NO_PRESENTER: CallPresenter = () => undefined;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function blocksOf(content: unknown): Obj[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isPlainObject) : [];
}

/** The text blocks of a message's content, joined. */
export function textOf(content: unknown): string {
  return blocksOf(content)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n");
}

export function formatTime(iso: string, withDate = false): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const text = new Date(ms).toISOString();
  return withDate ? `${text.slice(0, 10)} ${text.slice(11, 19)} UTC` : text.slice(11, 19);
}

export function anchor(id: string): string {
  return `e-${id}`;
}

export function labelHtml(label: string | undefined): string {
  return label ? `<span class="label" title="label">${esc(label)}</span>` : "";
}

function open(cls: string, frame: EntryFrame, role: string, extra = ""): string {
  const time = `<time datetime="${esc(frame.timestamp)}" title="${esc(frame.timestamp)}">${esc(formatTime(frame.timestamp))}</time>`;
  return (
    `<section class="entry ${cls}" id="${esc(anchor(frame.id))}">` +
    `<div class="entry-head"><span class="role">${esc(role)}</span>${labelHtml(frame.label)}${extra}${time}</div>`
  );
}

/** A one-line notice (model, thinking level, name) in the flow of the conversation. */
export function marker(frame: EntryFrame, html: string): string {
  return `<div class="marker" id="${esc(anchor(frame.id))}">${html}${labelHtml(frame.label)}</div>\n`;
}

export function imageHtml(block: Obj): string {
  const mime = str(block.mimeType) ?? str(block.media_type);
  const data = str(block.data);
  if (mime && /^image\/[a-z0-9.+-]+$/i.test(mime) && data !== undefined && /^[A-Za-z0-9+/=\s]*$/.test(data)) {
    return `<img class="image" alt="${esc(mime)}" src="data:${mime.toLowerCase()};base64,${data.replace(/\s+/g, "")}">`;
  }
  const url = str(block.url);
  return `<div class="image-ref">[image${url ? `: ${esc(url)}` : mime ? ` (${esc(mime)})` : ""}]</div>`;
}

/** Content blocks of a user-side message: text (plain or Markdown) and images. */
function contentHtml(content: unknown, markdown: boolean): string {
  const parts: string[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === "text") {
      const text = str(block.text) ?? "";
      if (text !== "") parts.push(markdown ? `<div class="md">${renderMarkdown(text)}</div>` : `<div class="plain">${esc(text)}</div>`);
    } else if (block.type === "image") {
      parts.push(imageHtml(block));
    } else {
      parts.push(`<div class="empty">[${esc(String(block.type))} block]</div>`);
    }
  }
  return parts.length > 0 ? parts.join("") : `<div class="empty">(empty)</div>`;
}

// ── messages ────────────────────────────────────────────────────────────────

/** A message entry's message as HTML ("" for messages that are not shown). */
export function messageHtml(message: Obj, frame: EntryFrame, lookup: ResultLookup, present: CallPresenter = NO_PRESENTER): string {
  switch (message.role) {
    case "user":
      return `${open("user", frame, "User")}${contentHtml(message.content, false)}</section>\n`;
    case "assistant":
      return assistantHtml(message, frame, lookup, present);
    case "toolResult": {
      const tool = str(message.toolName) ?? "tool";
      return `${open("tool-only", frame, "Tool result", ` <span class="tool-name">${esc(tool)}</span>`)}${toolResultHtml(message, tool)}</section>\n`;
    }
    case "bashExecution":
      return bashHtml(message, frame);
    case "custom":
      return customHtml(message, frame);
    case "compactionSummary":
      return compactionHtml(str(message.summary) ?? "", num(message.tokensBefore), frame);
    case "branchSummary":
      return branchSummaryHtml(str(message.summary) ?? "", frame);
    case "system":
      return systemHtml(message, frame);
    default:
      return marker(frame, `<span class="empty">Message with role ${esc(String(message.role))} (not shown)</span>`);
  }
}

function usageHtml(message: Obj): string {
  const usage = isPlainObject(message.usage) ? message.usage : undefined;
  const model = [str(message.provider), str(message.model)].filter(Boolean).join("/");
  const bits: string[] = [];
  if (model) bits.push(esc(model));
  const input = num(usage?.input) ?? 0;
  const output = num(usage?.output) ?? 0;
  if (input + output > 0) bits.push(`${formatCount(input)} in · ${formatCount(output)} out`);
  return bits.length > 0 ? `<span class="usage">${bits.join(" · ")}</span>` : "";
}

function assistantHtml(message: Obj, frame: EntryFrame, lookup: ResultLookup, present: CallPresenter): string {
  const parts: string[] = [];
  for (const block of blocksOf(message.content)) {
    switch (block.type) {
      case "text": {
        const text = str(block.text) ?? "";
        if (text.trim() !== "") parts.push(`<div class="md">${renderMarkdown(text)}</div>`);
        break;
      }
      case "thinking":
        parts.push(thinkingHtml(block));
        break;
      case "toolCall":
      case "tool_use": {
        const id = str(block.id) ?? "";
        const args = isPlainObject(block.arguments) ? block.arguments : isPlainObject(block.input) ? block.input : {};
        parts.push(toolCallHtml(str(block.name) ?? "tool", args, id ? lookup(id) : undefined, present));
        break;
      }
      case "image":
        parts.push(imageHtml(block));
        break;
      default:
        parts.push(`<div class="empty">[${esc(String(block.type))} block]</div>`);
    }
  }
  const stop = message.stopReason;
  const error = str(message.errorMessage);
  if (stop === "error") parts.push(`<div class="error-box"><strong>Error:</strong> ${esc(error ?? "the request failed")}</div>`);
  else if (stop === "aborted") parts.push(`<div class="aborted-box"><strong>Aborted</strong>${error && error !== "Request was aborted" ? `: ${esc(error)}` : ""}</div>`);
  else if (stop === "length") parts.push(`<div class="aborted-box">Stopped at the output length limit.</div>`);
  if (parts.length === 0) parts.push(`<div class="empty">(empty reply)</div>`);
  const cls = stop === "error" ? "assistant failed" : stop === "aborted" ? "assistant aborted" : "assistant";
  return `${open(cls, frame, "Assistant", usageHtml(message))}${parts.join("")}</section>\n`;
}

function thinkingHtml(block: Obj): string {
  const text = str(block.thinking) ?? "";
  if (block.redacted === true) return `<details class="thinking"><summary>Thinking (redacted)</summary></details>`;
  if (text.trim() === "") return "";
  return `<details class="thinking"><summary>Thinking</summary><div class="plain">${esc(text)}</div></details>`;
}

// ── tools ───────────────────────────────────────────────────────────────────

const code = (text: string): string => `<span class="tool-arg">${esc(text)}</span>`;
const extra = (text: string): string => (text ? `<span class="tool-extra">${esc(text)}</span>` : "");

/** Head and body of a call as its tool presents them; undefined for a tool without a presentation or arguments not of the expected shape. */
function callParts(name: string, args: Obj, result: FoundResult | undefined, present: CallPresenter): { head: string; body: string } | undefined {
  const found = result ? { isError: result.message.isError === true, details: result.message.details } : undefined;
  const call = present(name, args, found);
  if (!call) return undefined;
  const head = call.head.map((part) => (part.kind === "argument" ? code(part.text) : extra(part.text))).join("");
  return { head, body: call.body ? bodyHtml(call.body) : "" };
}

function bodyHtml(body: PresentedBody): string {
  switch (body.kind) {
    case "command":
      return `<pre class="cmd">$ ${esc(body.text)}</pre>`;
    case "file":
      return renderOutput(body.text, { className: "file" });
    case "diff":
      return renderOutput(body.text, { className: "diff", lineClass: diffLineClass });
  }
}

function toolCallHtml(name: string, args: Obj, result: FoundResult | undefined, present: CallPresenter): string {
  let parts = callParts(name, args, result, present);
  if (!parts) {
    const json = JSON.stringify(args, null, 2) ?? "{}";
    parts = { head: "", body: json === "{}" ? "" : renderOutput(json, { className: "args" }) };
  }
  const resultPart = result
    ? `<div class="tool-result${result.message.isError === true ? " error" : ""}" id="${esc(anchor(result.frame.id))}">${labelHtml(result.frame.label)}${toolResultHtml(result.message, name)}</div>`
    : "";
  return (
    `<div class="tool${result ? "" : " pending"}"><div class="tool-head"><span class="tool-name">${esc(name)}</span>${parts.head}</div>` +
    `${parts.body ? `<div class="tool-body">${parts.body}</div>` : ""}${resultPart}</div>`
  );
}

/** The content of a tool result: text (a diff for edits), images, and notes on truncation. */
export function toolResultHtml(message: Obj, toolName: string): string {
  const isError = message.isError === true;
  const blocks = blocksOf(message.content);
  const text = textOf(blocks);
  const details = isPlainObject(message.details) ? message.details : undefined;
  const parts: string[] = [];
  const diff = details && !isError ? str(details.diff) : undefined;
  if (diff !== undefined) {
    if (text) parts.push(`<div class="result-status">${esc(oneLine(cleanOutput(text), 300))}</div>`);
    parts.push(renderOutput(diff, { className: "diff", lineClass: diffLineClass, previewLines: 40 }));
  } else {
    if (isError) parts.push(`<div class="result-status error">${esc(toolName)} failed</div>`);
    const images = blocks.some((b) => b.type === "image");
    if (text !== "" || !images) parts.push(renderOutput(text, isError ? { className: "error" } : {}));
  }
  for (const block of blocks) if (block.type === "image") parts.push(imageHtml(block));
  const full = details ? str(details.fullOutputPath) : undefined;
  if (full) parts.push(`<div class="trunc-note">Full output was saved to ${esc(full)}</div>`);
  const nested = nestedCallsText(message.nestedCalls);
  if (nested) parts.push(renderOutput(nested, { className: "nested", previewLines: 1 }));
  return parts.join("");
}

const NESTED_STATUS = { ok: "✓", error: "✗", unfinished: "…" } as const;

/**
 * The calls a tool made to other tools (`nestedCalls`, Pi 1.x), one line each with its
 * arguments and time, an error under its call; undefined when there are none.
 */
export function nestedCallsText(value: unknown): string | undefined {
  const parsed = v.safeParse(NestedToolCallsSchema, value);
  if (!parsed.success || parsed.output.calls.length === 0) return undefined;
  const { calls, complete } = parsed.output;
  const lines = calls.map((call) => {
    const args = call.arguments ? JSON.stringify(call.arguments) : `[arguments left out, ${call.argumentsBytes ?? "?"} bytes]`;
    const time = call.durationMs !== undefined ? ` ${call.durationMs}ms` : "";
    const error = call.error ? `\n    ${call.error.split("\n").join("\n    ")}` : "";
    return `${NESTED_STATUS[call.status]} ${call.name} ${args}${time}${error}`;
  });
  return [`Nested calls: ${calls.length}${complete ? "" : " (incomplete record)"}`, ...lines].join("\n");
}

function bashHtml(message: Obj, frame: EntryFrame): string {
  const excluded = message.excludeFromContext === true;
  const command = str(message.command) ?? "";
  const exitCode = num(message.exitCode);
  let status: string;
  let failed = false;
  if (message.cancelled === true) [status, failed] = ["cancelled", true];
  else if (exitCode === undefined) status = "exit code unknown";
  else [status, failed] = [`exit code ${exitCode}`, exitCode !== 0];
  const notes: string[] = [];
  if (message.truncated === true) notes.push("output truncated");
  const full = str(message.fullOutputPath);
  if (full) notes.push(`full output: ${full}`);
  if (excluded) notes.push("not sent to the model");
  return (
    `${open("bash", frame, "Shell command")}<pre class="cmd">${excluded ? "!!" : "!"}${esc(command)}</pre>` +
    `${renderOutput(str(message.output) ?? "")}` +
    `<div class="exit${failed ? " error" : ""}">${esc([status, ...notes].join(" · "))}</div></section>\n`
  );
}

/** A custom (extension) message; "" when it is not meant to be displayed. */
export function customHtml(message: Obj, frame: EntryFrame): string {
  if (message.display !== true) return "";
  const type = str(message.customType) ?? "custom";
  return `${open("custom", frame, type)}${contentHtml(message.content, true)}</section>\n`;
}

export function compactionHtml(summary: string, tokensBefore: number | undefined, frame: EntryFrame): string {
  const before = tokensBefore !== undefined ? ` <span class="tool-extra">${formatCount(tokensBefore)} tokens before</span>` : "";
  return (
    `${open("notice compaction", frame, "Context compacted", before)}` +
    `<details><summary>Summary of the earlier conversation</summary><div class="md">${renderMarkdown(summary)}</div></details></section>\n`
  );
}

export function branchSummaryHtml(summary: string, frame: EntryFrame): string {
  return (
    `${open("notice branch-summary", frame, "Branch summary")}` +
    `<details><summary>Summary of the branch left behind</summary><div class="md">${renderMarkdown(summary)}</div></details></section>\n`
  );
}

/** A system message (Pi 0.87): the prompt it declares or changes, folded, and the tools it adds or removes. */
export function systemHtml(message: Obj, frame: EntryFrame): string {
  const names = (list: unknown, sign: string) => (Array.isArray(list) ? list.flatMap((t) => (isPlainObject(t) && typeof t.name === "string" ? [`${sign}${t.name}`] : [])) : []);
  const tools = [...names(message.toolsAdded, "+"), ...names(message.toolsRemoved, "−")];
  const extra = tools.length > 0 ? ` <span class="tool-extra">tools ${esc(tools.join(" "))}</span>` : "";
  const sections = isPlainObject(message.sections) ? Object.entries(message.sections) : [];
  const content = typeof message.content === "string" ? message.content : "";
  const parts = [
    ...(content ? [content] : []),
    ...sections.map(([name, text]) => (typeof text === "string" ? text : `(section ${name} removed)`)),
  ];
  const body = parts.length > 0 ? `<details><summary>${message.replace === true ? "The prompt, anew" : "Prompt"}</summary><div class="plain">${esc(parts.join("\n\n"))}</div></details>` : "";
  return `${open("notice system", frame, "Prompt and tools", extra)}${body}</section>\n`;
}
