/**
 * TypeScript extensions in RPC mode: a command's dialogs reach the client as Pi's
 * extension_ui_request lines, the client's extension_ui_response answers go back to the
 * handler, and a notice arrives as a notify request; `prompt "/cmd"` runs the command.
 * Fixtures: test/fixtures/extensions/e2e2/.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PigWorld } from "../helpers/pig-env.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";

const ASK = join(import.meta.dir, "..", "fixtures", "extensions", "e2e2", "ask.ts");

const { world, track } = extensionWorlds();

async function rpc(): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ASK] }));
  return { w, client };
}

const uiRequest = (method: string) => (l: Line) => l.type === "extension_ui_request" && l.method === method;

test("a command's select, confirm and input go to the client; its answers reach the handler", async () => {
  const { w, client } = await rpc();
  // The prompt's response comes once the command has finished (docs/rpc.md), so the dialogs
  // are answered while it is pending.
  const response = client.request({ type: "prompt", message: "/ask", id: "ask-1" });

  const select = await client.waitFor(uiRequest("select"));
  expect(select).toMatchObject({ title: "Pick a fruit", options: ["apple", "banana", "cherry"] });
  expect(typeof select.id).toBe("string");
  client.send({ type: "extension_ui_response", id: select.id, value: "banana" });

  const confirm = await client.waitFor(uiRequest("confirm"));
  expect(confirm).toMatchObject({ title: "Are you sure?", message: "Really sure?" });
  expect(confirm.id).not.toBe(select.id);
  client.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });

  const input = await client.waitFor(uiRequest("input"));
  expect(input).toMatchObject({ title: "Your name?", placeholder: "a name" });
  client.send({ type: "extension_ui_response", id: input.id, value: "Ada Lovelace" });

  const expected = { picked: "banana", sure: true, name: "Ada Lovelace" };
  const notice = await client.waitFor(uiRequest("notify"));
  expect(notice).toMatchObject({ message: `answers: ${JSON.stringify(expected)}`, notifyType: "info" });
  expect(JSON.parse(readFileSync(join(w.cwd, "answers.json"), "utf8"))).toEqual(expected);
  // Taken by the command: no run starts for it (upstream 1.x's disposition).
  expect(await response).toMatchObject({ type: "response", command: "prompt", success: true, data: { disposition: "handled" } });
  const answeredAt = client.lines.findIndex((l) => l.type === "response" && l.id === "ask-1");
  expect(answeredAt).toBeGreaterThan(client.lines.indexOf(notice));
  // A command is not a prompt: the model was never asked.
  expect(w.llm.requests).toHaveLength(0);
  expect(await client.close()).toBe(0);
});

test("cancelled dialogs give the handler their defaults", async () => {
  const { w, client } = await rpc();
  const response = client.request({ type: "prompt", message: "/ask" });
  for (const method of ["select", "confirm", "input"]) {
    const request = await client.waitFor(uiRequest(method));
    client.send({ type: "extension_ui_response", id: request.id, cancelled: true });
  }
  const expected = { picked: null, sure: false, name: null };
  const notice = await client.waitFor(uiRequest("notify"));
  expect(notice.message).toBe(`answers: ${JSON.stringify(expected)}`);
  expect(JSON.parse(readFileSync(join(w.cwd, "answers.json"), "utf8"))).toEqual(expected);
  expect(await response).toMatchObject({ type: "response", command: "prompt", success: true });
  expect(await client.close()).toBe(0);
});

test('prompt "/mark …" while idle runs the extension command with its arguments, without the model', async () => {
  const { w, client } = await rpc();
  expect(existsSync(join(w.cwd, "mark.txt"))).toBe(false);
  await client.promptAndWait("/mark left by rpc");
  expect(readFileSync(join(w.cwd, "mark.txt"), "utf8")).toBe("mark=left by rpc");
  expect(w.llm.requests).toHaveLength(0);
  // The session goes on as usual: a plain prompt afterwards reaches the model.
  await client.promptAndWait("hello");
  expect(w.llm.requests).toHaveLength(1);
  expect(JSON.stringify(w.llm.requests[0]!.body)).not.toContain("/mark");
  expect(await client.close()).toBe(0);
});

test("notices and a status from session_start reach the client, in the order given, before any command; a TUI-only call does not", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(import.meta.dir, "..", "fixtures", "extensions", "e2e2", "start-notice.ts")] }));
  await client.waitFor((l) => uiRequest("notify")(l) && l.message === "second-start-notice");
  const early = client.lines.filter((l) => l.type === "extension_ui_request").map((l) => [l.method, l.message ?? l.statusText, l.notifyType]);
  expect(early).toEqual([
    ["notify", "first-start-notice", "info"],
    ["setStatus", "status-at-start", undefined],
    ["notify", "second-start-notice", "warning"],
  ]);
  // Nothing was asked of pig yet: they came at start.
  expect(client.lines.some((l) => l.type === "response")).toBe(false);
  await client.request({ type: "get_state" });
  expect(await client.close()).toBe(0);
  // The footer pig cannot draw is told in the extension's log only: the client heard nothing of it.
  expect(client.lines.filter((l) => l.type === "extension_ui_request")).toHaveLength(3);
  const logs = join(w.agentDir, "extensions", "logs");
  const logged = readdirSync(logs).map((name) => readFileSync(join(logs, name), "utf8")).join("\n");
  expect(logged).toContain("ctx.ui.setFooter() needs Pi's full-screen TUI");
});
