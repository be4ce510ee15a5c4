/** Replaying the prompt and tool loadout a transcript carries, and the message that changes it. */
import { describe, expect, test } from "bun:test";
import type { AgentMessage, SystemMessage, ToolDeclaration } from "../../src/session/format.ts";
import { currentSystemAfter, currentSystemMessage, loadoutUpdate, sectionPatch, systemPromptText, systemTokensSinceAnswer, toolChanges } from "../../src/session/system-messages.ts";

const tool = (name: string, description = `${name} things`): ToolDeclaration => ({ name, description, parameters: { type: "object", properties: {} } });
const system = (fields: Partial<SystemMessage>, timestamp = 1): SystemMessage => ({ role: "system", content: "", timestamp, ...fields });
const user = (text: string): AgentMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 2 });

describe("replaying system messages", () => {
  test("replayed as a context grows, from what a shorter prefix replayed to: the same as a replay of the whole", () => {
    const grown: AgentMessage[] = [
      user("one"),
      system({ sections: { preamble: "P", cwd: "<cwd>/w</cwd>" }, toolsAdded: [tool("read")] }, 10),
      user("two"),
      user("three"),
      system({ sections: { cwd: "<cwd>/x</cwd>" }, toolsAdded: [tool("bash")] }, 20),
      system({ sections: { cwd: null }, toolsRemoved: [{ name: "read" }], replace: true }, 30),
      user("four"),
    ];
    // Every step from every earlier answer (each prefix length to each longer one).
    for (let from = 0; from <= grown.length; from++) {
      const seen = { length: from, message: currentSystemMessage(grown.slice(0, from)) };
      for (let to = from; to <= grown.length; to++) {
        const context = grown.slice(0, to);
        expect([from, to, currentSystemAfter(seen, context)]).toEqual([from, to, { length: to, message: currentSystemMessage(context) }]);
      }
    }
    // Nothing seen yet, or a prefix longer than the context (messages were dropped): the whole replay.
    expect(currentSystemAfter(undefined, grown)).toEqual({ length: grown.length, message: currentSystemMessage(grown) });
    expect(currentSystemAfter({ length: 9, message: undefined }, grown.slice(0, 3))).toEqual({ length: 3, message: currentSystemMessage(grown.slice(0, 3)) });
  });

  test("the prompt text of a message asked for again is the same; each message has its own", () => {
    const a: SystemMessage = { role: "system", content: "A", sections: { cwd: "<cwd>/a</cwd>" }, timestamp: 1 };
    const b: SystemMessage = { role: "system", content: "A", sections: { cwd: "<cwd>/b</cwd>" }, timestamp: 1 };
    for (let i = 0; i < 2; i++) {
      expect(systemPromptText(a)).toBe("A\n\n<cwd>/a</cwd>");
      expect(systemPromptText(b)).toBe("A\n\n<cwd>/b</cwd>");
    }
  });

  test("none: no prompt, no tools", () => {
    expect(currentSystemMessage([user("hi")])).toBeUndefined();
    expect(systemPromptText(undefined)).toBe("");
  });

  test("sections are patched by name and keep their first place; null removes one; tools are removed, then added", () => {
    const messages: AgentMessage[] = [
      system({ sections: { preamble: "P", tools: "<tools>a</tools>", cwd: "<cwd>/w</cwd>" }, toolsAdded: [tool("read"), tool("bash")] }, 10),
      user("one"),
      system({ sections: { tools: "<tools>b</tools>", skills: "<skills>s</skills>", cwd: null }, toolsRemoved: [{ name: "read" }], toolsAdded: [tool("grep")] }, 20),
    ];
    const current = currentSystemMessage(messages)!;
    expect(current).toEqual({
      role: "system",
      content: "",
      sections: { preamble: "P", tools: "<tools>b</tools>", skills: "<skills>s</skills>" },
      toolsAdded: [tool("bash"), tool("grep")],
      timestamp: 10,
    });
    expect(systemPromptText(current)).toBe("P\n\n<tools>b</tools>\n\n<skills>s</skills>");
  });

  test("content adds instructions before the sections; a tool declared again replaces the earlier declaration", () => {
    const current = currentSystemMessage([
      system({ content: "Base.", sections: { cwd: "<cwd>/w</cwd>" }, toolsAdded: [tool("read", "old")] }),
      system({ content: [{ type: "text", text: "Also this." }], toolsAdded: [tool("read", "new")] }),
    ])!;
    expect(systemPromptText(current)).toBe("Base.\n\nAlso this.\n\n<cwd>/w</cwd>");
    expect(current.toolsAdded).toEqual([tool("read", "new")]);
  });

  test("replace: true starts again from nothing", () => {
    const current = currentSystemMessage([
      system({ content: "Old.", sections: { a: "A" }, toolsAdded: [tool("read")] }, 1),
      system({ replace: true, sections: { b: "B" }, toolsAdded: [tool("ls")] }, 5),
    ])!;
    expect(current).toEqual({ role: "system", content: "", sections: { b: "B" }, toolsAdded: [tool("ls")], timestamp: 5 });
  });
});

describe("system messages a file holds in odd shapes", () => {
  test("one whose fields are not the format's is left out of the replay; a null content reads as empty", () => {
    const bad = [
      { role: "system", content: "", toolsAdded: [null], timestamp: 1 },
      { role: "system", content: [null], timestamp: 1 },
      { role: "system", content: "", toolsAdded: { a: 1 }, timestamp: 1 },
      { role: "system", content: "", toolsRemoved: [null], timestamp: 1 },
      { role: "system", content: "", sections: "ab", timestamp: 1 },
    ] as unknown as AgentMessage[];
    const good = system({ sections: { preamble: "P" }, toolsAdded: [tool("read")] });
    const current = currentSystemMessage([good, ...bad, { role: "system", content: null, sections: { cwd: "C" }, timestamp: 2 } as unknown as AgentMessage])!;
    expect(systemPromptText(current)).toBe("P\n\nC");
    expect(current.toolsAdded).toEqual([tool("read")]);
    expect(() => loadoutUpdate([...bad], { preamble: "P" }, [tool("read")], 3)).not.toThrow();
  });
});

describe("changing the loadout", () => {
  test("the prompt and tools changed since the latest answer are counted apart (that answer's usage has none of them)", () => {
    const patch = system({ sections: { rules: "x".repeat(400) }, toolsAdded: [tool("grep")] });
    const answer = { role: "assistant", content: [], timestamp: 2 } as unknown as AgentMessage;
    expect(systemTokensSinceAnswer([system({ sections: { a: "y".repeat(4000) } }), user("q"), answer, patch, user("next")])).toBe(
      100 + Math.ceil(JSON.stringify([tool("grep")]).length / 4),
    );
    expect(systemTokensSinceAnswer([patch, user("q"), answer, user("next")])).toBe(0);
  });

  test("sectionPatch names what changed and what went away; nothing for equal sections", () => {
    expect(sectionPatch({ a: "1", b: "2" }, { a: "1", b: "3", c: "4" })).toEqual({ b: "3", c: "4" });
    expect(sectionPatch({ a: "1", b: "2" }, { a: "1" })).toEqual({ b: null });
    expect(sectionPatch({ a: "1" }, { a: "1" })).toBeUndefined();
  });

  test("toolChanges: a tool declared differently is removed and added again", () => {
    expect(toolChanges([tool("read"), tool("bash")], [tool("read", "changed"), tool("ls")])).toEqual({
      toolsAdded: [tool("read", "changed"), tool("ls")],
      toolsRemoved: [{ name: "read" }, { name: "bash" }],
    });
    expect(toolChanges([tool("read")], [tool("read")])).toEqual({ toolsAdded: [], toolsRemoved: [] });
  });

  test("a context without system messages gets everything, in Pi's key order", () => {
    const update = loadoutUpdate([user("old session")], { preamble: "P", cwd: "<cwd>/w</cwd>" }, [tool("read")], 42)!;
    expect(update).toEqual({ role: "system", content: "", sections: { preamble: "P", cwd: "<cwd>/w</cwd>" }, timestamp: 42, toolsAdded: [tool("read")] });
    expect(Object.keys(update)).toEqual(["role", "content", "sections", "timestamp", "toolsAdded"]);
  });

  test("an unchanged loadout needs no message; a changed one gets only the difference", () => {
    const declared: AgentMessage[] = [system({ sections: { preamble: "P", cwd: "<cwd>/w</cwd>" }, toolsAdded: [tool("read"), tool("bash")] })];
    expect(loadoutUpdate(declared, { preamble: "P", cwd: "<cwd>/w</cwd>" }, [tool("read"), tool("bash")], 9)).toBeUndefined();
    expect(loadoutUpdate(declared, { preamble: "P", cwd: "<cwd>/x</cwd>" }, [tool("read")], 9)).toEqual({
      role: "system",
      content: "",
      sections: { cwd: "<cwd>/x</cwd>" },
      timestamp: 9,
      toolsRemoved: [{ name: "bash" }],
    });
  });
});
