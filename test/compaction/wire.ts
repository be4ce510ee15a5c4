/**
 * Pi's recorded summary requests next to pig's: reading a fixture's `wire/*.requests.jsonl`, and
 * taking a summary request's user text apart (the conversation, the previous summary and a
 * focus are compared exactly; the instructions are our own words).
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SUMMARIZER_SYSTEM_PROMPT } from "../../src/compaction/index.ts";
import type { CompactionEntry, SessionEntry } from "../../src/session/format.ts";
import type { SessionStore } from "../../src/session/store.ts";
import type { RecordedRequest } from "../helpers/fake-llm/server.ts";

export type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };
export interface WireRequest {
  seq: number;
  body: Body;
  headers: Record<string, string>;
  served: { source: string };
}

export function wireRequests(dir: string, name: string): WireRequest[] {
  return readFileSync(join(dir, "wire", `${name}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as WireRequest);
}

export function isSummaryBody(body: Body): boolean {
  const first = body.messages[0];
  return typeof first?.content === "string" && first.content.includes("context summarization assistant");
}

export function userText(body: Body): string {
  const content = body.messages[1]!.content as { type: string; text: string }[];
  expect(content.length).toBe(1);
  return content[0]!.text;
}

export interface RequestParts {
  /** `tags`: `<conversation>`… (history and branch summaries); `headings`: `# Conversation`… (a turn prefix, Pi ≥ 0.87). */
  layout: "tags" | "headings";
  conversation: string;
  previousSummary?: string;
  instructions: string;
}

/** The parts of a summary request's user text, in either layout. */
export function requestParts(text: string): RequestParts {
  const headings = /^# Conversation\n([\s\S]*)\n\n# Instructions\n([\s\S]*)$/.exec(text);
  if (headings) return { layout: "headings", conversation: headings[1]!, instructions: headings[2]! };
  const tags = /^<conversation>\n([\s\S]*)\n<\/conversation>\n\n(?:<previous-summary>\n([\s\S]*)\n<\/previous-summary>\n\n)?([\s\S]*)$/.exec(text);
  expect(tags).not.toBeNull();
  const [, conversation, previousSummary, instructions] = tags!;
  return { layout: "tags", conversation: conversation!, ...(previousSummary !== undefined ? { previousSummary } : {}), instructions: instructions! };
}

export function focusOf(instructions: string): string | undefined {
  return /\n\nAdditional focus: ([\s\S]*)$/.exec(instructions)?.[1];
}

/**
 * Pig's request must be Pi's in everything but the prompt wording and the system prompt text;
 * `differentKeys` are body fields the two versions set differently on purpose (compared apart).
 */
export function expectSameRequest(ours: RecordedRequest, pis: WireRequest, options: { layout?: boolean; differentKeys?: string[] } = {}): void {
  const body = ours.body as Body;
  const skip = new Set(["messages", ...(options.differentKeys ?? [])]);
  expect(Object.keys(body)).toEqual(Object.keys(pis.body));
  for (const key of Object.keys(pis.body)) if (!skip.has(key)) expect({ [key]: body[key] }).toEqual({ [key]: pis.body[key] });
  expect("tools" in body).toBe(false);
  expect(body.messages.map((message) => message.role)).toEqual(pis.body.messages.map((message) => message.role));
  expect(body.messages[0]!.content).toBe(SUMMARIZER_SYSTEM_PROMPT);
  expect(ours.headers.authorization).toBe(pis.headers.authorization!);

  const mine = requestParts(userText(body));
  const theirs = requestParts(userText(pis.body));
  if (options.layout !== false) expect(mine.layout).toBe(theirs.layout);
  expect(mine.conversation).toBe(theirs.conversation);
  expect(mine.previousSummary).toBe(theirs.previousSummary);
  expect(focusOf(mine.instructions)).toBe(focusOf(theirs.instructions));
}

/** Pig's requests keyed by the script response that answered them (the same as Pi's, same script). */
export function bySource(requests: readonly { served: { source: string } }[]): Map<string, number> {
  return new Map(requests.map((request, index) => [request.served.source, index]));
}

export function compactionsOf(store: SessionStore): CompactionEntry[] {
  return store.tree.records.filter((r) => r.type === "compaction").map((r) => store.materialise(r) as CompactionEntry);
}

/** The entries a branch's `context_edit` entries hide (`replacement: null`): Pi's omissions, pig's `omitted`. */
export function omittedByContextEdits(branch: readonly SessionEntry[]): Set<string> {
  const omitted = new Set<string>();
  for (const entry of branch) {
    const edit = entry as { type: string; targetId?: unknown; replacement?: unknown };
    if (edit.type === "context_edit" && edit.replacement === null && typeof edit.targetId === "string") omitted.add(edit.targetId);
  }
  return omitted;
}
