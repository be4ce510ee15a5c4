/**
 * `pi.sendUserMessage(text, { expandPromptTemplates: true })` through the built binary in RPC
 * mode, as Pi 1.x has it: the text is input as if typed — an extension command runs instead of
 * reaching the model, a prompt template expands. Without the option the text reaches the model as
 * it is. Either way the input hook sees it, with source "extension".
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { type Line, RpcClient } from "../helpers/rpc-client.ts";

const { world, track } = extensionWorlds();

const EXTENSION = `
export default function (pi) {
  pi.registerCommand("greet", { handler: async (args, ctx) => ctx.ui.notify("greeted " + args, "info") });
  pi.registerCommand("drive-expand", { handler: async (args) => pi.sendUserMessage(args, { expandPromptTemplates: true }) });
  pi.registerCommand("drive-literal", { handler: async (args) => pi.sendUserMessage(args) });
  pi.on("input", (event, ctx) => {
    ctx.ui.notify("input " + event.source + " " + event.text, "info");
    return { action: "continue" };
  });
}
`;

type Json = Record<string, any>;

const notice = (text: string) => (l: Line) => l.type === "extension_ui_request" && l.method === "notify" && l.message === text;

function lastUserText(body: unknown): string {
  const user = (body as { messages: Json[] }).messages.filter((m) => m.role === "user").at(-1)!;
  return typeof user.content === "string" ? user.content : user.content.map((p: Json) => p.text ?? "").join("");
}

test("sendUserMessage with expandPromptTemplates runs a command and expands a template; without it the text goes to the model as it is", async () => {
  const w = await world(undefined, { files: { "ext/send.ts": EXTENSION }, agentFiles: { "prompts/shout.md": "Shout: $@" } });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(w.cwd, "ext", "send.ts")] }));

  // A command: it runs, the model is not asked, the input hook is not told (a command comes first).
  expect(await client.request({ type: "prompt", message: "/drive-expand /greet world" })).toMatchObject({ success: true, data: { disposition: "handled" } });
  await client.waitFor(notice("greeted world"));

  // A template: expanded after the input hook saw the raw text.
  let from = client.lines.length;
  await client.request({ type: "prompt", message: "/drive-expand /shout hello there" });
  await client.waitFor(notice("input extension /shout hello there"), 15_000, from);
  await client.waitFor((l) => l.type === "agent_end", 15_000, from);
  expect(w.llm.requests).toHaveLength(1);
  expect(lastUserText(w.llm.requests[0]!.body)).toBe("Shout: hello there");

  // Without the option: the text as it is, template and command alike.
  for (const text of ["/shout hello", "/greet nobody"]) {
    from = client.lines.length;
    await client.request({ type: "prompt", message: `/drive-literal ${text}` });
    await client.waitFor(notice(`input extension ${text}`), 15_000, from);
    await client.waitFor((l) => l.type === "agent_end", 15_000, from);
    expect(lastUserText(w.llm.requests.at(-1)!.body)).toBe(text);
  }
  expect(w.llm.requests).toHaveLength(3);
  expect(client.lines.some(notice("greeted nobody"))).toBe(false);
  expect(client.lines.filter((l) => l.type === "extension_ui_request" && String(l.message).startsWith("input rpc"))).toEqual([]);
  expect(await client.close()).toBe(0);
});
