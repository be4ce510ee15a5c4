/**
 * Fixtures 06, 07 and 08 of Pi 0.73.1, read by pig as it follows Pi 0.87.1: each summarisation
 * request Pi sent is rebuilt from the fixture session as it stood at that moment, sent by pig's
 * real openai-completions provider to the fake LLM (answering from the fixture's own script), and
 * compared with Pi's recorded request: the conversation serialisation, the previous summary and
 * the body fields must match exactly; where 0.87.1 changed a request (the turn prefix's layout,
 * the branch summary's output budget) the difference is asserted. The results must equal the
 * fixture's compaction / branch_summary entries. (fixtures-087.test.ts does the same for 0.87.1.)
 */
import { settingsDefaults } from "../../src/resources/settings-effective.ts";
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
  TURN_PREFIX_INSTRUCTIONS,
  type CompactionPreparation,
  type CompactionBudget,
} from "../../src/compaction/index.ts";
import type { BranchSummaryEntry, CompactionEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import type { Script } from "../helpers/fake-llm/script.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fake-llm/server.ts";
import { FIXTURES } from "../helpers/tmp.ts";
import { fakeModel } from "./helpers.ts";
import { bySource, compactionsOf, expectSameRequest, isSummaryBody, requestParts, userText, wireRequests, type Body } from "./wire.ts";

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

function prepareAt(store: SessionStore, entry: CompactionEntry, settings: CompactionBudget): CompactionPreparation {
  const prepared = prepareCompaction(store.getBranch(entry.parentId!), settings);
  if (!prepared || isNothingToCompact(prepared)) throw new Error("expected a preparation");
  return prepared;
}

/**
 * The fixture's script, its turn-prefix answer also matching the 0.87.1 wording pig follows
 * (as Pi 0.87.1's own fixture scripts list both).
 */
function scriptOf(name: string): Script {
  const script = JSON.parse(readFileSync(join(FIXTURES, `${name}.script.json`), "utf8")) as { responses: { when?: string | string[] }[] };
  for (const response of script.responses) {
    if (response.when === "This is the PREFIX of a turn") response.when = [response.when, "Do not infer or recreate later messages"];
  }
  return script as Script;
}

async function runCompactions(name: string, settings: CompactionBudget, contextWindow: number, focus: (index: number) => string | undefined) {
  llm = await startFakeLlm({ script: scriptOf(name) });
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
  const pis = wireRequests(FIXTURES, name).filter((request) => isSummaryBody(request.body));
  expect(llm.requests.length).toBe(pis.length);
  const ours = bySource(llm.requests);
  for (const request of pis) {
    const index = ours.get(request.served.source);
    expect(index).toBeDefined();
    // 0.73.1 wrapped a turn prefix in tags; 0.87.1 puts it under headings (checked below).
    expectSameRequest(llm.requests[index!]!, request, { layout: false });
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
    expect(texts.filter((t) => t.endsWith(TURN_PREFIX_INSTRUCTIONS)).map((t) => requestParts(t).layout)).toEqual(["headings"]);
    const maxTokens = ours.map((request) => (request.body as Body).max_completion_tokens).sort();
    expect(maxTokens).toEqual([13107, 13107, 8192]);
  });
});

describe("fixture 07: auto compactions", () => {
  test("rebuild the threshold and overflow compactions (reserve 4000, keep 50, window 20000)", async () => {
    const { results, ours } = await runCompactions("07-compaction-auto", { reserveTokens: 4000, keepRecentTokens: 50 }, 20000, () => undefined);
    expect(results.length).toBe(2);
    // At the overflow, the last usage (turn two's 17000) was reported before the threshold
    // compaction kept that turn: 0.73.1 still added it up; 0.87.1 (and pig) estimate the context.
    const [threshold, overflow] = results;
    expect(overflow!.entry.tokensBefore).toBe(17128);
    expect(overflow!.result.tokensBefore).toBe(241);
    for (const { entry, result } of results) {
      // 0.73.1 wrote no usage; pig writes the summary's, as 0.87.1 does.
      const { usage, ...stored } = result;
      expect(stored).toEqual({
        summary: entry.summary,
        firstKeptEntryId: entry.firstKeptEntryId!,
        tokensBefore: entry === threshold!.entry ? entry.tokensBefore : 241,
        details: entry.details as { readFiles: string[]; modifiedFiles: string[] },
      });
      expect(entry.usage).toBeUndefined();
      expect(usage?.output).toBeGreaterThan(0);
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
    expect(outcome).toMatchObject({ kind: "summary", summary: stored.summary, details: stored.details as { readFiles: string[]; modifiedFiles: string[] }, requested: true });
    expect(outcome.kind === "summary" && outcome.usage?.output).toBeGreaterThan(0);

    const where = navigationTarget(target);
    expect(where).toEqual({ leafId: "8e2384d1", editorText: "B" });
    expect(stored.parentId).toBe(where.leafId);
    expect(stored.fromId).toBe(where.leafId!);

    const pis = wireRequests(FIXTURES, "08-branching-tree").filter((request) => isSummaryBody(request.body));
    expect(pis.length).toBe(1);
    expect(llm.requests.length).toBe(1);
    expectSameRequest(llm.requests[0]!, pis[0]!, { differentKeys: ["max_completion_tokens"] });
    // 0.73.1 allowed a branch summary 2048 tokens; 0.87.1 allows 4096 (below the model's 16384).
    expect(pis[0]!.body.max_completion_tokens).toBe(2048);
    expect((llm.requests[0]!.body as Body).max_completion_tokens).toBe(4096);

    // The second navigation (to answer A, no summary) keeps that answer as the leaf: A-follow hangs off it.
    expect(navigationTarget(store.getEntry("8e2384d1")!)).toEqual({ leafId: "8e2384d1" });
    expect(store.getEntry("6701436e")!.parentId).toBe("8e2384d1");
  });
});
