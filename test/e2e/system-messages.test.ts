/**
 * The prompt and tools carried in the session as system messages (Pi 0.87's format), through the
 * built binary over several runs: declared once, patched by name when the project's files or the
 * tools change, not written again when nothing changed, and what each request sends.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { sessionEntries } from "../helpers/interactive-pig.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

type Json = Record<string, unknown>;

function systemMessages(w: PigWorld): Json[] {
  return sessionEntries(w).flatMap((e) => (e.type === "message" && (e.message as Json).role === "system" ? [e.message as Json] : []));
}

function request(w: PigWorld, index: number): { system: string; tools: string[]; roles: string[] } {
  const body = w.llm.requests[index]!.body as { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
  return {
    system: String(body.messages[0]!.content),
    tools: (body.tools ?? []).map((t) => t.function.name),
    roles: body.messages.map((m) => m.role),
  };
}

describe("system messages over several runs", () => {
  test("declared once; a new AGENTS.md patches project_context alone; new tools patch the tool list; an unchanged run writes none", async () => {
    const w = await createWorld({ llm: { mode: "text" } });
    worlds.push(w);
    const run = async (args: string[]) => {
      const result = await w.run(args);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    };

    await run(["-p", "first"]);
    const [declared] = systemMessages(w);
    expect(Object.keys(declared!.sections as Json)).toEqual(["preamble", "tools", "rules", "docs", "cwd"]);
    expect((declared!.toolsAdded as Json[]).map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(request(w, 0).roles).toEqual(["system", "user"]);

    writeFileSync(join(w.cwd, "AGENTS.md"), "Project rule: tabs.");
    await run(["-c", "-p", "second"]);
    const patch = systemMessages(w)[1]!;
    expect(patch).toEqual({ role: "system", content: "", sections: { project_context: expect.stringContaining("Project rule: tabs.") }, timestamp: expect.any(Number) });
    // The request has one prompt, the sections replayed in order: a section new in a patch comes
    // last, after cwd (Pi 0.87 replays the same way), and the rest are as declared.
    const second = request(w, 1);
    expect(second.roles).toEqual(["system", "user", "assistant", "user"]);
    expect(second.system.startsWith(request(w, 0).system)).toBe(true);
    expect(second.system.slice(request(w, 0).system.length)).toStartWith("\n\n<project_context>\n");

    await run(["-c", "--tools", "read,grep,ls", "-p", "third"]);
    const tools = systemMessages(w)[2]!;
    expect((tools.toolsAdded as Json[]).map((t) => t.name)).toEqual(["grep", "ls"]);
    expect(tools.toolsRemoved).toEqual([{ name: "bash" }, { name: "edit" }, { name: "write" }]);
    // The tools section and the rules that depend on the tools are patched with them.
    expect(Object.keys(tools.sections as Json)).toEqual(["tools", "rules"]);
    expect(request(w, 2).tools).toEqual(["read", "grep", "ls"]);

    await run(["-c", "--tools", "read,grep,ls", "-p", "fourth"]);
    expect(systemMessages(w)).toHaveLength(3);
    expect(request(w, 3).tools).toEqual(["read", "grep", "ls"]);
    expect(request(w, 3).system).toBe(request(w, 2).system);
  });
});
