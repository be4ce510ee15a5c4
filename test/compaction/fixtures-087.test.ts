/**
 * Fixtures 06, 07 and 08 of Pi 0.87.1, the version pig follows: each summarisation request Pi
 * sent is rebuilt from the fixture session as it stood at that moment (with the entries Pi's own
 * `context_edit` hid left out, as pig's overflow recovery leaves its failed attempt out), sent by
 * pig's real openai-completions provider to the fake LLM answering from the fixture's script,
 * and compared with Pi's request: the layout (tags or headings), the conversation, the previous
 * summary, the focus and every body field must match; only the instructions are our own words.
 * The results must be Pi's entries: summary, first kept entry, tokensBefore, file lists, and the
 * usage (its output exactly; its input is the fake server's count of pig's own, shorter, bodies).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { streamFor } from "../../src/ai/stream.ts";
import {
  collectEntriesForBranchSummary,
  compact,
  generateBranchSummary,
  isNothingToCompact,
  navigationTarget,
  prepareCompaction,
  type CompactionBudget,
} from "../../src/compaction/index.ts";
import { settingsDefaults } from "../../src/resources/settings-effective.ts";
import type { BranchSummaryEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { startFakeLlm, type FakeLlm, type RecordedRequest } from "../helpers/fake-llm/server.ts";
import { FIXTURES_087 } from "../helpers/tmp.ts";
import { fakeModel } from "./helpers.ts";
import { bySource, compactionsOf, expectSameRequest, isSummaryBody, omittedByContextEdits, requestParts, userText, wireRequests, type Body } from "./wire.ts";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** What the fake server counts for a request: its body's length / 4 in, the answer's / 4 out. */
const promptTokens = (request: RecordedRequest) => Math.ceil(JSON.stringify(request.body).length / 4);

async function replayCompactions(name: string, settings: CompactionBudget, contextWindow: number, focus: (index: number) => string | undefined) {
  llm = await startFakeLlm({ script: join(FIXTURES_087, `${name}.script.json`) });
  const store = SessionStore.open(join(FIXTURES_087, `${name}.jsonl`));
  const model = fakeModel(`${llm.url}/v1`, { contextWindow });
  const runs = [];
  for (const [index, entry] of compactionsOf(store).entries()) {
    const branch = store.getBranch(entry.parentId!);
    const omitted = omittedByContextEdits(branch);
    const preparation = prepareCompaction(branch, settings, { omitted });
    if (!preparation || isNothingToCompact(preparation)) throw new Error("expected a preparation");
    const from = llm.requests.length;
    const result = await compact(preparation, { model, stream: streamFor(model), apiKey: "fake-key", customInstructions: focus(index), thinkingLevel: "off" });
    runs.push({ entry, preparation, result, omitted, requests: llm.requests.slice(from) });
  }
  const pis = wireRequests(FIXTURES_087, name).filter((request) => isSummaryBody(request.body));
  expect(llm.requests.length).toBe(pis.length);
  const ours = bySource(llm.requests);
  for (const request of pis) {
    const index = ours.get(request.served.source);
    expect(index).toBeDefined();
    expectSameRequest(llm.requests[index!]!, request);
  }
  store.close();
  return runs;
}

/**
 * An estimate of the prompt made from the neutralised file is this much smaller than Pi's own:
 * the prompt names Pi's install path three times, and `/opt/pi` is 32 characters shorter than
 * the `/tmp/pig-bench-pi-earendil-works-0.87.1` Pi ran from (README: paths changed afterwards).
 */
const NEUTRALISED_PROMPT_TOKENS = (3 * ("/tmp/pig-bench-pi-earendil-works-0.87.1".length - "/opt/pi".length)) / 4;

function expectPisEntry(run: Awaited<ReturnType<typeof replayCompactions>>[number], estimated = false): void {
  const { entry, result, requests } = run;
  expect({ summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore: result.tokensBefore, details: result.details }).toEqual({
    summary: entry.summary,
    firstKeptEntryId: entry.firstKeptEntryId!,
    // Usage-based sizes come from the file as they are; an estimate counts the prompt's paths.
    tokensBefore: estimated ? entry.tokensBefore - NEUTRALISED_PROMPT_TOKENS : entry.tokensBefore,
    details: entry.details as { readFiles: string[]; modifiedFiles: string[] },
  });
  expect(entry.usage).toBeDefined();
  expect(result.usage!.output).toBe(entry.usage!.output);
  expect(result.usage!.input).toBe(requests.reduce((sum, request) => sum + promptTokens(request), 0));
  expect(result.usage!.totalTokens).toBe(result.usage!.input + result.usage!.output);
}

describe("fixture 06 (0.87.1): manual compactions", () => {
  test("rebuild Pi's initial, update and turn-prefix requests (headings layout) and its two entries", async () => {
    const runs = await replayCompactions("06-compaction-manual", { reserveTokens: 16384, keepRecentTokens: 300 }, 128000, (i) => (i === 0 ? "Focus on module names" : undefined));
    expect(runs.length).toBe(2);
    runs.forEach((run) => expectPisEntry(run));
    const [first, second] = runs;
    expect(first!.preparation.isSplitTurn).toBe(false);
    expect(second!.preparation.isSplitTurn).toBe(true);
    expect(second!.preparation.previousSummary).toBe(first!.entry.summary);
    // The update first, then the turn prefix: one request at a time, their usage added up.
    expect(second!.requests.map((request) => requestParts(userText(request.body as Body)).layout)).toEqual(["tags", "headings"]);
    expect(second!.result.usage!.output).toBe(57);
    expect(runs.flatMap((run) => run.requests.map((request) => (request.body as Body).max_completion_tokens))).toEqual([13107, 13107, 8192]);
  });
});

describe("fixture 07 (0.87.1): threshold and overflow compactions", () => {
  test("the overflow compaction, with the failed answer left out, splits the overflowing turn as Pi's does", async () => {
    const runs = await replayCompactions("07-compaction-auto", { reserveTokens: 4000, keepRecentTokens: 50 }, 20000, () => undefined);
    expect(runs.length).toBe(2);
    const [threshold, overflow] = runs;
    expectPisEntry(threshold!);
    // The last usage (turn two's) came before the threshold compaction: the size is estimated.
    expectPisEntry(overflow!, true);
    expect(threshold!.omitted.size).toBe(0);
    // Pi hid its failed answer with a context_edit; that answer is where its kept part begins.
    expect([...overflow!.omitted]).toEqual([overflow!.entry.firstKeptEntryId!]);
    expect(overflow!.preparation.isSplitTurn).toBe(true);
    expect(overflow!.preparation.turnPrefixMessages.map((message) => message.role)).toEqual(["user"]);
    expect(overflow!.requests.map((request) => requestParts(userText(request.body as Body)).layout)).toEqual(["tags", "headings"]);
    expect(runs.flatMap((run) => run.requests.map((request) => (request.body as Body).max_completion_tokens))).toEqual([3200, 3200, 2000]);
  });
});

describe("fixture 08 (0.87.1): branch summary on tree navigation", () => {
  test("rebuild the branch-summary request (4096 output tokens) and entry", async () => {
    llm = await startFakeLlm({ script: join(FIXTURES_087, "08-branching-tree.script.json") });
    const store = SessionStore.open(join(FIXTURES_087, "08-branching-tree.jsonl"));
    const model = fakeModel(`${llm.url}/v1`);
    const stored = store.materialise(store.tree.records.find((r) => r.type === "branch_summary")!) as BranchSummaryEntry;
    // Pi's navigation left answer C for user message B; fromId names the leaf it left.
    const oldLeaf = stored.fromId;
    const target = store.getEntry("874f6f2f")!;
    const { entries } = collectEntriesForBranchSummary((id) => store.getEntry(id), oldLeaf, target.id);
    const outcome = await generateBranchSummary(entries, { model, stream: streamFor(model), apiKey: "fake-key", reserveTokens: settingsDefaults.branchSummary.reserveTokens });
    if (outcome.kind !== "summary") throw new Error(`expected a summary, got ${outcome.kind}`);
    expect({ summary: outcome.summary, details: outcome.details }).toEqual({ summary: stored.summary, details: stored.details as { readFiles: string[]; modifiedFiles: string[] } });
    expect(outcome.usage!.output).toBe(stored.usage!.output);
    expect(navigationTarget(target).leafId).toBe(stored.parentId!);
    expect(store.getEntry(oldLeaf)).toMatchObject({ type: "message", message: { role: "assistant" } });

    const pis = wireRequests(FIXTURES_087, "08-branching-tree").filter((request) => isSummaryBody(request.body));
    expect(pis.length).toBe(1);
    expect(llm.requests.length).toBe(1);
    expectSameRequest(llm.requests[0]!, pis[0]!);
    expect((llm.requests[0]!.body as Body).max_completion_tokens).toBe(4096);
    store.close();
  });
});

