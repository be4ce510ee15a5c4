/**
 * The loadout check before every request of a run: found unchanged without being made again while
 * the tools and resources stay, and still declaring a tool a running tool activates, before the
 * next request.
 */
import { describe, expect, test } from "bun:test";
import type { SystemMessage } from "../../src/session/format.ts";
import { sectionsWhileUnchanged } from "../../src/runtime/session-stage.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { makeSession, tool } from "../helpers/scripted-session.ts";

const names = (tools: readonly AnyTool[]) => tools.map((t) => t.name).join(",");

describe("sectionsWhileUnchanged", () => {
  test("gives the same sections while the tools and resources are the same objects, and makes them again when either changes", () => {
    const made: string[] = [];
    let resources = { version: 1 };
    const sections = sectionsWhileUnchanged(
      (tools) => {
        made.push(names(tools));
        return { preamble: "system", tools: names(tools) };
      },
      () => resources,
    );
    const a = tool("a", async () => "a");
    const b = tool("b", async () => "b");
    const first = sections([a]);
    expect(sections([a])).toBe(first);
    expect(made).toEqual(["a"]);
    expect(sections([a, b])).toEqual({ preamble: "system", tools: "a,b" });
    // A tool replaced by another object of the same name is another tool.
    expect(sections([a, { ...b }])).toEqual({ preamble: "system", tools: "a,b" });
    resources = { version: 2 };
    sections([a, b]);
    expect(made).toEqual(["a", "a,b", "a,b", "a,b"]);
  });
});

describe("the loadout check of each request", () => {
  test("a tool activated by a running tool is declared before the next request; unchanged turns declare nothing and make no sections", async () => {
    let made = 0;
    const extra = tool("extra", async () => "extra ran");
    let activate: () => void = () => undefined;
    const activator = tool("activate", async () => {
      activate();
      return "activated";
    });
    const { session, seen } = makeSession(
      [
        { calls: [{ id: "1", name: "activate", arguments: {} }] },
        { calls: [{ id: "2", name: "extra", arguments: {} }] },
        { calls: [{ id: "3", name: "extra", arguments: {} }] },
        { text: "done" },
      ],
      [activator],
      {
        more: {
          systemSections: sectionsWhileUnchanged(
            (tools) => {
              made++;
              return { preamble: "system", tools: names(tools) };
            },
            () => "resources",
          ),
        },
      },
    );
    activate = () => {
      session.toolRegistry.register(extra, { kind: "builtin" });
    };
    await session.prompt("go");
    expect(seen.map((context) => (context.tools ?? []).map((t) => t.name))).toEqual([["activate"], ["activate", "extra"], ["activate", "extra"], ["activate", "extra"]]);
    expect(seen.map((context) => context.systemPrompt)).toEqual(["system\n\nactivate", ...Array(3).fill("system\n\nactivate,extra")]);
    const declared = session.messages.filter((m): m is SystemMessage => m.role === "system");
    expect(declared).toHaveLength(2);
    expect(declared[1]).toMatchObject({ sections: { tools: "activate,extra" }, toolsAdded: [{ name: "extra" }] });
    // Once for each set of tools: the run's start, and the request after the activation.
    expect(made).toBe(2);
  });
});
