/**
 * Reloading extensions for the same session (`/reload`, `ctx.reload()`): the running ones hear
 * session_shutdown {reason:"reload"} and stop, they are found and started again, their new
 * registrations replace the old in the tool, command and flag registries, and they hear
 * session_start {reason:"reload"}. The session stays the same object throughout.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { ModelRegistry } from "../../../src/ai/registry.ts";
import { startExtensions } from "../../../src/runtime/extensions-stage.ts";
import type { ExtensionRegistrations } from "../../../src/runtime/run-extensions.ts";
import { makeSession, until } from "../../helpers/scripted-session.ts";
import { tempDir } from "../../helpers/tmp.ts";

const SOURCE = readFileSync(join(import.meta.dir, "..", "..", "fixtures", "extensions", "features", "reloadable.ts"), "utf8");
const running: ExtensionRegistrations[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.extensions.shutdown()));
});

async function setup() {
  const cwd = tempDir();
  const dir = tempDir();
  const file = join(dir, "reloadable.ts");
  const write = (version: string) => writeFileSync(file, SOURCE.replace('const VERSION = "v1";', `const VERSION = "${version}";`));
  write("v1");
  const agentDir = tempDir();
  const started = await startExtensions({
    choice: { paths: [file], mode: "print" },
    cwd,
    agentDir,
    trusted: false,
    userSettings: {},
    projectSettings: {},
    interactive: false,
    env: process.env,
    models: new ModelRegistry({ agentDir, env: {} }),
  });
  running.push(started);
  // As the runtime builds it: the extensions' tools known as theirs.
  const tools = new ToolRegistry(started.tools, started.tools.map((t) => t.tool));
  const { session } = makeSession([], [], { more: { hooks: started.hooks, tools } });
  await started.attach(session);
  const log = () => (existsSync(join(cwd, "reload.log")) ? readFileSync(join(cwd, "reload.log"), "utf8").trim().split("\n") : []);
  const toolText = async (name: string) => {
    const result = await session.toolRegistry.get(name)!.tool.execute("c", {}, new AbortController().signal, () => {}, { cwd, agentDir, model: undefined } as never);
    return (result.content[0] as { text: string }).text;
  };
  return { started, session, write, log, toolText };
}

describe("reloading extensions", () => {
  test("shutdown(reload), new processes, registrations replaced, session_start(reload)", async () => {
    const { started, session, write, log, toolText } = await setup();
    const ext = started.extensions;
    expect(log()).toEqual(["v1 start startup"]);
    const before = ext.status()[0]!;
    expect(await toolText("shared")).toBe("shared v1");
    expect(ext.registries.commands.get("cmd_v1")).toBeDefined();

    write("v2");
    const result = await ext.reload();
    expect(result.loadErrors).toEqual([]);
    expect(result.loaded).toHaveLength(1);
    expect(log()).toEqual(["v1 start startup", "v1 shutdown reload", "v2 start reload"]);

    const after = ext.status()[0]!;
    expect(after.state).toBe("running");
    expect(after.pid).not.toBe(before.pid);
    // The new generation's registrations replaced the old ones.
    const names = session.toolRegistry.all().map((t) => t.tool.name);
    expect(names).toContain("tool_v2");
    expect(names).not.toContain("tool_v1");
    expect(await toolText("shared")).toBe("shared v2");
    expect(session.toolRegistry.activeToolNames).toContain("tool_v2");
    expect(ext.registries.commands.get("cmd_v1")).toBeUndefined();
    expect(ext.registries.commands.get("cmd_v2")).toBeDefined();
    // One reload-me command, not one per generation.
    expect(ext.registries.commands.commands().filter((c) => c.name === "reload-me")).toHaveLength(1);
  }, 60_000);

  test("ctx.reload() from an extension command reloads, and the command does not fail", async () => {
    const { started, session, write, log } = await setup();
    const errors: unknown[] = [];
    session.subscribe((e) => {
      if (e.type === "extension_error") errors.push(e);
    });
    write("v2");
    const command = started.extensions.registries.commands.match("/reload-me");
    expect(command).toBeDefined();
    await command!.run({ ui: { hasUI: false } as never, hasUI: false });
    await until(() => log().includes("v2 start reload"));
    expect(log()).toEqual(["v1 start startup", "v1 reloading", "v1 shutdown reload", "v2 start reload"]);
    expect(errors).toEqual([]);
    expect(session.toolRegistry.get("tool_v2")).toBeDefined();
  }, 60_000);
});
