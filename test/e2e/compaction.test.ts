/**
 * Long sessions through the built binary: automatic compaction at the threshold and before an
 * oversized request, overflow recovery (and giving up cleanly), abort during a summary, tree
 * navigation with and without a summary, and a 500-turn run that reloads to the same context.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionStore } from "../../src/session/store.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const SUMMARY = { when: "context summarization assistant", text: "## Goal\nKeep going.", repeat: 1000 };
/** A prompt of roughly `tokens` estimated tokens (4 characters each). */
const words = (label: string, tokens: number) => `${label} ${"lorem ipsum dolor sit amet ".repeat(Math.ceil((tokens * 4) / 27))}`;

async function world(script: Script, options: WorldOptions = {}): Promise<PigWorld> {
  const w = await createWorld({ ...options, llm: { script } });
  worlds.push(w);
  return w;
}

function sessionFile(w: PigWorld): string {
  const root = join(w.agentDir, "sessions");
  const [dir] = readdirSync(root);
  const [file] = readdirSync(join(root, dir!)).filter((n) => n.endsWith(".jsonl"));
  return join(root, dir!, file!);
}

function entries(w: PigWorld): Record<string, unknown>[] {
  return readFileSync(sessionFile(w), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("automatic compaction", () => {
  test("a long tool loop crosses the threshold several times and runs to the end", async () => {
    // Each turn's output (about 600 tokens) grows the context; the server reports real sizes.
    const turn = { toolCalls: [{ name: "bash", arguments: { command: "seq 1 600" } }] };
    // The reserve covers the system prompt and tool schemas the estimate leaves out.
    const w = await world({ responses: [SUMMARY, { ...turn, repeat: 24 }, { text: "all done" }] } as unknown as Script, {
      contextWindow: 10000,
      settings: { compaction: { reserveTokens: 2500, keepRecentTokens: 500 } },
    });
    const result = await w.run(["--mode", "json", "start the loop"]);
    expect(result.code).toBe(0);
    const log = events(result.stdout);
    const ends = log.filter((e) => e.type === "compaction_end");
    expect(ends.length).toBeGreaterThanOrEqual(2);
    expect(ends.filter((e) => e.reason !== "threshold" || e.errorMessage)).toEqual([]);
    expect(log.filter((e) => e.type === "agent_end").length).toBe(1);
    const end = log.find((e) => e.type === "agent_end") as { messages: { content: { text?: string }[] }[] };
    expect(end.messages.at(-1)!.content[0]!.text).toBe("all done");
    // The file reloads to the context the run ended with.
    const store = SessionStore.open(sessionFile(w));
    expect(store.buildContext().messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
    expect(store.tree.records.filter((r) => r.type === "compaction").length).toBe(ends.length);
    store.close();
  });

  test("an overflow error is compacted and retried without a new message", async () => {
    const w = await world(
      {
        responses: [
          SUMMARY,
          { text: "first answer" },
          { error: { status: 400, message: "This model's maximum context length is 20000 tokens. However, your messages resulted in 25000 tokens." } },
          { text: "recovered" },
        ],
      } as unknown as Script,
      { contextWindow: 20000, settings: { compaction: { reserveTokens: 4000, keepRecentTokens: 10 } } },
    );
    await w.run(["-p", words("one", 800)]);
    const result = await w.run(["-c", "--mode", "json", words("two", 800)]);
    expect(result.code).toBe(0);
    const log = events(result.stdout);
    expect(log.find((e) => e.type === "compaction_end")).toMatchObject({ reason: "overflow", willRetry: true });
    const stored = entries(w);
    const compaction = stored.find((e) => e.type === "compaction")!;
    const retried = stored.at(-1)!;
    expect(retried).toMatchObject({ type: "message", parentId: compaction.id });
    expect(stored.filter((e) => e.type === "message" && (e.message as { role: string }).role === "user")).toHaveLength(2);
  });

  test("a second overflow right after recovery gives up with a clear message", async () => {
    const overflow = { error: { status: 400, message: "prompt is too long: 30000 tokens > 20000 maximum" } };
    const w = await world({ responses: [SUMMARY, { text: "first" }, overflow, overflow] } as unknown as Script, {
      contextWindow: 20000,
      settings: { compaction: { reserveTokens: 4000, keepRecentTokens: 10 } },
    });
    await w.run(["-p", words("one", 800)]);
    const result = await w.run(["-c", "--mode", "json", words("two", 800)]);
    const ends = events(result.stdout).filter((e) => e.type === "compaction_end");
    expect(ends.at(-1)).toMatchObject({ reason: "overflow", willRetry: false });
    expect(String(ends.at(-1)!.errorMessage)).toContain("Context overflow recovery failed");
    // The run's last line and its exit code say it was an overflow (docs/cli-integration.md).
    expect(events(result.stdout).at(-1)).toMatchObject({ type: "agent_settled", failureKind: "context_overflow" });
    expect(result.code).toBe(7);
  });

  test("an answer that completes but reports more input than the window: compacted after it, no second answer", async () => {
    const w = await world(
      { responses: [SUMMARY, { text: "first" }, { text: "a whole answer", usage: { prompt_tokens: 30000, completion_tokens: 5 } }, { text: "never sent" }] } as unknown as Script,
      { contextWindow: 20000, settings: { compaction: { reserveTokens: 4000, keepRecentTokens: 10 } } },
    );
    await w.run(["-p", words("one", 800)]);
    const result = await w.run(["-c", "--mode", "json", words("two", 800)]);
    expect(result.code).toBe(0);
    const log = events(result.stdout);
    // Pi ≥ 0.87 reports it as an overflow that is not retried.
    expect(log.filter((e) => e.type === "compaction_end")).toMatchObject([{ reason: "overflow", willRetry: false, aborted: false }]);
    const answers = w.llm.requests.filter((r) => !JSON.stringify(r.body).includes("context summarization assistant"));
    expect(answers).toHaveLength(2);
    const roles = entries(w).flatMap((e) => (e.type === "message" ? [(e.message as { role: string }).role] : e.type === "compaction" ? ["compaction"] : []));
    expect(roles.slice(-3)).toEqual(["user", "assistant", "compaction"]);
    expect(result.stdout).toContain("a whole answer");
  });

  test("a tool result larger than the remaining window is compacted before the request is sent", async () => {
    const w = await world(
      { responses: [SUMMARY, { text: "a" }, { toolCalls: [{ name: "bash", arguments: { command: "seq 100000 102000" } }] }, { text: "fits" }] } as unknown as Script,
      { contextWindow: 8000, settings: { compaction: { reserveTokens: 1000, keepRecentTokens: 100 } } },
    );
    await w.run(["-p", words("one", 3000)]);
    const result = await w.run(["-c", "--mode", "json", "two"]);
    expect(result.code).toBe(0);
    const log = events(result.stdout);
    const start = log.findIndex((e) => e.type === "compaction_start");
    const toolEnd = log.findIndex((e) => e.type === "tool_execution_end");
    expect(start).toBeGreaterThan(toolEnd);
    expect(log.filter((e) => e.type === "compaction_end" && e.reason === "overflow")).toHaveLength(0);
  });
});

describe("manual compaction and the tree over RPC", () => {
  async function rpcWorld(script: Script, options: WorldOptions = {}) {
    const w = await world(script, options);
    const client = new RpcClient({ cwd: w.cwd, env: w.env });
    clients.push(client);
    return { w, client };
  }

  test("abort_compaction during the summary leaves the file unchanged", async () => {
    const { w, client } = await rpcWorld(
      {
        responses: [{ when: "context summarization assistant", text: "never arrives", chunkSize: 2, stallAfterChunks: 1 }, { text: "a1" }, { text: "a2" }],
      } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 100 } } },
    );
    await client.promptAndWait(words("first", 400));
    await client.promptAndWait(words("second", 400));
    const before = readFileSync(sessionFile(w), "utf8");
    client.send({ type: "compact", id: "c1" });
    await client.waitFor((l) => l.type === "compaction_start");
    await client.request({ type: "abort_compaction" });
    const response = await client.waitFor((l) => l.type === "response" && l.id === "c1");
    expect(response).toMatchObject({ success: false, error: "Compaction cancelled" });
    expect(client.lines.find((l) => l.type === "compaction_end")).toMatchObject({ aborted: true });
    expect(readFileSync(sessionFile(w), "utf8")).toBe(before);
  });

  test("navigate_tree with a summary, then without, and continue on the new branch", async () => {
    const { w, client } = await rpcWorld({
      responses: [{ when: "context summarization assistant", text: "Explored B." }, { text: "A done" }, { text: "B done" }, { text: "alt done" }],
    } as unknown as Script);
    await client.promptAndWait("A");
    await client.promptAndWait("B");
    // Upstream's shape: {entry, children, label?}; the user entries found by their text.
    type Node = { entry: { id: string; type: string; message?: { role: string; content: unknown } }; children: Node[] };
    const tree = (await client.request({ type: "get_tree" })).data as { tree: Node[] };
    const flat: { id: string; role?: string; text: string }[] = [];
    const walk = (nodes: Node[]) => {
      for (const n of nodes) {
        flat.push({ id: n.entry.id, role: n.entry.message?.role, text: JSON.stringify(n.entry.message?.content ?? "") });
        walk(n.children);
      }
    };
    walk(tree.tree);
    const userB = flat.find((n) => n.role === "user" && n.text.includes("B"))!;
    const nav = await client.request({ type: "navigate_tree", targetId: userB.id, summarize: true, label: "left B" });
    expect(nav).toMatchObject({ success: true, data: { editorText: "B", cancelled: false } });
    const summary = entries(w).find((e) => e.type === "branch_summary")!;
    expect(String(summary.summary)).toContain("Explored B.");
    // As Pi ≥ 0.87: fromId is the leaf that was left (the answer to B), and the summary's cost is kept.
    const answerB = flat.find((n) => n.role === "assistant" && n.text.includes("B done"))!;
    expect(summary.fromId).toBe(answerB.id);
    expect(summary.usage).toMatchObject({ output: expect.any(Number), totalTokens: expect.any(Number) });
    await client.promptAndWait("B-alt");
    const context = (await client.request({ type: "get_messages" })).data as { messages: { role: string }[] };
    expect(context.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "branchSummary", "user", "assistant"]);
    const userA = flat.find((n) => n.role === "user" && n.text.includes("A"))!;
    const plain = await client.request({ type: "navigate_tree", targetId: userA.id });
    expect(plain).toMatchObject({ success: true, data: { editorText: "A" } });
    expect(entries(w).filter((e) => e.type === "branch_summary")).toHaveLength(1);
  });
});

describe("a 500-turn session", () => {
  test("runs to the end with several automatic compactions and reloads to the same context", async () => {
    const turn = { toolCalls: [{ name: "bash", arguments: { command: "seq 1 100" } }] };
    const w = await world({ responses: [SUMMARY, { ...turn, repeat: 499 }, { text: "finished" }] } as unknown as Script, {
      contextWindow: 6000,
      settings: { compaction: { reserveTokens: 1000, keepRecentTokens: 300 } },
    });
    const client = new RpcClient({ cwd: w.cwd, env: w.env });
    clients.push(client);
    const from = client.lines.length;
    await client.request({ type: "prompt", message: "go for a long time" });
    await client.waitIdle(from, 300, 120_000);
    const compactions = client.lines.filter((l) => l.type === "compaction_end" && !l.errorMessage);
    expect(compactions.length).toBeGreaterThan(3);
    const live = (await client.request({ type: "get_messages" })).data as { messages: unknown[] };
    expect((live.messages.at(-1) as { content: { text: string }[] }).content[0]!.text).toBe("finished");
    expect(w.llm.requests.filter((r) => !JSON.stringify(r.body).includes("context summarization assistant"))).toHaveLength(500);
    await client.close();
    const store = SessionStore.open(sessionFile(w));
    expect(JSON.parse(JSON.stringify(store.buildContext().messages))).toEqual(JSON.parse(JSON.stringify(live.messages)));
    store.close();
  }, 180_000);
});
