/**
 * The run events of upstream Pi 1.x, through the built binary and a real TypeScript extension:
 * `agent_settled.aborted`, `before_agent_start`'s `messageType` and `systemPromptOptions`,
 * `ctx.getSystemPrompt()` during a run, and `provider_stream_event`.
 * Fixtures: test/fixtures/extensions/run-events/.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import type { PigWorld, WorldOptions } from "../helpers/pig-env.ts";
import { EXTENSION_FIXTURES, extensionWorlds, writtenJsonLines } from "../helpers/extension-worlds.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const ext = (name: string) => join(EXTENSION_FIXTURES, "run-events", `${name}.ts`);
const { world, track } = extensionWorlds();

async function rpc(extensions: string[], script?: Script, options: WorldOptions = {}): Promise<{ w: PigWorld; client: RpcClient }> {
  const w = await world(script, options);
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: extensions.flatMap((name) => ["-e", ext(name)]) }));
  return { w, client };
}

/** A promise a test resolves to let a held answer go. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/** Resolves once `check` holds; fails the test with `what` if it never does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
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
