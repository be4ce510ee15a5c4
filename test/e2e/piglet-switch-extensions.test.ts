/**
 * Switching Piglets switches their extensions while pig runs (RPC `set_piglet`): the old ones
 * hear session_shutdown and go, the new ones start, hear session_start (both with reason
 * "reload") and their tools reach the next request — also in a run that started with no
 * extensions at all, which then starts its extension host.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import type { PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const worlds = extensionWorlds();

/** An extension with one tool that writes each session event it hears into `<cwd>/<name>.events`. */
const extension = (name: string) => `import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "typebox";
export default function (pi) {
  const note = (line) => appendFileSync(join(process.cwd(), "${name}.events"), line + "\\n");
  pi.on("session_start", (event) => note("start:" + event.reason));
  pi.on("session_shutdown", (event) => note("shutdown:" + event.reason));
  pi.registerTool({
    name: "${name}_tool",
    label: "${name}",
    description: "The ${name} extension's tool",
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: "${name}" }], details: {} };
    },
  });
}
`;

function world(): Promise<PigWorld> {
  return worlds.world(undefined, {
    agentFiles: {
      "ext/alpha.ts": extension("alpha"),
      "ext/beta.ts": extension("beta"),
      "piglets/a.md": "---\ndescription: with alpha\nextensions: [../ext/alpha.ts]\n---\n",
      "piglets/b.md": "---\ndescription: with beta\nextensions: [../ext/beta.ts]\n---\n",
      "piglets/bare.md": "---\ndescription: with none\nextensions: []\n---\n",
    },
  });
}

type Json = Record<string, any>;
const toolsOf = (w: PigWorld, index: number): string[] => ((w.llm.requests[index]!.body as Json).tools ?? []).map((t: Json) => t.function.name);
const events = (w: PigWorld, name: string): string[] => {
  const file = join(w.cwd, `${name}.events`);
  return existsSync(file) ? readFileSync(file, "utf8").trimEnd().split("\n") : [];
};

test("a run started without extensions starts them when switching to a Piglet that names some, and stops them again", async () => {
  const w = await world();
  const client = worlds.track(new RpcClient({ cwd: w.cwd, env: w.env }));
  await client.promptAndWait("before");
  expect(toolsOf(w, 0)).not.toContain("alpha_tool");

  const toA = await client.request({ type: "set_piglet", name: "a" });
  expect(toA).toMatchObject({ success: true, data: { name: "a", extensions: [join(w.agentDir, "ext", "alpha.ts")], needsRestart: [] } });
  expect(events(w, "alpha")).toEqual(["start:reload"]);
  await client.promptAndWait("with alpha");
  expect(toolsOf(w, 1)).toContain("alpha_tool");
  expect(toolsOf(w, 1)).toContain("read");

  const toBare = await client.request({ type: "set_piglet", name: "bare" });
  expect(toBare).toMatchObject({ success: true, data: { name: "bare", extensions: [] } });
  expect(events(w, "alpha")).toEqual(["start:reload", "shutdown:reload"]);
  await client.promptAndWait("without");
  expect(toolsOf(w, 2)).not.toContain("alpha_tool");
  expect(toolsOf(w, 2)).toContain("read");
  expect(await client.close()).toBe(0);
});

test("from one Piglet's extensions to another's: the first goes, the second comes, and it stays over a later switch back", async () => {
  const w = await world();
  const client = worlds.track(new RpcClient({ cwd: w.cwd, env: w.env, args: ["--piglet", "a"] }));
  await client.promptAndWait("as a");
  expect(toolsOf(w, 0)).toContain("alpha_tool");
  expect(events(w, "alpha")).toEqual(["start:startup"]);

  const toB = await client.request({ type: "set_piglet", name: "b" });
  expect(toB).toMatchObject({ success: true, data: { name: "b", extensions: [join(w.agentDir, "ext", "beta.ts")] } });
  expect(events(w, "alpha")).toEqual(["start:startup", "shutdown:reload"]);
  expect(events(w, "beta")).toEqual(["start:reload"]);
  await client.promptAndWait("as b");
  expect(toolsOf(w, 1)).toContain("beta_tool");
  expect(toolsOf(w, 1)).not.toContain("alpha_tool");

  // The same Piglet again changes nothing in the extensions.
  const again = await client.request({ type: "set_piglet", name: "b" });
  expect(again.success).toBe(true);
  expect((again.data as Json).extensions).toBeUndefined();
  expect(events(w, "beta")).toEqual(["start:reload"]);

  const back = await client.request({ type: "set_piglet", name: "a" });
  expect(back).toMatchObject({ success: true, data: { extensions: [join(w.agentDir, "ext", "alpha.ts")] } });
  await client.promptAndWait("as a again");
  expect(toolsOf(w, 2)).toContain("alpha_tool");
  expect(toolsOf(w, 2)).not.toContain("beta_tool");
  expect(await client.close()).toBe(0);
  // Quitting ends the extensions that run then.
  expect(events(w, "beta")).toEqual(["start:reload", "shutdown:reload"]);
  expect(events(w, "alpha").at(-1)).toBe("shutdown:quit");
});
