/**
 * RPC commands through the built binary, one client at a time: queueing while a run streams,
 * session switching, model and mode switches, exports, labels, and stopping bash and retries.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function rpc(script?: Script, options: WorldOptions = {}) {
  const w = await createWorld({ ...options, llm: { ...options.llm, ...(script ? { script } : { mode: "text" as const }) } });
  worlds.push(w);
  const client = new RpcClient({ cwd: w.cwd, env: w.env });
  clients.push(client);
  return { w, client };
}

const dataOf = (response: Line) => response.data as Record<string, unknown>;

/** Resolves once `check` holds; fails the test with `what` if it never does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** A promise a test resolves to let a held answer go. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}
const bodyText = (w: PigWorld, index: number) => JSON.stringify(w.llm.requests[index]!.body);

describe("rpc commands", () => {
  test("steer and follow_up while a run streams: the steer goes with the next turn, the follow-up after the answer", async () => {
    // The first answer is held until both messages are queued.
    const first = gate();
    const { w, client } = await rpc([{ text: "the first answer" }, { text: "steered" }, { text: "followed" }], {
      llm: { beforeAnswer: (request) => (request.seq === 1 ? first.held : undefined) },
    });
    const from = client.lines.length;
    // Each response says where its input went, as upstream 1.x's do (`data.disposition`).
    expect(await client.request({ type: "prompt", message: "begin" })).toMatchObject({ success: true, data: { disposition: "started" } });
    await until(() => w.llm.requests.length === 1, "the first request");
    expect(await client.request({ type: "steer", message: "steer msg" })).toMatchObject({ success: true, data: { disposition: "queued" } });
    expect(await client.request({ type: "follow_up", message: "follow msg" })).toMatchObject({ success: true, data: { disposition: "queued" } });
    const state = dataOf(await client.request({ type: "get_state" }));
    expect(state).toMatchObject({ isStreaming: true, pendingMessageCount: 2 });
    first.release();
    await client.waitIdle(from);
    expect(w.llm.requests).toHaveLength(3);
    expect(bodyText(w, 1)).toContain("steer msg");
    expect(bodyText(w, 1)).not.toContain("follow msg");
    expect(bodyText(w, 2)).toContain("follow msg");
    expect(dataOf(await client.request({ type: "get_last_assistant_text" }))).toEqual({ text: "followed" });
  });

  test("queue modes and auto-compaction are switched and reported by get_state", async () => {
    const { client } = await rpc();
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ steeringMode: "one-at-a-time", followUpMode: "one-at-a-time", autoCompactionEnabled: true });
    expect(await client.request({ type: "set_steering_mode", mode: "all" })).toMatchObject({ success: true });
    expect(await client.request({ type: "set_follow_up_mode", mode: "all" })).toMatchObject({ success: true });
    expect(await client.request({ type: "set_auto_compaction", enabled: false })).toMatchObject({ success: true });
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ steeringMode: "all", followUpMode: "all", autoCompactionEnabled: false });
    expect(await client.request({ type: "set_steering_mode", mode: "sometimes" })).toMatchObject({ success: false });
  });

  test("get_available_models lists the configured models; cycle_model moves to the next and sends with it", async () => {
    const { w, client } = await rpc();
    const models = dataOf(await client.request({ type: "get_available_models" })).models as { provider: string; id: string }[];
    expect(models.map((m) => `${m.provider}/${m.id}`)).toEqual(expect.arrayContaining(["fake/fake-model", "fake/fake-reasoner"]));
    const before = (dataOf(await client.request({ type: "get_state" })).model as { id: string }).id;
    const cycled = dataOf(await client.request({ type: "cycle_model" }));
    const after = (cycled.model as { id: string }).id;
    expect(after).not.toBe(before);
    await client.promptAndWait("which model?");
    expect((w.llm.requests.at(-1)!.body as { model: string }).model).toBe(after);
  });

  test("get_commands lists prompt templates and skills with their source", async () => {
    const { client } = await rpc(undefined, {
      agentFiles: {
        "prompts/review.md": "---\ndescription: Review the change\n---\nReview $1",
        "skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint the project\n---\nRun the linter.",
      },
    });
    const commands = dataOf(await client.request({ type: "get_commands" })).commands as { name: string; description?: string; source: string }[];
    expect(commands).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "review", description: "Review the change", source: "prompt" }),
        expect.objectContaining({ name: "skill:lint", description: "Lint the project", source: "skill" }),
      ]),
    );
  });

  test("export_html writes a page of the session to the path given", async () => {
    const { w, client } = await rpc();
    await client.promptAndWait("something worth exporting");
    const out = join(w.cwd, "export.html");
    const response = await client.request({ type: "export_html", outputPath: out });
    expect(dataOf(response)).toEqual({ path: out });
    const html = readFileSync(out, "utf8");
    expect(html.startsWith("<!DOCTYPE html>") || html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("something worth exporting");
  });

  test("export_html renders the session as it was when the command came, before the commands after it in the same write", async () => {
    const { w, client } = await rpc();
    await client.promptAndWait("something worth exporting");
    const out = join(w.cwd, "ordered.html");
    const from = client.lines.length;
    // One write: pig handles both lines of it at once. The name set second must not reach the page.
    client.write(`${JSON.stringify({ id: "e1", type: "export_html", outputPath: out })}\n${JSON.stringify({ id: "e2", type: "set_session_name", name: "Renamed Later" })}\n`);
    const renamed = await client.waitFor((l) => l.type === "response" && l.id === "e2", undefined, from);
    const exported = await client.waitFor((l) => l.type === "response" && l.id === "e1", undefined, from);
    expect(exported).toMatchObject({ success: true, data: { path: out } });
    expect(renamed).toMatchObject({ success: true });
    // Answered in the order asked: the export was done before the name was set.
    expect(client.lines.indexOf(exported)).toBeLessThan(client.lines.indexOf(renamed));
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<title>something worth exporting</title>");
    expect(html).not.toContain("Renamed Later");
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ sessionName: "Renamed Later" });
  });

  test("new_session starts an empty session; switch_session goes back to the first with its messages", async () => {
    const { client } = await rpc();
    await client.promptAndWait("first conversation");
    const first = dataOf(await client.request({ type: "get_state" }));
    expect(dataOf(await client.request({ type: "new_session" }))).toEqual({ cancelled: false });
    const second = dataOf(await client.request({ type: "get_state" }));
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.messageCount).toBe(0);
    await client.promptAndWait("second conversation");
    expect(dataOf(await client.request({ type: "switch_session", sessionPath: first.sessionFile }))).toEqual({ cancelled: false });
    const messages = dataOf(await client.request({ type: "get_messages" })).messages as { role: string; content: unknown }[];
    expect(JSON.stringify(messages)).toContain("first conversation");
    expect(JSON.stringify(messages)).not.toContain("second conversation");
    // A path with no file yet starts a new session there, as upstream does.
    const fresh = join(String(first.sessionFile), "..", "fresh.jsonl");
    expect(dataOf(await client.request({ type: "switch_session", sessionPath: fresh }))).toEqual({ cancelled: false });
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ messageCount: 0 });
  });

  test("new_session starts on the model chosen with set_model, not the one pig started on", async () => {
    const { w, client } = await rpc();
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ model: { id: "fake-model" } });
    expect(await client.request({ type: "set_model", provider: "fake", modelId: "fake-reasoner" })).toMatchObject({ success: true });
    expect(JSON.parse(readFileSync(join(w.agentDir, "settings.json"), "utf8")).defaultModel).toBe("fake-reasoner");
    expect(dataOf(await client.request({ type: "new_session" }))).toEqual({ cancelled: false });
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ model: { id: "fake-reasoner" } });
    await client.promptAndWait("which model?");
    expect((w.llm.requests.at(-1)!.body as { model: string }).model).toBe("fake-reasoner");
    const file = String(dataOf(await client.request({ type: "get_state" })).sessionFile);
    const entries = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(entries.find((e) => e.type === "model_change")).toMatchObject({ provider: "fake", modelId: "fake-reasoner" });
  });

  test("new_session keeps the model given with --model", async () => {
    const w = await createWorld({ llm: { mode: "text" } });
    worlds.push(w);
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["--model", "fake/fake-reasoner"] });
    clients.push(client);
    expect(dataOf(await client.request({ type: "new_session" }))).toEqual({ cancelled: false });
    expect(dataOf(await client.request({ type: "get_state" }))).toMatchObject({ model: { id: "fake-reasoner" } });
  });

  test("set_label marks an entry, get_tree shows it, and the label line is in the file", async () => {
    const { client } = await rpc();
    await client.promptAndWait("label me");
    type Node = { entry: { id: string; type: string }; children: Node[]; label?: string; labelTimestamp?: string };
    const tree = dataOf(await client.request({ type: "get_tree" }));
    const root = (tree.tree as Node[])[0]!.entry;
    expect(root.type).toBe("model_change");
    expect(await client.request({ type: "set_label", entryId: root.id, label: "start here" })).toMatchObject({ success: true });
    const again = dataOf(await client.request({ type: "get_tree" }));
    const labelled = (again.tree as Node[])[0]!;
    expect(labelled).toMatchObject({ label: "start here", labelTimestamp: expect.any(String) });
    const file = String(dataOf(await client.request({ type: "get_state" })).sessionFile);
    const last = JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!);
    expect(last).toMatchObject({ type: "label", targetId: root.id, label: "start here" });
    expect(await client.request({ type: "set_label", entryId: "no-such-id", label: "x" })).toMatchObject({ success: false });
  });

  test("abort_bash stops a running bash command", async () => {
    const { client, w } = await rpc();
    const marker = join(w.cwd, "started");
    client.send({ type: "bash", command: `touch ${marker}; sleep 20; echo never`, id: "long" });
    await until(() => existsSync(marker), "the command to start");
    const started = Date.now();
    expect(await client.request({ type: "abort_bash" })).toMatchObject({ success: true });
    const response = await client.waitFor((l) => l.id === "long", 15_000);
    // Well short of the command's 20 s sleep: it was stopped, not waited for.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(response).toMatchObject({ success: true });
    expect(dataOf(response)).toMatchObject({ cancelled: true });
    expect(String(dataOf(response).output)).not.toContain("never");
  });

  test("abort stops a running manual compaction and answers once it has stopped", async () => {
    const words = "lorem ipsum dolor sit amet ".repeat(30);
    // The summary is held until the abort has been answered.
    const summary = gate();
    const isSummary = (body: unknown) => JSON.stringify(body).includes("context summarization assistant");
    const { w, client } = await rpc(
      { responses: [{ when: "context summarization assistant", text: "## Goal\nSummarised after the abort." }, { text: "one" }, { text: "two" }] } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 50 } }, llm: { beforeAnswer: (request) => (isSummary(request.body) ? summary.held : undefined) } },
    );
    for (const message of [`first ${words}`, `second ${words}`]) {
      await client.promptAndWait(message);
    }
    const from = client.lines.length;
    client.send({ type: "compact", id: "c" });
    await client.waitFor((l) => l.type === "compaction_start", 10_000, from);
    await until(() => w.llm.requests.some((r) => isSummary(r.body)), "the summary request");
    const file = String(dataOf(await client.request({ type: "get_state" })).sessionFile);
    const before = readFileSync(file, "utf8");
    const abort = await client.request({ type: "abort" });
    expect(abort).toMatchObject({ success: true });
    // Answered once the compaction has stopped (as upstream since 0.85): its end comes first.
    const end = client.lines.findLast((l) => l.type === "compaction_end");
    expect(end).toMatchObject({ reason: "manual", aborted: true, willRetry: false });
    expect(client.lines.indexOf(end!)).toBeLessThan(client.lines.indexOf(abort));
    expect(await client.waitFor((l) => l.type === "response" && l.id === "c", 10_000, from)).toMatchObject({ success: false });
    summary.release();
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("a summary request that fails for a passing reason is retried", async () => {
    const words = "lorem ipsum dolor sit amet ".repeat(30);
    const { w, client } = await rpc([{ text: "one" }, { text: "two" }, { error: { status: 503, message: "busy" } }, { text: "## Goal\nRetried summary." }], {
      settings: { compaction: { keepRecentTokens: 50 }, retry: { enabled: true, maxRetries: 2, baseDelayMs: 20 } },
    });
    for (const message of [`first ${words}`, `second ${words}`]) {
      await client.promptAndWait(message);
    }
    const from = client.lines.length;
    const response = await client.request({ type: "compact" }, 20_000);
    expect(response).toMatchObject({ success: true });
    expect(String((dataOf(response) as { summary?: string }).summary)).toContain("Retried summary.");
    expect(w.llm.requests).toHaveLength(4);
    // The retry is told as upstream tells it, between the compaction's start and end.
    const told = client.lines.slice(from).filter((l) => String(l.type).startsWith("summarization_retry") || String(l.type).startsWith("compaction_"));
    expect(told.map((l) => l.type)).toEqual([
      "compaction_start",
      "summarization_retry_scheduled",
      "summarization_retry_attempt_start",
      "summarization_retry_finished",
      "compaction_end",
    ]);
    expect(told[1]).toEqual({ type: "summarization_retry_scheduled", attempt: 1, maxAttempts: 2, delayMs: 20, errorMessage: expect.stringContaining("busy") });
    expect(told[2]).toEqual({ type: "summarization_retry_attempt_start", source: "compaction", reason: "manual" });
    expect(told[3]).toEqual({ type: "summarization_retry_finished" });
    expect(told[4]).toMatchObject({ result: { estimatedTokensAfter: expect.any(Number) } });
  });

  test("abort_retry cancels the wait before the next attempt", async () => {
    const { w, client } = await rpc([{ error: { status: 503, message: "busy" } }, { text: "never asked for" }], {
      settings: { retry: { enabled: true, maxRetries: 3, baseDelayMs: 30_000 } },
    });
    const from = client.lines.length;
    await client.request({ type: "prompt", message: "try" });
    await client.waitFor((l) => l.type === "auto_retry_start", 10_000, from);
    expect(await client.request({ type: "abort_retry" })).toMatchObject({ success: true });
    // Well short of the 30 s wait: it was cancelled.
    const end = await client.waitFor((l) => l.type === "auto_retry_end", 10_000, from);
    expect(end).toMatchObject({ success: false });
    await client.waitIdle(from);
    expect(w.llm.requests).toHaveLength(1);
  });
});

test("the export path is refused when its folder does not exist", async () => {
  const { w, client } = await rpc();
  const response = await client.request({ type: "export_html", outputPath: join(w.cwd, "missing", "dir", "x.html") });
  expect(response.success).toBe(false);
  expect(existsSync(join(w.cwd, "missing"))).toBe(false);
});
