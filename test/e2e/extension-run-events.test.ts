/**
 * The run events of upstream Pi 1.x, through the built binary and a real TypeScript extension:
 * `agent_settled.aborted`, `before_agent_start`'s `messageType` and `systemPromptOptions`,
 * `ctx.getSystemPrompt()` during a run, and `provider_stream_event`.
 * Fixtures: test/fixtures/extensions/run-events/.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import type { PigWorld, WorldOptions } from "../helpers/pig-env.ts";
import { EXTENSION_FIXTURES, extensionWorlds, writtenJsonLines } from "../helpers/extension-worlds.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { gate, until } from "../helpers/waits.ts";

const ext = (name: string) => join(EXTENSION_FIXTURES, "run-events", `${name}.ts`);
const { world, track } = extensionWorlds();

async function rpc(extensions: string[], script?: Script, options: WorldOptions = {}): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world(script, options);
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: extensions.flatMap((name) => ["-e", ext(name)]) }));
  return { w, client };
}

test("agent_settled.aborted: true for a run stopped by abort, false for one that finished, to the extension and on the wire", async () => {
  const held = gate();
  const { w, client } = await rpc(["settled"], [{ text: "cut short" }, { text: "finished" }]);
  w.llm.setBeforeAnswer((request) => (request.seq === 1 ? held.held : undefined));
  const settled = () => writtenJsonLines(join(w.cwd, "settled.jsonl"));
  await client.request({ type: "prompt", message: "begin" });
  await until(() => w.llm.requests.length === 1, "the first request");
  expect(await client.request({ type: "abort" })).toMatchObject({ success: true });
  held.release();
  await client.waitFor((l) => l.type === "agent_settled");
  await until(() => settled().length === 1, "the extension's first agent_settled");
  expect(settled()).toEqual([{ aborted: true }]);

  const from = client.lines.length;
  await client.request({ type: "prompt", message: "again" });
  await client.waitFor((l) => l.type === "agent_settled", 15_000, from);
  await until(() => settled().length === 2, "the extension's second agent_settled");
  expect(settled()).toEqual([{ aborted: true }, { aborted: false }]);
  expect(client.lines.filter((l) => l.type === "agent_settled")).toEqual([
    { type: "agent_settled", aborted: true },
    { type: "agent_settled", aborted: false },
  ]);
});

const systemText = (w: PigWorld, index: number): string =>
  ((w.llm.requests[index]!.body as { messages: { role: string; content: unknown }[] }).messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");

test("before_agent_start: messageType and systemPromptOptions; edits in place make the run's prompt, which ctx.getSystemPrompt() returns during it", async () => {
  const { w, client } = await rpc(["prompt-options"]);
  const notes = () => writtenJsonLines(join(w.cwd, "before-start.jsonl"));
  const turns = () => writtenJsonLines(join(w.cwd, "turn-prompt.jsonl"));

  await client.promptAndWait("follow the house rules");
  expect(notes()).toEqual([
    {
      messageType: "user",
      prompt: "follow the house rules",
      message: null,
      optionKeys: ["appendSystemPrompt", "contextFiles", "cwd", "hiddenTools", "promptGuidelines", "sections", "selectedTools", "skills", "toolGuidelines", "toolSnippets"],
      selectedTools: ["read", "bash", "edit", "write"],
      readSnippet: "string",
      cwdIsCwd: true,
      sameAsContext: true,
    },
  ]);
  // The edited inputs made the prompt the model got: the section after the working directory, the rule among the rules.
  const first = systemText(w, 0);
  expect(first).toContain("<house_rules>\nAnswer in haiku.\n</house_rules>");
  expect(first).toContain("- Prefer tabs over spaces\n");
  expect(first.indexOf("<house_rules>")).toBeGreaterThan(first.indexOf("<cwd>"));
  await until(() => turns().length === 1, "the first turn");
  expect(turns()[0]!.prompt).toContain("<house_rules>");

  // The edits held for that run only.
  await client.promptAndWait("plain question");
  await until(() => turns().length === 2, "the second turn");
  expect(turns()[1]!.prompt).not.toContain("house_rules");
  expect(turns()[1]!.prompt).not.toContain("Prefer tabs");

  // A returned prompt is the run's: sent, and what ctx.getSystemPrompt() says during the run.
  await client.promptAndWait("the forced one");
  await until(() => turns().length === 3, "the third turn");
  expect(turns()[2]!.prompt).toBe("You are a forced prompt.");
  expect(systemText(w, 2)).toContain("You are a forced prompt.");

  // A command reads the inputs as they are now (the run's edits are gone).
  await client.promptAndWait("/prompt-options");
  await until(() => existsSync(join(w.cwd, "command-options.json")), "the command's note");
  expect(JSON.parse(readFileSync(join(w.cwd, "command-options.json"), "utf8"))).toEqual({ selectedTools: ["read", "bash", "edit", "write"], cwdIsCwd: true, sections: {} });

  // A custom message that starts a run passes the hook too (the command only sends it: its run follows).
  const from = client.lines.length;
  await client.promptAndWait("/kick");
  await client.waitFor((l) => l.type === "agent_settled", 15_000, from);
  expect(notes()[3]).toMatchObject({ messageType: "custom", prompt: null, message: "kick" });
  expect(w.llm.requests).toHaveLength(4);
  expect(JSON.stringify(w.llm.requests[3]!.body)).toContain("kicked off");
});

test("provider_stream_event: upstream's members, each chunk of the answer as sent, between the answer's message_start and message_end, before the update made of it", async () => {
  const w = await world([{ text: "hello there friend", chunkSize: 6 }]);
  const run = await w.run(["-p", "-e", ext("stream-sequence"), "hello"]);
  expect(run.code).toBe(0);
  const seen = writtenJsonLines(join(w.cwd, "stream-sequence.jsonl")).filter((e) => e.role === undefined || e.role === "assistant");
  const names = seen.map((e) => (e.update ? `update:${e.update}` : e.name));
  const chunks = seen.filter((e) => e.name === "provider_stream_event");
  expect(names[0]).toBe("message_start");
  expect(names.at(-1)).toBe("message_end");
  // Every chunk of the answer (role, three pieces of text, the finish, the usage), in the order the server sent them.
  expect(chunks.map((c) => c.keys)).toEqual(chunks.map(() => ["api", "data", "model", "provider", "type"]));
  expect(chunks[0]).toMatchObject({ provider: "fake", api: "openai-completions", model: "fake-model" });
  const text = chunks.map((c) => c.data.choices?.[0]?.delta?.content ?? "").join("");
  expect(text).toBe("hello there friend");
  expect(chunks.at(-1)!.data.usage).toMatchObject({ completion_tokens: expect.any(Number) });
  // The raw chunk comes before the update pig makes of it: no text delta before the first text chunk.
  const firstText = seen.findIndex((e) => e.name === "provider_stream_event" && e.data.choices?.[0]?.delta?.content);
  expect(names.indexOf("update:text_delta")).toBeGreaterThan(firstText);
});
