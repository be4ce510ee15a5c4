/**
 * Virtual models (upstream Pi 1.x's `registerVirtualModel`) through the built binary: a real
 * TypeScript extension routes each request of `router/auto` to one of two physical models of the
 * fake LLM server; the request bodies, the session file and the router's own notes show where
 * each went and why. Fixture: test/fixtures/extensions/run-events/router.ts.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { EXTENSION_FIXTURES, extensionWorlds, readJsonLines, writtenJsonLines } from "../helpers/extension-worlds.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";

const ROUTER = join(EXTENSION_FIXTURES, "run-events", "router.ts");
const { world, track } = extensionWorlds();

type Json = Record<string, any>;
const dataOf = (response: Line) => response.data as Json;

test("requests go where the router sends them, turn by turn; the session keeps the selection, each answer its physical model", async () => {
  const w = await world([{ text: "easy answer" }, { toolCalls: [{ name: "bash", arguments: { command: "echo routed" } }] }, { text: "hard answer" }, { text: "the summary" }], {
    settings: { compaction: { keepRecentTokens: 1 } },
  });
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", ROUTER] }));
  const routes = () => writtenJsonLines(join(w.cwd, "routes.jsonl"));

  // Listed and selectable like any model.
  const available = (dataOf(await client.request({ type: "get_available_models" })).models as Json[]).map((m) => `${m.provider}/${m.id}`);
  expect(available).toContain("router/auto");
  expect(await client.request({ type: "set_model", provider: "router", modelId: "auto" })).toMatchObject({ success: true });
  expect(dataOf(await client.request({ type: "get_state" })).model).toMatchObject({ provider: "router", id: "auto", name: "Auto" });
  expect(await client.request({ type: "set_thinking_level", level: "high" })).toMatchObject({ success: true });

  await client.promptAndWait("an easy question");
  // The context counts against the window of the model that answered (the virtual model has none of its own).
  expect(dataOf(await client.request({ type: "get_session_stats" })).contextUsage).toMatchObject({ contextWindow: 128000 });
  await client.promptAndWait("a hard question");
  expect(w.llm.requests.map((r) => (r.body as Json).model)).toEqual(["fake-model", "fake-reasoner", "fake-reasoner"]);
  expect(routes().map((r) => [r.reason, r.model, r.thinkingLevel, r.previous, r.state, r.hasSignal])).toEqual([
    ["user", "router/auto", "high", null, null, true],
    ["user", "router/auto", "high", "fake/fake-model:off", { turns: 1 }, true],
    // The tool result's follow-up stays on the model that handled the turn.
    ["continuation", "router/auto", "high", "fake/fake-reasoner:high", { turns: 2 }, true],
  ]);

  const file = String(dataOf(await client.request({ type: "get_state" })).sessionFile);
  const entries = readJsonLines(file);
  expect(entries.filter((e) => e.type === "model_change").map((e) => `${e.provider}/${e.modelId}`).at(-1)).toBe("router/auto");
  const answers = entries.filter((e) => e.type === "message" && e.message.role === "assistant").map((e) => e.message);
  expect(answers.map((m) => [m.provider, m.model, m.thinkingLevel])).toEqual([
    ["fake", "fake-model", "off"],
    ["fake", "fake-reasoner", "high"],
    ["fake", "fake-reasoner", "high"],
  ]);
  expect(entries.filter((e) => e.type === "custom" && e.customType === "pi.virtual-model-state").map((e) => e.data)).toEqual([
    { provider: "router", modelId: "auto", state: { turns: 1 } },
    { provider: "router", modelId: "auto", state: { turns: 2 } },
  ]);

  // A route to a model the catalogue does not have ends the request as an error, naming both.
  await client.promptAndWait("an unknown destination");
  expect(w.llm.requests).toHaveLength(3);
  const failed = (dataOf(await client.request({ type: "get_messages" })).messages as Json[]).at(-1)!;
  expect(failed).toMatchObject({ role: "assistant", stopReason: "error", provider: "router", model: "auto" });
  expect(failed.errorMessage).toBe("Virtual model router/auto routed to nope/missing, which is not a physical model.");

  // A request outside the agent loop (a compaction's summary) is routed too: reason direct, no state.
  expect(await client.request({ type: "compact" }, 20_000)).toMatchObject({ success: true, data: { summary: "the summary" } });
  expect(routes().at(-1)).toMatchObject({ reason: "direct", state: null, previous: "fake/fake-reasoner:high" });
  expect(w.llm.requests.map((r) => (r.body as Json).model).at(-1)).toBe("fake-reasoner");
  expect(client.stderr).toEqual([]);
});

test("--model names a virtual model in print mode", async () => {
  const w = await world([{ text: "routed from the command line" }]);
  const run = await w.run(["-p", "-e", ROUTER, "--model", "router/auto", "a hard one"]);
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe("routed from the command line\n");
  expect(w.llm.requests.map((r) => (r.body as Json).model)).toEqual(["fake-reasoner"]);
});

test("a retried request is routed with reason retry and the failed answer; a resumed session is on the virtual model again", async () => {
  const w = await world([{ error: { status: 503, message: "overloaded" } }, { text: "second time lucky" }, { text: "resumed" }], {
    settings: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10 } },
  });
  const sessions = join(w.cwd, "sessions");
  const first = await w.run(["-p", "--session-dir", sessions, "-e", ROUTER, "--model", "router/auto", "a hard one"]);
  expect(first.stdout).toBe("second time lucky\n");
  const routes = writtenJsonLines(join(w.cwd, "routes.jsonl"));
  expect(routes.map((r) => [r.reason, r.failed])).toEqual([
    ["user", null],
    ["retry", "fake/fake-reasoner:error"],
  ]);
  expect(w.llm.requests.map((r) => (r.body as Json).model)).toEqual(["fake-reasoner", "fake-reasoner"]);

  // Continued without --model: the session's selection, the virtual model, routes again.
  const again = await w.run(["-p", "--session-dir", sessions, "-c", "-e", ROUTER, "an easy one"]);
  expect(again.stderr).toBe("");
  expect(again.stdout).toBe("resumed\n");
  expect(writtenJsonLines(join(w.cwd, "routes.jsonl")).at(-1)).toMatchObject({ reason: "user", model: "router/auto" });
  expect((w.llm.requests.at(-1)!.body as Json).model).toBe("fake-model");
});

