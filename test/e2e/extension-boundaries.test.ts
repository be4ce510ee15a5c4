/**
 * Session boundaries and project trust through the built binary and real extension processes:
 * what a `turn_end` or `agent_before_settle` handler returns is appended to the session file and
 * can make one more model request; answers pig must refuse are reported and change nothing; a
 * `project_trust` answer decides whether the project's own extensions load, and is remembered
 * when asked to be. Fixtures: test/fixtures/extensions/boundaries/.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds, onlySessionEntries, readJsonLines } from "../helpers/extension-worlds.ts";
import type { PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "extensions", "boundaries");
const ext = (name: string) => join(FIXTURES, `${name}.ts`);

const { world, track } = extensionWorlds();

type Json = Record<string, any>;

function chatText(message: Json): string {
  return typeof message.content === "string" ? message.content : (message.content ?? []).map((p: Json) => p.text ?? "").join("");
}

/** The user-role texts of one request the model got (a custom message arrives as one). */
const userTexts = (w: PigWorld, index: number) =>
  ((w.llm.requests[index]!.body as Json).messages as Json[]).filter((m) => m.role === "user").map(chatText);

/** The entries after the header, without the starting model and level and the system messages pig declares its prompt with. */
const conversation = (entries: Json[]) =>
  entries
    .slice(1)
    .filter((e) => e.type !== "model_change" && e.type !== "thinking_level_change" && !(e.type === "message" && e.message.role === "system"));

describe("turn_end", () => {
  test("drafts are appended after the turn's answer and one more request runs on them", async () => {
    const w = await world([{ text: "first answer" }, { text: "second answer" }]);
    const sessions = tempDir("pig-sessions-");
    const run = await w.run(["-p", "--session-dir", sessions, "-e", ext("turn-end"), "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("second answer");

    expect(w.llm.requests).toHaveLength(2);
    expect(userTexts(w, 0)).toEqual(["hello"]);
    expect(userTexts(w, 1)).toEqual(["hello", "Please go on."]);

    const entries = conversation(onlySessionEntries(sessions));
    expect(entries.map((e) => (e.type === "message" ? `message:${e.message.role}` : `${e.type}:${e.customType}`))).toEqual([
      "message:user",
      "message:assistant",
      "custom:turn-note",
      "custom_message:nudge",
      "message:assistant",
    ]);
    const firstAnswer = entries[1]!;
    expect(entries[2]).toMatchObject({ parentId: firstAnswer.id, data: { turn: 0 } });
    expect(entries[3]).toMatchObject({ content: "Please go on.", display: true, parentId: entries[2]!.id });
    expect(entries[4]!.parentId).toBe(entries[3]!.id);

    const seen = readJsonLines(join(w.cwd, "turn-end.jsonl"));
    expect(seen).toEqual([
      // The first turn ends on the model's answer: nothing to continue from yet.
      { handler: 1, turnIndex: 0, messageEntryId: firstAnswer.id, outcome: "completed", entries: 0, continue: false, canContinue: false, lastRole: "assistant" },
      // The next handler sees the drafts, and the context they make ends with the custom message.
      { handler: 2, turnIndex: 0, entries: ["custom", "custom_message"], continue: true, canContinue: true, lastMessage: "custom", contextEntries: 7 },
      { handler: 1, turnIndex: 1, messageEntryId: entries[4]!.id, outcome: "completed", entries: 0, continue: false, canContinue: false, lastRole: "assistant" },
      { handler: 2, turnIndex: 1, entries: [], continue: false, canContinue: false, lastMessage: "assistant", contextEntries: 8 },
    ]);
  });

  test("a continuation with nothing to continue from, and a draft naming no entry, are refused and reported", async () => {
    const w = await world([{ text: "only answer" }, { text: "never asked for" }]);
    const sessions = tempDir("pig-sessions-");
    const run = await w.run(["-p", "--session-dir", sessions, "-e", ext("bad-boundary"), "hello"]);
    expect(run.code).toBe(0);
    expect(w.llm.requests).toHaveLength(1);
    expect(run.stderr).toContain("turn_end requested continuation without runnable model context");
    expect(run.stderr).toContain("Invalid boundary entries: entries[1]: context_edit target no-such-entry is not on the active branch");
    // Nothing of the refused list was written.
    const types = conversation(onlySessionEntries(sessions)).map((e) => e.type);
    expect(types).toEqual(["message", "message"]);
  });
});

test("agent_before_settle: one more request, then an entry, and the run settles", async () => {
  const w = await world([{ text: "answer one" }, { text: "answer two" }]);
  const sessions = tempDir("pig-sessions-");
  const run = await w.run(["--mode", "json", "-p", "--session-dir", sessions, "-e", ext("settle"), "hello"]);
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);
  expect(userTexts(w, 1)).toEqual(["hello", "One more thing."]);
  const events = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Json);
  expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(1);
  // Each appended entry is announced, as it is stored (upstream's entry_appended).
  const appended = events.filter((e) => e.type === "entry_appended").map((e) => e.entry);
  expect(appended.map((e) => `${e.type}:${e.customType}`)).toEqual(["custom_message:settle", "custom:settled"]);

  const entries = conversation(onlySessionEntries(sessions));
  expect(entries.map((e) => (e.type === "message" ? `message:${e.message.role}` : `${e.type}:${e.customType}`))).toEqual([
    "message:user",
    "message:assistant",
    "custom_message:settle",
    "message:assistant",
    "custom:settled",
  ]);
  expect(entries[4]).toMatchObject({ data: { asked: 2 } });
  expect(appended).toEqual([entries[2], entries[4]]);
  expect(readJsonLines(join(w.cwd, "settle.jsonl"))).toEqual([
    { asked: 1, outcome: "completed", canContinue: false },
    { asked: 2, outcome: "completed", canContinue: false },
  ]);
});

test("appendEntry over RPC: entry_appended carries the stored entry, before the command's response", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ext("append-entry")] }));
  await client.promptAndWait("A");
  const response = await client.request({ type: "prompt", message: "/fx-entry saved-state" });
  expect(response).toMatchObject({ success: true });
  const at = client.lines.indexOf(response);
  const appended = client.lines.filter((l) => l.type === "entry_appended");
  expect(appended).toHaveLength(1);
  expect(client.lines.indexOf(appended[0]!)).toBeLessThan(at);
  const entry = appended[0]!.entry as Json;
  expect(Object.keys(entry)).toEqual(["type", "customType", "data", "id", "parentId", "timestamp"]);
  expect(entry).toMatchObject({ type: "custom", customType: "fx-state", data: { note: "saved-state", count: 42, nested: { ok: true } } });
  const file = String(((await client.request({ type: "get_state" })).data as Json).sessionFile);
  expect(readJsonLines(file).at(-1)).toEqual(entry);
  expect(await client.close()).toBe(0);
});

describe("project_trust", () => {
  const project = { ".pig/extensions/project-ext.ts": readFileSync(ext("project-ext"), "utf8") };
  const lines = (w: PigWorld, name: string) => (existsSync(join(w.cwd, name)) ? readFileSync(join(w.cwd, name), "utf8").trimEnd().split("\n") : []);

  test("yes: the project's extension loads; the asking extension is started again with it", async () => {
    const w = await world(undefined, { files: project });
    const run = await w.run(["-p", "-e", ext("trust"), "hi"], { env: { TRUST_ANSWER: "yes" } });
    expect(run.code).toBe(0);
    expect(lines(w, "project-ext.log")).toEqual(["loaded"]);
    const log = lines(w, "trust-ext.log");
    expect(log.filter((l) => l.startsWith("asked"))).toHaveLength(1);
    expect(log.filter((l) => l.startsWith("loaded"))).toHaveLength(2);
    // Not remembered: the next run asks again.
    expect(existsSync(join(w.agentDir, "trust.json"))).toBe(false);
  });

  test("no, remembered: the project's extension stays out, the same process serves the run, the next run is not asked", async () => {
    const w = await world(undefined, { files: project });
    const env = { TRUST_ANSWER: "no", TRUST_REMEMBER: "1" };
    const first = await w.run(["-p", "-e", ext("trust"), "hi"], { env });
    expect(first.code).toBe(0);
    expect(lines(w, "project-ext.log")).toEqual([]);
    expect(lines(w, "trust-ext.log").map((l) => l.split(" ")[0])).toEqual(["loaded", "asked"]);
    expect(JSON.stringify(JSON.parse(readFileSync(join(w.agentDir, "trust.json"), "utf8")))).toContain("false");
    expect(w.llm.requests).toHaveLength(1);

    const second = await w.run(["-p", "-e", ext("trust"), "again"], { env: { TRUST_ANSWER: "yes" } });
    expect(second.code).toBe(0);
    expect(lines(w, "project-ext.log")).toEqual([]);
    expect(lines(w, "trust-ext.log").map((l) => l.split(" ")[0])).toEqual(["loaded", "asked", "loaded"]);
  });

  test("undecided: the project stays untrusted, as without the extension, and nothing is stored", async () => {
    const w = await world(undefined, { files: project });
    const run = await w.run(["-p", "-e", ext("trust"), "hi"], { env: { TRUST_ANSWER: "undecided" } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("this project has not been trusted yet");
    expect(lines(w, "project-ext.log")).toEqual([]);
    expect(existsSync(join(w.agentDir, "trust.json"))).toBe(false);
  });
});
