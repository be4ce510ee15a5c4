/**
 * Pi 0.87.1's compaction fixtures (06 manual, 07 threshold and overflow) replayed against the
 * built `pig --mode rpc`: the commands of Pi's transcripts, the fixture's fake-LLM script. Every
 * request pig sends must be the one Pi sent (up to our own wording), and the compaction entries
 * pig writes must be Pi's: the prompt/tool checkpoint, the summary, the kept part, the usage.
 * Events are not compared here (rpc-replay does). For 07 the one expected difference is pig's
 * overflow recovery without context edits (docs/decisions.md, "Overflow recovery").
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CompactionEntry, SessionEntry } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { currentSystemMessage, systemPromptText } from "../../src/session/system-messages.ts";
import { blankOwnWords, Normalizer } from "../helpers/normalize.ts";
import { COMPACTION_WORLDS } from "../helpers/fixture-worlds.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";
import { FIXTURES_087 } from "../helpers/tmp.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

/** The settings Pi ran each fixture with. */
const WORLDS: Record<string, WorldOptions> = COMPACTION_WORLDS;

function readJsonl<T = Line>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function sessionFile(world: PigWorld): string {
  const root = join(world.agentDir, "sessions");
  const [dir] = readdirSync(root);
  const [file] = readdirSync(join(root, dir!)).filter((n) => n.endsWith(".jsonl"));
  return join(root, dir!, file!);
}

/** Pig runs the commands of Pi's transcript, each to its end, then closes. */
async function replay(name: string): Promise<{ world: PigWorld; store: SessionStore }> {
  const world = await createWorld({ ...WORLDS[name], llm: { script: join(FIXTURES_087, `${name}.script.json`) } });
  cleanup.push(() => world.close());
  const client = new RpcClient({ cwd: world.cwd, env: world.env });
  cleanup.push(async () => client.kill());
  const commands = readJsonl(join(FIXTURES_087, "wire", `${name}.rpc.jsonl`)).filter((l) => "__sent" in l).map((l) => l.__sent as Line);
  expect(commands.length).toBeGreaterThan(3);
  for (const command of commands) {
    const from = client.lines.length;
    const response = await client.request(command, 30_000);
    expect({ command: command.id, success: response.success }).toEqual({ command: command.id, success: true });
    await client.waitIdle(from);
  }
  expect(client.stderr).toEqual([]);
  await client.close();
  const store = SessionStore.open(sessionFile(world));
  cleanup.push(async () => store.close());
  return { world, store };
}

/**
 * Fields of the agent's own requests that other parts of pig build, checked by their own tests:
 * the tool schemas, and the output budget a request leaves itself in a small window. Summary
 * requests (compaction's) are compared whole.
 */
const OTHER_AREAS = ["tools", "max_completion_tokens"];

function comparable(body: Line): Line {
  const out = blankOwnWords(body);
  if ("tools" in out) for (const key of OTHER_AREAS) delete out[key];
  return out;
}

/** Every request pig sent is the one Pi sent: answered by the same script response, the same body up to our own words. */
function expectPisRequests(name: string, world: PigWorld): void {
  const theirs = readJsonl(join(FIXTURES_087, "wire", `${name}.requests.jsonl`));
  const ours = world.llm.requests;
  const served = (line: Line) => String((line.served as Line).source);
  expect(ours.map((r) => served(r as unknown as Line))).toEqual(theirs.map(served));
  const ourBodies = new Normalizer([[world.cwd, `/home/dev/fx087/${name}/work`]]);
  const theirBodies = new Normalizer();
  ours.forEach((request, i) => {
    expect("tools" in (request.body as Line)).toBe("tools" in (theirs[i]!.body as Line));
    const got = ourBodies.value(comparable(request.body as Line));
    const want = theirBodies.value(comparable(theirs[i]!.body as Line));
    expect({ request: i, body: got }).toEqual({ request: i, body: want });
  });
}

/** An entry by what it says: its type, role and first words (ids differ between the two files). */
function describe_(entry: SessionEntry | undefined): string {
  if (!entry) return "(none)";
  const message = (entry as { message?: { role?: string; content?: unknown } }).message;
  const text = JSON.stringify(message?.content ?? (entry as { summary?: unknown }).summary ?? "").slice(0, 80);
  return `${entry.type}:${message?.role ?? ""}:${text}`;
}

function compactions(store: SessionStore): CompactionEntry[] {
  return store.tree.records.filter((r) => r.type === "compaction").map((r) => store.materialise(r) as CompactionEntry);
}

function fixtureEntries(name: string): SessionEntry[] {
  return readJsonl<SessionEntry>(join(FIXTURES_087, `${name}.jsonl`)).slice(1);
}

/** What every compaction pig writes shares with Pi's: keys, summary, lists, the checkpoint and the usage. */
function expectPisCompaction(store: SessionStore, world: PigWorld, ours: CompactionEntry, theirs: CompactionEntry): void {
  expect(Object.keys(ours)).toEqual(Object.keys(theirs));
  expect({ summary: ours.summary, details: ours.details, fromHook: ours.fromHook }).toEqual({ summary: theirs.summary, details: theirs.details, fromHook: theirs.fromHook });
  // The checkpoint: the prompt and tools in force (replayed), stamped with the entry's time…
  const replayed = currentSystemMessage(store.buildContext(ours.parentId!).messages);
  expect(ours.systemMessage).toEqual({ ...replayed!, timestamp: Date.parse(ours.timestamp) });
  expect(Object.keys(ours.systemMessage!)).toEqual(Object.keys(theirs.systemMessage!));
  expect(ours.systemMessage!.toolsAdded!.map((t) => t.name)).toEqual(theirs.systemMessage!.toolsAdded!.map((t) => t.name));
  // …which is the prompt the requests after it send.
  const after = world.llm.requests.filter((r) => Date.parse(r.time) >= Date.parse(ours.timestamp) && "tools" in (r.body as Line));
  expect(after.length).toBeGreaterThan(0);
  for (const request of after) expect((request.body as { messages: { content: unknown }[] }).messages[0]!.content).toBe(systemPromptText(ours.systemMessage));
  // What the summary cost: Pi's output tokens (same answers), counted in and out.
  expect(ours.usage).toMatchObject({ output: theirs.usage!.output, cacheRead: 0, cacheWrite: 0 });
  expect(ours.usage!.totalTokens).toBe(ours.usage!.input + ours.usage!.output);
  expect(ours.tokensBefore).toBeGreaterThan(0);
}

describe("Pi 0.87.1 compaction fixtures over RPC", () => {
  test("06: two manual compactions (the second splits a turn): Pi's requests and Pi's entries", async () => {
    const name = "06-compaction-manual";
    const { world, store } = await replay(name);
    expectPisRequests(name, world);
    const theirEntries = fixtureEntries(name);
    const theirs = theirEntries.filter((e): e is CompactionEntry => e.type === "compaction");
    const ours = compactions(store);
    expect(ours.length).toBe(2);
    ours.forEach((ourCompaction, i) => {
      expectPisCompaction(store, world, ourCompaction, theirs[i]!);
      // The kept part begins at the same message.
      const theirKept = theirEntries.find((e) => e.id === theirs[i]!.firstKeptEntryId);
      expect(describe_(store.getEntry(ourCompaction.firstKeptEntryId!))).toBe(describe_(theirKept));
    });
    // The file: the same entries in the same order.
    expect(store.getBranch().map(describe_)).toEqual(theirEntries.map(describe_));
  }, 60_000);

  test("07: threshold, then overflow recovery; the same requests, the compaction beside the failed answer instead of a context_edit", async () => {
    const name = "07-compaction-auto";
    const { world, store } = await replay(name);
    // Every request, the retried one included (the prompt and the summary alone), is Pi's.
    expectPisRequests(name, world);
    const retried = world.llm.requests.at(-2)!.body as { messages: { role: string }[] };
    expect(retried.messages.map((m) => m.role)).toEqual(["system", "user"]);

    const theirEntries = fixtureEntries(name);
    const theirs = theirEntries.filter((e): e is CompactionEntry => e.type === "compaction");
    const [threshold, overflow] = compactions(store);
    expect(compactions(store).length).toBe(2);
    expectPisCompaction(store, world, threshold!, theirs[0]!);
    expectPisCompaction(store, world, overflow!, theirs[1]!);
    expect(describe_(store.getEntry(threshold!.firstKeptEntryId!))).toBe(describe_(theirEntries.find((e) => e.id === theirs[0]!.firstKeptEntryId)));

    // Pi: the failed answer, a context_edit hiding it, then the compaction keeping from the hidden answer.
    const piFailed = theirEntries.find((e) => e.id === theirs[1]!.firstKeptEntryId)!;
    const piEdit = theirEntries.find((e) => e.type === "context_edit") as SessionEntry & { targetId: string; replacement: unknown };
    expect(describe_(piFailed)).toBe('message:assistant:[]');
    expect({ target: piEdit.targetId, replacement: piEdit.replacement, compactionParent: theirs[1]!.parentId }).toEqual({ target: piFailed.id, replacement: null, compactionParent: piEdit.id });
    // pig: no context_edit; the compaction hangs under the prompt the failed answer answered,
    // keeps nothing (names itself), and the failed answer stays in the file on a side branch.
    expect(store.tree.records.filter((r) => r.type === "context_edit")).toEqual([]);
    expect(overflow!.firstKeptEntryId).toBe(overflow!.id);
    const failed = store.tree.records.filter((r) => r.type === "message" && r.role === "assistant").map((r) => store.materialise(r)).find((e) => describe_(e) === describe_(piFailed))!;
    expect(failed.parentId).toBe(overflow!.parentId!);
    expect(describe_(store.getEntry(overflow!.parentId!))).toBe(describe_(theirEntries.find((e) => e.id === piFailed.parentId)));
    expect(store.branchRecords().map((r) => r.id)).not.toContain(failed.id);
    // Otherwise the same path: Pi's without its failed answer and context_edit.
    const hidden = new Set([piFailed.id, piEdit.id]);
    expect(store.getBranch().map(describe_)).toEqual(theirEntries.filter((e) => !hidden.has(e.id)).map(describe_));

    // And the same context as Pi's (context.json): the checkpoint, the summary, then turn four.
    const piContext = JSON.parse(readFileSync(join(FIXTURES_087, `${name}.context.json`), "utf8")) as { messages: { role: string; content?: unknown; summary?: unknown }[] };
    const gist = (m: { role: string; content?: unknown; summary?: unknown }) => (m.role === "system" ? "system" : `${m.role}:${JSON.stringify(m.content ?? m.summary)}`);
    expect(store.buildContext().messages.map(gist)).toEqual(piContext.messages.map(gist));
  }, 60_000);
});
