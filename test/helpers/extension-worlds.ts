/**
 * What the extension end-to-end tests share: worlds (agent dir, cwd, fake model) and RPC clients
 * that are all closed after the test file, and fixture paths. Call it at a test file's top level,
 * so the clean-up belongs to that file.
 */
import { afterAll } from "bun:test";
import { join } from "node:path";
import type { Script } from "./fake-llm/server.ts";
import { createWorld, type PigWorld, type WorldOptions } from "./pig-env.ts";
import type { RpcClient } from "./rpc-client.ts";

export const EXTENSION_FIXTURES = join(import.meta.dir, "..", "fixtures", "extensions");

export function extensionWorlds() {
  const worlds: PigWorld[] = [];
  const clients: RpcClient[] = [];
  afterAll(async () => {
    for (const c of clients.splice(0)) c.kill();
    await Promise.all(worlds.splice(0).map((w) => w.close()));
  });
  return {
    /** A world whose model follows `script`, or answers "ok" to everything without one. */
    async world(script?: Script, options: WorldOptions = {}): Promise<PigWorld> {
      const w = await createWorld({ ...options, llm: script ? { script } : { mode: "text" } });
      worlds.push(w);
      return w;
    },
    /** Kills `client` after the file (its pig with it). */
    track<C extends RpcClient>(client: C): C {
      clients.push(client);
      return client;
    },
  };
}
