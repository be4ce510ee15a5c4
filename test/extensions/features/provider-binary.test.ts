/**
 * Providers registered by an extension, through the built binary: a model with `streamSimple`
 * is selectable with `--model` and answers from the extension; an unregistered provider is gone;
 * a config upstream refuses is an extension error naming the extension.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { RpcClient } from "../../helpers/rpc-client.ts";
import { extensionWorlds } from "../../helpers/extension-worlds.ts";

const EXT = join(import.meta.dir, "..", "..", "fixtures", "extensions", "features");
const { world, track } = extensionWorlds();

describe("extension providers (binary)", () => {
  test("pig -p --model myprov/m1 answers from the extension's streamSimple", async () => {
    const w = await world();
    const run = await w.run(["-e", join(EXT, "provider.ts"), "-p", "--model", "myprov/m1", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("hi from ext (you said: hello)");
    expect(run.code).toBe(0);
    // The fake LLM was never asked: the extension answered.
    expect(w.llm.requests).toHaveLength(0);
  }, 60_000);

  test("an unregistered provider is not selectable", async () => {
    const w = await world();
    const run = await w.run(["-e", join(EXT, "provider.ts"), "-p", "--model", "gone/g1", "hello"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Model "gone/g1" not found');
  }, 60_000);

  test("RPC get_available_models lists the extension's model; a refused config is an extension error", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(EXT, "provider.ts"), "-e", join(EXT, "bad-provider.ts")] });
    track(client);
    const models = (await client.request({ type: "get_available_models" })) as { data: { models: unknown[] } };
    const ids = (models.data.models as Array<{ provider: string; id: string }>).map((m) => `${m.provider}/${m.id}`);
    expect(ids).toContain("myprov/m1");
    expect(ids).not.toContain("gone/g1");
    expect(ids).not.toContain("broken/b1");
    const error = await client.waitFor((e) => e.type === "extension_error");
    expect(error).toMatchObject({ extensionPath: join(EXT, "bad-provider.ts"), event: "register_provider", error: 'Provider broken: "baseUrl" is required when defining models.' });
  }, 60_000);
});

describe("extension status (binary)", () => {
  test("RPC get_extensions lists each extension with its process, state, events and calls", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", join(EXT, "provider.ts"), "--model", "myprov/m1"] });
    track(client);
    await client.promptAndWait("hello");
    const response = (await client.request({ type: "get_extensions" })) as { success: boolean; data: { extensions: Array<Record<string, unknown>> } };
    expect(response.success).toBe(true);
    const [row] = response.data.extensions;
    expect(row).toMatchObject({ path: join(EXT, "provider.ts"), generation: 1, state: "running", events: [] });
    expect(typeof row!.pid).toBe("number");
    // One provider.stream call answered the prompt.
    expect(row!.calls).toBe(1);
    expect(typeof row!.medianLatencyMs).toBe("number");
    expect(row!.error).toBeUndefined();
  }, 60_000);

  test("--verbose names the loaded extensions in the startup report", async () => {
    const w = await world();
    const run = await w.run(["-e", join(EXT, "provider.ts"), "--verbose", "-p", "--model", "myprov/m1", "hello"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^extensions +.*provider\.ts$/m);
  }, 60_000);
});
