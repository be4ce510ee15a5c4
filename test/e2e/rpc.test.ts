/**
 * RPC mode's robustness through the built binary: bad input never stops it, big lines and
 * unusual characters pass through, concurrent commands keep their ids, and it exits cleanly.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmOptions } from "../helpers/fake-llm/server.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { RpcUi } from "../../src/modes/rpc-ui.ts";

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function rpc(script?: unknown, llm: FakeLlmOptions = {}) {
  const w = await createWorld({ llm: { ...llm, ...(script ? { script: script as never } : { mode: "text" as const }) } });
  worlds.push(w);
  const client = new RpcClient({ cwd: w.cwd, env: w.env });
  clients.push(client);
  return { w, client };
}

describe("rpc input", () => {
  test("malformed lines, unknown commands and wrong fields are answered; pig keeps going", async () => {
    const { client } = await rpc();
    client.write("this is not json\n\n");
    await client.waitFor((l) => l.command === "parse" && String(l.error).startsWith("Failed to parse command:"));
    const unknown = await client.request({ type: "teleport", id: "u1" });
    expect(unknown).toEqual({ id: "u1", type: "response", command: "teleport", success: false, error: "Unknown command: teleport" });
    const wrong = await client.request({ type: "set_thinking_level", level: "extreme", id: "w1" });
    expect(wrong).toMatchObject({ id: "w1", success: false });
    expect(String(wrong.error)).toContain("level");
    const state = await client.request({ type: "get_state" });
    expect(state).toMatchObject({ success: true });
  });

  test("numeric ids, as some clients send them, are accepted and echoed as given", async () => {
    const { client } = await rpc();
    client.write(`${JSON.stringify({ type: "get_state", id: 7 })}\n`);
    expect(await client.waitFor((l) => l.id === 7)).toMatchObject({ type: "response", command: "get_state", success: true });
    client.write(`${JSON.stringify({ type: "teleport", id: 8 })}\n`);
    expect(await client.waitFor((l) => l.id === 8)).toMatchObject({ success: false, error: "Unknown command: teleport" });
  });

  test("a CRLF line, U+2028 inside a string, and a 60 MB line", async () => {
    const { client, w } = await rpc();
    client.write(`${JSON.stringify({ type: "get_state", id: "crlf" })}\r\n`);
    expect(await client.waitFor((l) => l.id === "crlf")).toMatchObject({ success: true });
    const odd = "line\u2028separator\u2029paragraph";
    const from = client.lines.length;
    await client.request({ type: "prompt", message: odd });
    await client.waitIdle(from);
    expect(JSON.stringify(w.llm.requests.at(-1)!.body)).toContain(odd);
    const big = Buffer.alloc(45 * 1024 * 1024, 7).toString("base64");
    const start = client.lines.length;
    const response = await client.request(
      { type: "prompt", message: "describe", images: [{ type: "image", data: big, mimeType: "image/png" }] },
      60_000,
    );
    expect(response).toMatchObject({ success: true });
    await client.waitIdle(start, 250, 60_000);
    expect(w.llm.requests.length).toBe(2);
  }, 120_000);

  test("concurrent commands keep their ids; a slow bash does not hold up the rest", async () => {
    const { client, w } = await rpc();
    // The command runs until the test has seen every other answer.
    const go = join(w.cwd, "go");
    client.send({ type: "bash", command: `while [ ! -e ${go} ]; do sleep 0.05; done; echo slow`, id: "slow" });
    for (let i = 0; i < 5; i++) client.send({ type: "get_state", id: `s${i}` });
    for (let i = 0; i < 5; i++) expect(await client.waitFor((l) => l.id === `s${i}`)).toMatchObject({ type: "response", success: true });
    expect(client.lines.some((l) => l.id === "slow")).toBe(false);
    writeFileSync(go, "");
    expect(await client.waitFor((l) => l.type === "response" && l.id === "slow")).toMatchObject({ success: true, data: { output: "slow\n", exitCode: 0 } });
    // Its output streamed first, under the same id.
    expect(client.lines.filter((l) => l.id === "slow").map((l) => l.type)).toEqual(["bash_execution_update", "response"]);
  });

  test("end of input finishes the running prompt, then exits 0", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { client, w } = await rpc([{ text: "the answer" }], { beforeAnswer: () => held });
    client.send({ type: "prompt", message: "hi", id: "p" });
    await client.waitFor((l) => l.type === "agent_start");
    // A last line without its newline is handled when input ends: its answer shows pig has
    // seen the end while the run still waits for the model.
    client.write(JSON.stringify({ type: "get_state", id: "last" }));
    const exited = client.close();
    expect(await client.waitFor((l) => l.id === "last")).toMatchObject({ success: true, data: { isStreaming: true } });
    release();
    expect(await exited).toBe(0);
    const end = client.lines.find((l) => l.type === "agent_end");
    expect(JSON.stringify(end)).toContain("the answer");
    expect(w.llm.requests).toHaveLength(1);
  });

  test("an abort in the same write as its prompt stops that run before the model is asked", async () => {
    const { client, w } = await rpc([{ text: "the answer to the second prompt" }]);
    // One write: pig handles both lines before the run's first event.
    client.write(`${JSON.stringify({ type: "prompt", message: "hi", id: "p" })}\n${JSON.stringify({ type: "abort", id: "a" })}\n`);
    expect(await client.waitFor((l) => l.id === "p")).toMatchObject({ success: true });
    expect(await client.waitFor((l) => l.id === "a")).toMatchObject({ success: true });
    const end = await client.waitFor((l) => l.type === "agent_end");
    // The prompt is still answered before its run's first event.
    expect(client.lines.findIndex((l) => l.id === "p")).toBeLessThan(client.lines.findIndex((l) => l.type === "agent_start"));
    const messages = end.messages as { role: string; stopReason?: string }[];
    expect(messages.map((m) => m.stopReason ?? m.role)).toEqual(["system", "user", "aborted"]);
    expect(w.llm.requests).toHaveLength(0);
    // The next prompt runs as usual.
    await client.promptAndWait("again");
    expect((await client.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "the answer to the second prompt" });
  });

  test("SIGTERM exits 143", async () => {
    const { client } = await rpc();
    await client.request({ type: "get_state" });
    expect(await client.terminate()).toBe(143);
  });
});

describe("extension UI plumbing", () => {
  test("dialogs wait for the matching response; timeouts resolve to the default; unknown ids are ignored", async () => {
    const sent: Record<string, unknown>[] = [];
    const ui = new RpcUi((record) => sent.push(record));
    const answer = ui.select("Pick", ["a", "b"]);
    const request = sent.at(-1)!;
    expect(request).toMatchObject({ type: "extension_ui_request", method: "select", title: "Pick", options: ["a", "b"] });
    ui.receive({ type: "extension_ui_response", id: "someone-else", value: "x" });
    ui.receive({ type: "extension_ui_response", id: request.id as string, value: "b" });
    expect(await answer).toBe("b");
    expect(await ui.confirm("Sure?", "Really", { timeout: 20 })).toBe(false);
    expect(ui.pending).toBe(0);
    const controller = new AbortController();
    const input = ui.input("Name", undefined, { signal: controller.signal });
    controller.abort();
    expect(await input).toBeUndefined();
    const cancelled = ui.confirm("Go?", "Now");
    ui.receive({ type: "extension_ui_response", id: sent.at(-1)!.id as string, cancelled: true });
    expect(await cancelled).toBe(false);
    ui.notify("done", "info");
    expect(sent.at(-1)).toMatchObject({ method: "notify", message: "done", notifyType: "info" });
  });
});
