/**
 * Bun keeps the modules it transpiled in a cache. An extension runner's go to pig's own cache
 * folder (`$XDG_CACHE_HOME/pig/transpiler`, else `~/.cache/pig/transpiler`), never into the
 * user's `~/.bun`.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const { world, track } = extensionWorlds();

/** An extension large enough for Bun to cache its transpiled form (a few hundred KB of TypeScript). */
function largeExtension(dir: string): string {
  const words = Array.from({ length: 6000 }, (_, i) => `  "word number ${i} of a long list": ${i} as number,`).join("\n");
  const file = join(dir, "large-extension.ts");
  writeFileSync(file, `const WORDS: Record<string, number> = {\n${words}\n};\nexport default function (pi: any) {\n  pi.registerCommand("count-words", { description: \`\${Object.keys(WORDS).length} words\`, handler: async () => {} });\n}\n`);
  return file;
}

test("a TypeScript extension's transpiled modules are cached in pig's cache folder, not in ~/.bun", async () => {
  const w = await world();
  const home = w.env.HOME!;
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["-e", largeExtension(w.cwd)] }));
  const listed = await client.request({ type: "get_commands" });
  const commands = (listed.data as { commands: { name: string; description?: string }[] }).commands;
  expect(commands.find((c) => c.name === "count-words")?.description).toBe("6000 words");
  expect(await client.close()).toBe(0);
  expect(existsSync(join(home, ".bun"))).toBe(false);
  const cache = join(home, ".cache", "pig", "transpiler");
  expect(existsSync(cache) ? readdirSync(cache).length : 0).toBeGreaterThan(0);
});
