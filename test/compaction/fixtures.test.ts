/**
 * Fixtures 06, 07 and 08 of Pi 0.73.1: each summarisation request Pi sent is rebuilt from the
 * fixture session as it stood at that moment, sent by pig's real openai-completions provider to
 * the fake LLM (answering from the fixture's own script), and compared with Pi's recorded request.
 * Prompt wording is pig's own, so instructions are compared by position only; the conversation
 * serialisation, the previous summary, the wrapper and the body fields must match exactly. The
 * results must equal the fixture's compaction / branch_summary entries.
 */
import { settingsDefaults } from "../../src/resources/settings.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { streamFor } from "../../src/ai/stream.ts";
import type { Model } from "../../src/ai/types.ts";
import {
  collectEntriesForBranchSummary,
  compact,
  compactionInstructions,
  generateBranchSummary,
  isNothingToCompact,
  navigationTarget,
  prepareCompaction,
  SUMMARIZER_SYSTEM_PROMPT,
  TURN_PREFIX_INSTRUCTIONS,
  type CompactionPreparation,
  type CompactionSettings,
} from "../../src/compaction/index.ts";
import type { BranchSummaryEntry, CompactionEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { startFakeLlm, type FakeLlm, type RecordedRequest } from "../helpers/fake-llm/server.ts";
import { FIXTURES } from "../helpers/tmp.ts";
import { fakeModel } from "./helpers.ts";

type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };
interface WireRequest {
  seq: number;
  body: Body;
  headers: Record<string, string>;
  served: { source: string };
}

function wireRequests(name: string): WireRequest[] {
  return readFileSync(join(FIXTURES, "wire", `${name}.requests.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as WireRequest);
}

function isSummaryBody(body: Body): boolean {
  const first = body.messages[0];
  return typeof first?.content === "string" && first.content.includes("context summarization assistant");
}

function userText(body: Body): string {
  const content = body.messages[1]!.content as { type: string; text: string }[];
  expect(content.length).toBe(1);
  return content[0]!.text;
}

/** The wrapper parts of a summary request's user text. */
function wrapperParts(text: string): { conversation: string; previousSummary?: string; instructions: string } {
  const match = /^<conversation>\n([\s\S]*)\n<\/conversation>\n\n(?:<previous-summary>\n([\s\S]*)\n<\/previous-summary>\n\n)?([\s\S]*)$/.exec(text);
  expect(match).not.toBeNull();
  const [, conversation, previousSummary, instructions] = match!;
  return { conversation: conversation!, ...(previousSummary !== undefined ? { previousSummary } : {}), instructions: instructions! };
}

function focusOf(instructions: string): string | undefined {
  return /\n\nAdditional focus: ([\s\S]*)$/.exec(instructions)?.[1];
}

/** Pig's request must be Pi's in everything but the prompt wording and the system prompt text. */
function expectSameRequest(ours: RecordedRequest, pis: WireRequest): void {
  const body = ours.body as Body;
  expect(Object.keys(body)).toEqual(Object.keys(pis.body));
  for (const key of Object.keys(pis.body)) {
    if (key !== "messages") expect(body[key]).toEqual(pis.body[key]);
  }
  expect("tools" in body).toBe(false);
  expect(body.messages.map((message) => message.role)).toEqual(pis.body.messages.map((message) => message.role));
  expect(body.messages[0]!.content).toBe(SUMMARIZER_SYSTEM_PROMPT);
  expect(ours.headers.authorization).toBe(pis.headers.authorization!);

  const mine = wrapperParts(userText(body));
  const theirs = wrapperParts(userText(pis.body));
  expect(mine.conversation).toBe(theirs.conversation);
  expect(mine.previousSummary).toBe(theirs.previousSummary);
  expect(focusOf(mine.instructions)).toBe(focusOf(theirs.instructions));
}

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

function model(url: string, contextWindow = 128000): Model {
  return fakeModel(`${url}/v1`, { contextWindow });
}

function openFixture(name: string): SessionStore {
  return SessionStore.open(join(FIXTURES, `${name}.jsonl`));
}

function compactionsOf(store: SessionStore): CompactionEntry[] {
  return store.tree.records.filter((r) => r.type === "compaction").map((r) => store.materialise(r) as CompactionEntry);
}

function prepareAt(store: SessionStore, entry: CompactionEntry, settings: CompactionSettings): CompactionPreparation {
  const prepared = prepareCompaction(store.getBranch(entry.parentId!), settings);
  if (!prepared || isNothingToCompact(prepared)) throw new Error("expected a preparation");
  return prepared;
}

/** Pig's requests keyed by the script response that answered them (the same as Pi's, same script). */
function bySource(requests: readonly { served: { source: string } }[]): Map<string, number> {
  return new Map(requests.map((request, index) => [request.served.source, index]));
}

async function runCompactions(name: string, settings: CompactionSettings, contextWindow: number, focus: (index: number) => string | undefined) {
  llm = await startFakeLlm({ script: join(FIXTURES, `${name}.script.json`) });
  const store = openFixture(name);
  const fake = model(llm.url, contextWindow);
  const results = [];
  for (const [index, entry] of compactionsOf(store).entries()) {
    const preparation = prepareAt(store, entry, settings);
    const result = await compact(preparation, {
      model: fake,
      stream: streamFor(fake),
      apiKey: "fake-key",
      customInstructions: focus(index),
      thinkingLevel: "off",
    });
    results.push({ entry, preparation, result });
  }
  const pis = wireRequests(name).filter((request) => isSummaryBody(request.body));
  expect(llm.requests.length).toBe(pis.length);
  const ours = bySource(llm.requests);
  for (const request of pis) {
    const index = ours.get(request.served.source);
    expect(index).toBeDefined();
    expectSameRequest(llm.requests[index!]!, request);
  }
  return { results, pis, ours: llm.requests };
}

describe("fixture 06: manual compactions", () => {
  test("rebuild Pi's initial, update and turn-prefix requests and its two compaction entries", async () => {
    const { results, ours } = await runCompactions("06-compaction-manual", { reserveTokens: 16384, keepRecentTokens: 300 }, 128000, (i) =>
      i === 0 ? "Focus on module names" : undefined,
    );
    expect(results.length).toBe(2);
    for (const { entry, result } of results) {
      expect(result.summary).toBe(entry.summary);
      expect(result.firstKeptEntryId).toBe(entry.firstKeptEntryId!);
      expect(result.tokensBefore).toBe(entry.tokensBefore);
      expect(result.details).toEqual(entry.details as { readFiles: string[]; modifiedFiles: string[] });
    }
    const [first, second] = results;
    expect(first!.preparation.isSplitTurn).toBe(false);
    expect(second!.preparation.isSplitTurn).toBe(true);
    expect(second!.preparation.previousSummary).toBe(first!.entry.summary);

    const texts = ours.map((request) => userText(request.body as Body));
    expect(texts.filter((t) => t.endsWith(compactionInstructions(undefined, "Focus on module names"))).length).toBe(1);
    expect(texts.filter((t) => t.endsWith(compactionInstructions("previous"))).length).toBe(1);
    expect(texts.filter((t) => t.endsWith(TURN_PREFIX_INSTRUCTIONS)).length).toBe(1);
    const maxTokens = ours.map((request) => (request.body as Body).max_completion_tokens).sort();
    expect(maxTokens).toEqual([13107, 13107, 8192]);
  });
});

describe("fixture 07: auto compactions", () => {
  test("rebuild the threshold and overflow compactions (reserve 4000, keep 50, window 20000)", async () => {
    const { results, ours } = await runCompactions("07-compaction-auto", { reserveTokens: 4000, keepRecentTokens: 50 }, 20000, () => undefined);
    expect(results.length).toBe(2);
    for (const { entry, result } of results) {
      expect(result).toEqual({
        summary: entry.summary,
        firstKeptEntryId: entry.firstKeptEntryId!,
        tokensBefore: entry.tokensBefore,
        details: entry.details as { readFiles: string[]; modifiedFiles: string[] },
      });
    }
    expect(ours.map((request) => (request.body as Body).max_completion_tokens)).toEqual([3200, 3200]);
    // The overflow compaction's branch ends with the failed answer; it adds nothing to summarise.
    expect(results[1]!.preparation.messagesToSummarize.map((message) => message.role)).toEqual(["user", "assistant"]);
  });
});

describe("fixture 08: branch summary on tree navigation", () => {
  test("rebuild the branch-summary request and entry, and the leaf of both navigations", async () => {
    llm = await startFakeLlm({ script: join(FIXTURES, "08-branching-tree.script.json") });
    const store = openFixture("08-branching-tree");
    const fake = model(llm.url);
    const stored = store.materialise(store.tree.records.find((r) => r.type === "branch_summary")!) as BranchSummaryEntry;

    // The first navigation left answer C ("07501ca4") for user message B ("cac8741e").
    const target = store.getEntry("cac8741e")!;
    const { entries, commonAncestorId } = collectEntriesForBranchSummary((id) => store.getEntry(id), "07501ca4", target.id);
    expect(commonAncestorId).toBe("cac8741e");
    expect(entries.map((entry) => entry.id)).toEqual(["684a7da7", "53f3e259", "c9f8b0e1", "b4c846cb", "07501ca4"]);

    const outcome = await generateBranchSummary(entries, { model: fake, stream: streamFor(fake), apiKey: "fake-key", reserveTokens: settingsDefaults.branchSummary.reserveTokens });
    expect(outcome).toEqual({ kind: "summary", summary: stored.summary, details: stored.details as { readFiles: string[]; modifiedFiles: string[] }, requested: true });

    const where = navigationTarget(target);
    expect(where).toEqual({ leafId: "8e2384d1", editorText: "B" });
    expect(stored.parentId).toBe(where.leafId);
    expect(stored.fromId).toBe(where.leafId!);

    const pis = wireRequests("08-branching-tree").filter((request) => isSummaryBody(request.body));
    expect(pis.length).toBe(1);
    expect(llm.requests.length).toBe(1);
    expectSameRequest(llm.requests[0]!, pis[0]!);
    expect((llm.requests[0]!.body as Body).max_completion_tokens).toBe(2048);

    // The second navigation (to answer A, no summary) keeps that answer as the leaf: A-follow hangs off it.
    expect(navigationTarget(store.getEntry("8e2384d1")!)).toEqual({ leafId: "8e2384d1" });
    expect(store.getEntry("6701436e")!.parentId).toBe("8e2384d1");
  });
});
