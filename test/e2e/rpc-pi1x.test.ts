/**
 * What upstream Pi 1.x changed in RPC (docs/rpc.md, "Changes in Pi 1.x"), through the built
 * binary with a real extension file: a session_start handler's notices and entries reach the
 * client at startup too (and `--mode json` writes the entries), and `steer`/`follow_up` go
 * through the input hook, which may take one (`disposition: "handled"`) or rewrite it.
 * Fixture: test/fixtures/extensions/rpc-1x/.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import type { WorldOptions } from "../helpers/pig-env.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "rpc-1x", "input-and-start.ts");

const { world, track } = extensionWorlds();

const notice = (prefix: string) => (l: Line) => l.type === "extension_ui_request" && l.method === "notify" && String(l.message).startsWith(prefix);
const userTexts = (body: unknown): string[] =>
  ((body as { messages: { role: string; content: unknown }[] }).messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : (m.content as { type: string; text?: string }[]).map((p) => p.text ?? "").join("")));

/**
 * A client on a world whose first answer is held until `release()`: a run is going while the
 * test queues what it checks. The prompt that starts it has been answered `started` and the run
 * has begun (`from`: the client's lines before it).
 */
async function runningWorld(responses: Script, options: WorldOptions = {}, args: string[] = [], prompt: Line = { type: "prompt", message: "first question" }) {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const w = await world(responses, options);
  w.llm.setBeforeAnswer((request) => (request.seq === 1 ? held : undefined));
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args }));
  const from = client.lines.length;
  expect(await client.request(prompt)).toMatchObject({ success: true, data: { disposition: "started" } });
  await client.waitFor((l) => l.type === "agent_start", undefined, from);
  return { w, client, from, release };
}

test("a session_start handler's notice and entry reach the RPC client at startup, before any command is answered", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", EXT] }));
  const state = await client.request({ type: "get_state" });
  expect(state.success).toBe(true);
  const at = (predicate: (l: Line) => boolean) => client.lines.findIndex(predicate);
  const startNotice = at(notice("session-start-notice: startup"));
  const appended = at((l) => l.type === "entry_appended" && (l.entry as { customType?: string }).customType === "start-mark");
  expect(client.lines[startNotice]).toMatchObject({ notifyType: "info", message: "session-start-notice: startup" });
  expect(client.lines[appended]).toMatchObject({ entry: { type: "custom", customType: "start-mark", data: { reason: "startup" } } });
  // Told as they happened: the notice, then the entry, both before the first response.
  expect(startNotice).toBeLessThan(appended);
  expect(appended).toBeLessThan(client.lines.indexOf(state));
  // Later sessions are told as before (once each).
  expect(await client.request({ type: "new_session" })).toMatchObject({ success: true });
  await client.waitFor(notice("session-start-notice: new"));
  expect(client.lines.filter(notice("session-start-notice:"))).toHaveLength(2);
  expect(await client.close()).toBe(0);
});

test("--mode json writes the entry a session_start handler appended at startup, after the header", async () => {
  const w = await world();
  const proc = Bun.spawn([pigBinary(), "--mode", "json", "-e", EXT, "plain question"], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const lines = out.trim().split("\n").map((l) => JSON.parse(l) as Line);
  expect(lines[0]!.type).toBe("session");
  const appended = lines.findIndex((l) => l.type === "entry_appended");
  expect(lines[appended]).toMatchObject({ entry: { customType: "start-mark", data: { reason: "startup" } } });
  expect(appended).toBeLessThan(lines.findIndex((l) => l.type === "agent_start"));
  // JSON mode has no UI: the notice is not part of its stream (as upstream).
  expect(out).not.toContain("session-start-notice");
});

test("steer and follow_up go through the input hook: taken is 'handled' and never sent, rewritten is queued as rewritten", async () => {
  // The first answer is held until the queue holds what the test sent.
  const { w, client, from, release } = await runningWorld({ responses: [{ text: "first answer" }, { text: "after the steer" }, { text: "after the follow-up" }] }, {}, ["-e", EXT]);

  const dropped = await client.request({ type: "steer", message: "drop this steer" });
  expect(dropped).toMatchObject({ success: true, command: "steer", data: { disposition: "handled" } });
  const rewritten = await client.request({ type: "follow_up", message: "rewrite the follow-up" });
  expect(rewritten).toMatchObject({ success: true, command: "follow_up", data: { disposition: "queued" } });
  const kept = await client.request({ type: "steer", message: "plain steer" });
  expect(kept).toMatchObject({ success: true, data: { disposition: "queued" } });
  // The hook heard each with its source and, as a run was going, how it is queued.
  await client.waitFor(notice("input-seen: drop this steer | source=rpc | behavior=steer"));
  await client.waitFor(notice("input-seen: rewrite the follow-up | source=rpc | behavior=followUp"));
  await client.waitFor(notice("input-seen: plain steer | source=rpc | behavior=steer"));
  const queue = (await client.request({ type: "get_state" })).data as { pendingMessageCount: number };
  expect(queue.pendingMessageCount).toBe(2);

  release();
  await client.waitFor((l) => l.type === "agent_settled", 20_000, from);
  // The steer goes with the run's next request, the follow-up once it would have stopped.
  expect(w.llm.requests).toHaveLength(3);
  expect(userTexts(w.llm.requests[1]!.body)).toEqual(["first question", "plain steer"]);
  expect(userTexts(w.llm.requests[2]!.body)).toEqual(["first question", "plain steer", "REWRITTEN the follow-up"]);
  expect(JSON.stringify(w.llm.requests.map((r) => r.body))).not.toContain("drop this steer");
  expect(await client.close()).toBe(0);
});

test("a steer while idle goes through the input hook too, without a streaming behaviour, and waits for the next run", async () => {
  const w = await world({ responses: [{ text: "answer" }] });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", EXT] }));
  expect(await client.request({ type: "steer", message: "rewrite idle steer" })).toMatchObject({ success: true, data: { disposition: "queued" } });
  await client.waitFor(notice("input-seen: rewrite idle steer | source=rpc | behavior=none"));
  expect(await client.request({ type: "follow_up", message: "drop idle follow-up" })).toMatchObject({ success: true, data: { disposition: "handled" } });
  expect(w.llm.requests).toHaveLength(0);
  await client.promptAndWait("now run");
  expect(userTexts(w.llm.requests[0]!.body)).toEqual(["now run", "REWRITTEN idle steer"]);
  expect(await client.close()).toBe(0);
});

test("get_last_assistant_text passes over a failed answer without text for the one before (upstream 1.x)", async () => {
  const w = await world({ responses: [{ text: "the good answer" }, { error: { status: 400, message: "bad request from the fake model" } }] });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env }));
  await client.promptAndWait("first");
  await client.promptAndWait("second");
  const messages = ((await client.request({ type: "get_messages" })).data as { messages: { role: string; stopReason?: string }[] }).messages;
  expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
  expect((await client.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "the good answer" });
  expect(await client.close()).toBe(0);
});

const SHUTDOWN = join(import.meta.dir, "..", "fixtures", "extensions", "rpc-1x", "shutdown.ts");

test("ctx.shutdown() from a command: the command finishes and answers, then pig exits 0 with stdin still open", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", SHUTDOWN] }));
  const response = await client.request({ type: "prompt", message: "/leave-after-work" });
  expect(response).toMatchObject({ success: true, data: { disposition: "handled" } });
  const done = client.lines.findIndex(notice("work finished after the shutdown request"));
  expect(done).toBeGreaterThanOrEqual(0);
  expect(done).toBeLessThan(client.lines.indexOf(response));
  expect(await client.exited()).toBe(0);
});

test("ctx.shutdown() from a timer while idle: pig exits 0 without waiting for another command", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", SHUTDOWN] }));
  expect(await client.request({ type: "prompt", message: "/leave-later" })).toMatchObject({ success: true, data: { disposition: "handled" } });
  expect(await client.exited()).toBe(0);
});

test("an image-only steer is delivered and leaves the queue empty (upstream 1.x)", async () => {
  const { w, client, from, release } = await runningWorld({ responses: [{ text: "first" }, { text: "saw the image" }] }, { input: ["text", "image"] });
  const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64").toString("base64");
  expect(await client.request({ type: "steer", message: "", images: [{ type: "image", data: pixel, mimeType: "image/png" }] })).toMatchObject({ success: true, data: { disposition: "queued" } });
  expect(((await client.request({ type: "get_state" })).data as { pendingMessageCount: number }).pendingMessageCount).toBe(1);
  release();
  await client.waitFor((l) => l.type === "agent_settled", 20_000, from);
  expect(w.llm.requests).toHaveLength(2);
  expect(JSON.stringify(w.llm.requests[1]!.body)).toContain(pixel);
  expect(((await client.request({ type: "get_state" })).data as { pendingMessageCount: number }).pendingMessageCount).toBe(0);
  const lastQueue = client.lines.filter((l) => l.type === "queue_update").at(-1);
  expect(lastQueue).toMatchObject({ steering: [], followUp: [] });
  expect(await client.close()).toBe(0);
});

test("switch_session to a session whose model is gone says so on stderr and goes on with another (upstream 1.x)", async () => {
  const w = await world({ responses: [{ text: "on the old model" }] });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env }));
  await client.promptAndWait("remember me");
  const file = String(((await client.request({ type: "get_state" })).data as { sessionFile: string }).sessionFile);
  // The same conversation, as if written on a model models.json no longer has.
  const gone = join(dirname(file), "gone-model-session.jsonl");
  writeFileSync(gone, readFileSync(file, "utf8").replaceAll('"fake-model"', '"vanished-model"'));
  expect(await client.request({ type: "new_session" })).toMatchObject({ success: true });
  expect(await client.request({ type: "switch_session", sessionPath: gone })).toMatchObject({ success: true, data: { cancelled: false } });
  const state = (await client.request({ type: "get_state" })).data as { model: { id: string }; sessionFile: string };
  expect([state.model.id, state.sessionFile]).toEqual(["fake-model", gone]);
  expect(await client.close()).toBe(0);
  expect(client.stderr.join("\n")).toContain("Could not restore model fake/vanished-model. Using fake/fake-model");
  expect(client.stderr.filter((l) => l.includes("Could not restore model"))).toHaveLength(1);
});

test("images of a prompt and of a steer are scaled down to the limits, with a note after the text (upstream 1.x)", async () => {
  const blue = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC", "base64");
  const wide = Buffer.from(await new Bun.Image(blue).resize(2400, 60).png().bytes()).toString("base64");
  const image = { type: "image", data: wide, mimeType: "image/png" };
  const prompt = { type: "prompt", message: "the prompt's image", images: [image] };
  const { w, client, from, release } = await runningWorld({ responses: [{ text: "first" }, { text: "second" }] }, { input: ["text", "image"] }, [], prompt);
  expect(await client.request({ type: "steer", message: "the steer's image", images: [image] })).toMatchObject({ data: { disposition: "queued" } });
  release();
  await client.waitFor((l) => l.type === "agent_settled", 20_000, from);
  const note = "[Image: original 2400x60, displayed at 2000x50. Multiply coordinates by 1.20 to map to original image.]";
  const users = (w.llm.requests[1]!.body as { messages: { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[] }).messages.filter((m) => m.role === "user");
  expect(users.map((m) => m.content.find((p) => p.type === "text")?.text)).toEqual([`the prompt's image\n\n${note}`, `the steer's image\n\n${note}`]);
  for (const m of users) {
    const url = m.content.find((p) => p.type === "image_url")!.image_url!.url;
    const meta = await new Bun.Image(Buffer.from(url.slice(url.indexOf(",") + 1), "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([2000, 50]);
  }
  expect(await client.close()).toBe(0);
});
