/**
 * Text to HTML for the session export: escaping, a small Markdown renderer, and blocks of
 * program output that fold away their long tails.
 *
 * Safety rule: every character that comes from the session goes through `escapeHtml` before it
 * reaches the page. The Markdown renderer escapes first and only ever adds its own fixed tags
 * around already-escaped text; links become plain text, never anchors.
 */
import { formatCount } from "../util/count-text.ts";
import { isTableSeparator, tableAlignments, tableCells } from "../util/markdown-table.ts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Tool outputs longer than this are cut, with a note saying so. */
export const MAX_OUTPUT_CHARS = 20_000;
/** Lines of a long output shown before the rest is folded. */
export const PREVIEW_LINES = 10;
const PREVIEW_CHARS = 2_000;

/** Terminal output made readable: CRLF and lone CR as newlines, ANSI sequences and stray controls removed. */
export function cleanOutput(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, "")
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "");
}

/** One line of text, shortened for headings and lists. */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export interface OutputOptions {
  className?: string;
  previewLines?: number;
  maxChars?: number;
  /** A class for a whole line (e.g. diff colouring); with it, folding only splits at line ends. */
  lineClass?: (line: string) => string | undefined;
}

/**
 * A `<pre>` of output: cut above `maxChars` (with a note), and when long, the first lines shown
 * and the rest in a `<details>` that opens without script.
 */
export function renderOutput(text: string, options: OutputOptions = {}): string {
  const max = options.maxChars ?? MAX_OUTPUT_CHARS;
  const className = options.className ? `out ${options.className}` : "out";
  let body = cleanOutput(text);
  let note = "";
  if (body.length > max) {
    const total = body.length;
    const lineEnd = body.lastIndexOf("\n", max);
    body = body.slice(0, lineEnd > max * 0.8 ? lineEnd : max);
    note = `<div class="trunc-note">Output truncated: ${formatCount(body.length)} of ${formatCount(total)} characters shown.</div>`;
  }
  if (body.endsWith("\n")) body = body.slice(0, -1);
  if (body === "") return `<pre class="${className} empty">(no output)</pre>${note}`;
  const [head, tail] = splitPreview(body, options.previewLines ?? PREVIEW_LINES, options.lineClass !== undefined);
  const lines = (part: string): string => renderLines(part, options.lineClass);
  if (tail === "") return `<pre class="${className}">${lines(head)}</pre>${note}`;
  const more = countLines(tail);
  return (
    `<pre class="${className} head">${lines(head)}</pre>` +
    `<details class="more"><summary>${more === 1 ? "1 more line" : `${formatCount(more)} more lines`}</summary>` +
    `<pre class="${className} rest">${lines(tail)}</pre></details>${note}`
  );
}

function renderLines(text: string, lineClass: OutputOptions["lineClass"]): string {
  if (!lineClass) return escapeHtml(text);
  return text
    .split("\n")
    .map((line) => {
      const cls = lineClass(line);
      return cls ? `<span class="${cls}">${escapeHtml(line)}</span>` : escapeHtml(line);
    })
    .join("\n");
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Splits off the preview; a tail too small to be worth folding stays in the head. */
function splitPreview(text: string, previewLines: number, wholeLines: boolean): [string, string] {
  let pos = 0;
  for (let n = 0; n < previewLines; n++) {
    const nl = text.indexOf("\n", pos);
    if (nl < 0) {
      pos = text.length;
      break;
    }
    pos = nl + 1;
  }
  let cut = pos >= text.length ? text.length : pos - 1;
  if (cut > PREVIEW_CHARS) {
    const nl = text.lastIndexOf("\n", PREVIEW_CHARS);
    cut = nl > 0 ? nl : wholeLines ? cut : PREVIEW_CHARS;
  }
  const tail = text.slice(cut).replace(/^\n/, "");
  if (tail === "" || (countLines(tail) <= 3 && tail.length <= 300)) return [text, ""];
  return [text.slice(0, cut), tail];
}

/** Class of a line of a unified or pi-style diff. */
export function diffLineClass(line: string): string | undefined {
  if (line.startsWith("+++") || line.startsWith("---")) return "d-file";
  if (line.startsWith("+")) return "d-add";
  if (line.startsWith("-")) return "d-del";
  if (line.startsWith("@@")) return "d-hunk";
  if (/^\s*\.\.\.\s*$/.test(line)) return "d-gap";
  return "d-ctx";
}

// ── Markdown ────────────────────────────────────────────────────────────────

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:\s+(.*))?$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>/;
const BLANK = /^\s*$/;

/** Markdown as safe HTML: headings, lists, quotes, tables, fenced code, inline code and emphasis. */
export function renderMarkdown(text: string): string {
  return renderBlocks(text.replace(/\r\n?/g, "\n").replace(/\u0000/g, "").split("\n"), 0);
}

function renderBlocks(lines: string[], depth: number): string {
  const out: string[] = [];
  let para: string[] = [];
  const flush = (): void => {
    if (para.length > 0) out.push(`<p>${para.map(inline).join("<br>")}</p>`);
    para = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const close = new RegExp(`^\\s*\\${marker[0]}{${marker.length},}\\s*$`);
      const body: string[] = [];
      for (i++; i < lines.length && !close.test(lines[i]!); i++) body.push(stripIndent(lines[i]!, indent));
      i++;
      out.push(codeBlock(body.join("\n"), fence[3] ?? ""));
      continue;
    }
    if (BLANK.test(line)) {
      flush();
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1]!.length + 2);
      out.push(`<h${level} class="md-h">${inline(heading[2]!)}</h${level}>`);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      flush();
      out.push("<hr>");
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      flush();
      const inner: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]!); i++) inner.push(lines[i]!.replace(/^ {0,3}> ?/, ""));
      const body = depth < 6 ? renderBlocks(inner, depth + 1) : `<p>${inner.map(inline).join("<br>")}</p>`;
      out.push(`<blockquote>${body}</blockquote>`);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      const start = i;
      i = listEnd(lines, i);
      out.push(renderList(lines.slice(start, i)));
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && lines[i + 1]!.includes("|") && isTableSeparator(lines[i + 1]!)) {
      flush();
      const start = i;
      for (i += 2; i < lines.length && lines[i]!.includes("|") && !BLANK.test(lines[i]!); i++);
      out.push(renderTable(lines.slice(start, i)));
      continue;
    }
    para.push(line.trim());
    i++;
  }
  flush();
  return out.join("\n");
}

function stripIndent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && (line[n] === " " || line[n] === "\t")) n++;
  return line.slice(n);
}

function codeBlock(code: string, lang: string): string {
  const label = lang ? `<div class="code-lang">${escapeHtml(lang)}</div>` : "";
  const body = lang === "diff" || lang === "patch" ? renderLines(code, diffLineClass) : escapeHtml(code);
  return `<div class="code">${label}<pre><code>${body}</code></pre></div>`;
}

/** Where a list that starts at `i` ends: items, their indented or lazy continuations, and blank lines inside. */
function listEnd(lines: string[], i: number): number {
  while (i < lines.length) {
    const line = lines[i]!;
    if (FENCE.test(line)) return i;
    if (LIST_ITEM.test(line)) {
      i++;
      continue;
    }
    if (BLANK.test(line)) {
      let j = i + 1;
      while (j < lines.length && BLANK.test(lines[j]!)) j++;
      const next = lines[j];
      if (next !== undefined && !FENCE.test(next) && (LIST_ITEM.test(next) || /^\s{2,}\S/.test(next))) {
        i = j;
        continue;
      }
      return i;
    }
    if (HEADING.test(line) || RULE.test(line) || QUOTE.test(line)) return i;
    i++;
  }
  return i;
}

interface ListItem {
  indent: number;
  tag: "ul" | "ol";
  start: number;
  text: string[];
}

function renderList(lines: string[]): string {
  const items: ListItem[] = [];
  for (const line of lines) {
    const m = LIST_ITEM.exec(line);
    if (m) {
      const ordered = /\d/.test(m[2]!);
      items.push({ indent: m[1]!.replace(/\t/g, "    ").length, tag: ordered ? "ol" : "ul", start: ordered ? parseInt(m[2]!, 10) : 1, text: [m[3] ?? ""] });
    } else if (items.length > 0) {
      items[items.length - 1]!.text.push(line.trim());
    }
  }
  const out: string[] = [];
  const stack: { indent: number; tag: "ul" | "ol" }[] = [];
  const open = (item: ListItem): void => {
    out.push(item.tag === "ol" && item.start !== 1 ? `<ol start="${item.start}">` : `<${item.tag}>`);
    stack.push({ indent: item.indent, tag: item.tag });
  };
  for (const item of items) {
    while (stack.length > 1 && item.indent < stack[stack.length - 1]!.indent) out.push(`</li></${stack.pop()!.tag}>`);
    const top = stack[stack.length - 1];
    if (!top || item.indent > top.indent) {
      open(item);
    } else if (top.tag !== item.tag) {
      out.push(`</li></${stack.pop()!.tag}>`);
      open(item);
    } else {
      out.push("</li>");
    }
    out.push(`<li>${listItemBody(item.text)}`);
  }
  while (stack.length > 0) out.push(`</li></${stack.pop()!.tag}>`);
  return out.join("");
}

function listItemBody(text: string[]): string {
  const first = text[0] ?? "";
  const task = /^\[([ xX])\]\s+/.exec(first);
  const lines = task ? [first.slice(task[0].length), ...text.slice(1)] : text;
  const box = task ? (task[1] === " " ? "☐ " : "☑ ") : "";
  return box + lines.filter((l) => l !== "").map(inline).join("<br>");
}

function renderTable(lines: string[]): string {
  const align = tableAlignments(lines[1]!).map((a) => (a === "center" ? "al-c" : a === "right" ? "al-r" : ""));
  const row = (line: string, tag: "th" | "td"): string =>
    `<tr>${tableCells(line)
      .map((c, n) => (align[n] ? `<${tag} class="${align[n]}">` : `<${tag}>`) + `${inline(c)}</${tag}>`)
      .join("")}</tr>`;
  const body = lines.slice(2).map((l) => row(l, "td")).join("");
  return `<div class="table"><table><thead>${row(lines[0]!, "th")}</thead><tbody>${body}</tbody></table></div>`;
}

/** Inline Markdown: code spans verbatim, the rest escaped and then given emphasis. */
export function inline(text: string): string {
  // A pathological line (megabytes, unbalanced markers) is shown as it is rather than parsed.
  if (text.length > 20_000) return escapeHtml(text);
  const out: string[] = [];
  const code = /(`+)([\s\S]*?[^`])\1(?!`)/g;
  let last = 0;
  for (let m = code.exec(text); m; m = code.exec(text)) {
    out.push(emphasis(text.slice(last, m.index)));
    const body = m[2]!;
    out.push(`<code>${escapeHtml(body.length > 2 && body.startsWith(" ") && body.endsWith(" ") ? body.slice(1, -1) : body)}</code>`);
    last = code.lastIndex;
  }
  out.push(emphasis(text.slice(last)));
  return out.join("");
}

const URL_PART = String.raw`([^\s()]+(?:\([^\s()]*\)[^\s()]*)*)(?:\s+&quot;[^]*?&quot;)?`;
const IMAGE = new RegExp(String.raw`!\[([^\]]*)\]\(${URL_PART}\)`, "g");
const LINK = new RegExp(String.raw`\[([^\]]+)\]\(${URL_PART}\)`, "g");

function emphasis(raw: string): string {
  const kept: string[] = [];
  const keep = (html: string): string => `\u0000${kept.push(html) - 1}\u0000`;
  let s = escapeHtml(raw.replace(/\u0000/g, ""));
  s = s.replace(IMAGE, (_, alt: string, url: string) => keep(`<span class="md-img">[image${alt ? `: ${alt}` : ""}]</span> <span class="url">${url}</span>`));
  s = s.replace(LINK, (_, label: string, url: string) =>
    keep(label === url ? `<span class="url">${url}</span>` : `<span class="link">${styles(label)}</span> <span class="url">(${url})</span>`),
  );
  s = s.replace(/&lt;((?:https?|mailto):[^\s&]+(?:&amp;[^\s&]+)*)&gt;/g, (_, url: string) => keep(`<span class="url">${url}</span>`));
  s = s.replace(/\b(?:https?|ftp):\/\/[^\s]+/g, (url) => keep(url));
  return styles(s).replace(/\u0000(\d+)\u0000/g, (_, n: string) => kept[Number(n)] ?? "");
}

/** Bold, italic and strikethrough over escaped text (the markers are never escaped characters). */
function styles(s: string): string {
  return s
    .replace(/\*\*(?=\S)([^]*?\S)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^\w])__(?=\S)([^]*?\S)__(?!\w)/g, "$1<strong>$2</strong>")
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~(?=\S)([^]*?\S)~~/g, "<del>$1</del>");
}
