/**
 * What each hook changes at the agent, with a scripted model: the input funnel's order, the
 * run's system prompt and custom messages, a call's context and request, tool calls and results,
 * finished messages, and the session operations a hook may cancel or supply.
 */
import { describe, expect, test } from "bun:test";
import type { CommandPort } from "../../src/agent/command-port.ts";
import type { PigEvent } from "../../src/agent/events.ts";
import { NO_HOOKS, type AgentHooks } from "../../src/agent/hooks.ts";
import type { StreamFunction } from "../../src/ai/types.ts";
import type { AgentMessage, CompactionEntry, CustomMessageEntry, MessageEntry } from "../../src/session/format.ts";
import { makeSession, scripted, tool, until } from "../helpers/scripted-session.ts";

function hooks(overrides: Partial<AgentHooks>): AgentHooks {
  return { ...NO_HOOKS, ...overrides };
}

const texts = (messages: readonly AgentMessage[]) =>
  messages.flatMap((m) => (m.role === "user" || m.role === "custom" ? [JSON.stringify((m as { content: unknown }).content)] : []));

const errors = (events: PigEvent[]) => events.filter((e) => e.type === "extension_error");

describe("the input funnel", () => {
  test("a command runs first, then the input hook sees the typed text, then templates are expanded", async () => {
    const order: string[] = [];
    const commands: CommandPort = {
      match: (text) => (text.startsWith("/ext") ? async () => void order.push(`command:${text}`) : undefined),
    };
    const { session, seen } = makeSession([{ text: "ok" }], [], {
      more: {
        commands,
        expandInput: (text) => (order.push(`expand:${text}`), text.replace("/tpl", "expanded template")),
        hooks: hooks({
          input: async (event) => {
            order.push(`input:${event.text}:${event.source}`);
            return { action: "continue" };
          },
        }),
      },
    });
    await session.submit("/ext args", { source: "rpc" });
    expect(order).toEqual(["command:/ext args"]);
    expect(seen).toHaveLength(0);
    await session.submit("/tpl", { source: "interactive" });
    expect(order.slice(1)).toEqual(["input:/tpl:interactive", "expand:/tpl"]);
    expect(JSON.stringify(seen[0]!.messages.at(-1))).toContain("expanded template");
  });

  test("transform rewrites the text before expansion; handled sends nothing", async () => {
    const { session, seen, store } = makeSession([{ text: "ok" }], [], {
      more: {
        expandInput: (text) => text.toUpperCase(),
        hooks: hooks({
          input: async (event) => (event.text === "skip" ? { action: "handled" } : { action: "transform", text: `${event.text} (rewritten)` }),
        }),
      },
    });
    let accepted = 0;
    await session.submit("skip", { source: "interactive", onAccepted: () => accepted++ });
    expect(seen).toHaveLength(0);
    expect(accepted).toBe(1);
    await session.submit("hello", { source: "interactive" });
    expect(texts(session.messages)).toEqual([JSON.stringify([{ type: "text", text: "HELLO (REWRITTEN)" }])]);
    // The title is still made of what was typed.
    const user = store.getBranch().find((e) => e.type === "message" && (e as MessageEntry).message.role === "user") as MessageEntry;
    expect((user.message as { typedText?: string }).typedText).toBe("hello");
  });

  test("a literal input skips the command port and expansion; attached text comes first", async () => {
    let matched = 0;
    const { session } = makeSession([{ text: "ok" }], [], {
      more: {
        commands: { match: () => (matched++, async () => undefined) },
        expandInput: () => "EXPANDED",
      },
    });
    await session.submit("/name as typed", { source: "interactive", literal: true, prefix: "<file>x</file>\n" });
    expect(matched).toBe(0);
    expect(texts(session.messages)).toEqual([JSON.stringify([{ type: "text", text: "<file>x</file>\n/name as typed" }])]);
  });

  test("while a run goes, input is queued as the caller asked, and refused without a behaviour", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const seenBehaviour: (string | undefined)[] = [];
    const { session } = makeSession([{ text: "first", gate }, { text: "second" }], [], {
      more: { hooks: hooks({ input: async (e) => (seenBehaviour.push(e.streamingBehavior), { action: "continue" }) }) },
    });
    const run = session.submit("go", { source: "interactive" });
    await until(() => session.isStreaming);
    await expect(session.submit("no behaviour", { source: "rpc" })).rejects.toThrow("Agent is already processing");
    await session.submit("later", { source: "rpc", streamingBehavior: "followUp" });
    expect(session.followUps.texts).toEqual(["later"]);
    open();
    await run;
    expect(seenBehaviour).toEqual([undefined, undefined, "followUp"]);
  });
});

describe("before_agent_start", () => {
  test("its messages follow the user message and are stored; its system prompt holds for that run only", async () => {
    const prompts: string[] = [];
    let calls = 0;
    const { session, seen, store } = makeSession([{ text: "one" }, { text: "two" }], [], {
      more: {
        hooks: hooks({
          beforeAgentStart: async (event) => {
            prompts.push(event.systemPrompt);
            return calls++ === 0 ? { systemPrompt: "HOOK PROMPT", messages: [{ role: "custom", customType: "note", content: "from hook", display: true }] } : undefined;
          },
        }),
      },
    });
    await session.prompt("first");
    await session.prompt("second");
    expect(seen.map((c) => c.systemPrompt)).toEqual(["HOOK PROMPT", "system"]);
    expect(prompts).toEqual(["system", "system"]);
    const roles = session.messages.map((m) => m.role);
    expect(roles.slice(0, 4)).toEqual(["system", "user", "custom", "assistant"]);
    const custom = store.getBranch().find((e) => e.type === "custom_message") as CustomMessageEntry;
    expect(custom.customType).toBe("note");
  });
});

describe("context and provider requests", () => {
  test("context gets the messages without system ones; its answer is sent for that call only", async () => {
    const given: string[][] = [];
    const { session, seen } = makeSession([{ text: "a" }, { text: "b" }], [], {
      more: {
        hooks: hooks({
          context: async (messages) => {
            given.push(messages.map((m) => m.role));
            return messages.length === 1 ? [{ role: "user", content: [{ type: "text", text: "REPLACED" }], timestamp: 1 }] : undefined;
          },
        }),
      },
    });
    await session.prompt("one");
    await session.prompt("two");
    expect(given).toEqual([["user"], ["user", "assistant", "user"]]);
    expect(JSON.stringify(seen[0]!.messages)).toContain("REPLACED");
    expect(JSON.stringify(seen[1]!.messages)).toContain("one");
    expect(texts(session.messages)).toEqual([JSON.stringify([{ type: "text", text: "one" }]), JSON.stringify([{ type: "text", text: "two" }])]);
  });

  test("the request options carry the payload and response hooks", async () => {
    const told: unknown[] = [];
    const { stream: inner } = scripted([{ text: "ok" }]);
    const stream: StreamFunction = async function* (model, context, options) {
      told.push(await options.onPayload?.({ body: 1 }));
      await options.onResponse?.({ status: 200, headers: { "x-a": "b" } });
      yield* inner(model, context, options);
    };
    const { session } = makeSession([], [], {
      more: {
        streamFor: () => stream,
        hooks: hooks({
          beforeProviderRequest: async (payload) => ({ replaced: payload }),
          afterProviderResponse: async (response) => void told.push(response),
        }),
      },
    });
    await session.prompt("hi");
    expect(told).toEqual([{ replaced: { body: 1 } }, { status: 200, headers: { "x-a": "b" } }]);
  });
});

describe("tool calls and results", () => {
  const echo = tool("echo", async (args) => `echo ${String(args.ms)}`);

  test("a blocked call gets the reason (or the default) as its error; a throwing hook blocks with its message", async () => {
    const calls = [
      { id: "a", name: "echo", arguments: { ms: 1 } },
      { id: "b", name: "echo", arguments: { ms: 2 } },
      { id: "c", name: "echo", arguments: { ms: 3 } },
    ];
    const { session } = makeSession([{ calls }, { text: "done" }], [echo], {
      more: {
        hooks: hooks({
          toolCall: async (event) => {
            if (event.toolCallId === "a") return { block: true, reason: "not a" };
            if (event.toolCallId === "b") return { block: true };
            throw new Error("hook broke");
          },
        }),
      },
    });
    await session.prompt("go");
    const results = session.messages.filter((m) => m.role === "toolResult") as { content: { text: string }[]; isError: boolean }[];
    expect(results.map((r) => [r.content[0]!.text, r.isError])).toEqual([
      ["not a", true],
      ["Tool execution was blocked", true],
      ["hook broke", true],
    ]);
  });

  test("arguments edited in place reach execute; a result patch replaces content, details and isError, errors included", async () => {
    const failing = tool("fail", async () => {
      throw new Error("boom");
    });
    const calls = [
      { id: "a", name: "echo", arguments: { ms: 1 } },
      { id: "b", name: "fail", arguments: {} },
    ];
    const { session, events } = makeSession([{ calls }, { text: "done" }], [echo, failing], {
      more: {
        hooks: hooks({
          toolCall: async (event) => {
            if (event.toolName === "echo") event.input.ms = 42;
            return undefined;
          },
          toolResult: async (event) =>
            event.isError ? { isError: false, content: [{ type: "text", text: `recovered from ${JSON.stringify(event.content)}` }] } : { details: { seen: true } },
        }),
      },
    });
    await session.prompt("go");
    const results = session.messages.filter((m) => m.role === "toolResult") as { content: { text: string }[]; isError: boolean; details?: unknown }[];
    expect(results[0]!.content[0]!.text).toBe("echo 42");
    expect(results[0]!.details).toEqual({ seen: true });
    expect(results[1]!.isError).toBe(false);
    expect(results[1]!.content[0]!.text).toContain("recovered from");
    const ends = events.filter((e) => e.type === "tool_execution_end") as { isError: boolean }[];
    expect(ends.map((e) => e.isError)).toEqual([false, false]);
  });
});

describe("message_end", () => {
  test("a replacement of the same role is written into the message the file and listeners get; another role is refused and reported", async () => {
    const { session, events, store } = makeSession([{ text: "original" }], [], {
      more: {
        hooks: hooks({
          messageEnd: async (message) => {
            if (message.role === "assistant") return { ...message, content: [{ type: "text", text: "replaced" }] } as AgentMessage;
            if (message.role === "user") return { role: "custom", customType: "x", content: "no", display: true, timestamp: 1 } as AgentMessage;
            return undefined;
          },
        }),
      },
    });
    await session.prompt("hi");
    const ended = events.filter((e) => e.type === "message_end").map((e) => (e as { message: AgentMessage }).message.role);
    expect(ended).toEqual(["system", "user", "assistant"]);
    expect(JSON.stringify(session.lastAssistant()!.content)).toContain("replaced");
    const stored = store.getBranch().filter((e) => e.type === "message").map((e) => JSON.stringify((e as MessageEntry).message));
    expect(stored.some((line) => line.includes("replaced"))).toBe(true);
    expect(stored.some((line) => line.includes("original"))).toBe(false);
    expect(errors(events).map((e) => (e as { error: string }).error)).toEqual(["message_end handlers must return a message with the same role"]);
  });
});

describe("a hook that throws", () => {
  test("counts as its default and is reported as an extension error", async () => {
    const { session, events, seen } = makeSession([{ text: "ok" }], [], {
      more: {
        hooks: hooks({
          input: async () => {
            throw new Error("input broke");
          },
          context: async () => {
            throw new Error("context broke");
          },
        }),
      },
    });
    await session.submit("hello", { source: "interactive" });
    expect(seen).toHaveLength(1);
    expect(errors(events).map((e) => [(e as { event: string }).event, (e as { error: string }).error])).toEqual([
      ["input", "input broke"],
      ["context", "context broke"],
    ]);
  });
});

describe("session operations", () => {
  const compaction = { enabled: false, reserveTokens: 100, keepRecentTokens: 1 };

  test("compaction: a cancel stops it; a supplied compaction is stored as made by a hook", async () => {
    let cancel = true;
    const { session, store } = makeSession([{ text: "a" }, { text: "b" }], [], {
      more: {
        compaction,
        hooks: hooks({
          sessionBeforeCompact: async (event) => {
            expect(event.reason).toBe("manual");
            if (cancel) return { cancel: true };
            return { compaction: { summary: "HOOK SUMMARY", firstKeptEntryId: null, tokensBefore: 7 } };
          },
        }),
      },
    });
    await session.prompt("one");
    await session.prompt("two");
    await expect(session.compact()).rejects.toThrow("Compaction cancelled");
    cancel = false;
    const result = await session.compact();
    expect(result.summary).toBe("HOOK SUMMARY");
    const entry = store.getBranch().find((e) => e.type === "compaction") as CompactionEntry;
    expect(entry.fromHook).toBe(true);
    expect(entry.summary).toBe("HOOK SUMMARY");
  });

  test("tree: a cancel leaves the leaf; a supplied summary is used when one was asked for", async () => {
    let cancel = true;
    const { session, store } = makeSession([{ text: "a" }, { text: "b" }], [], {
      more: {
        hooks: hooks({
          sessionBeforeTree: async (event) => {
            expect(event.preparation.userWantsSummary).toBe(true);
            return cancel ? { cancel: true } : { summary: { summary: "HOOK BRANCH" }, label: "from hook" };
          },
        }),
      },
    });
    await session.prompt("one");
    const firstAnswer = store.leafId!;
    await session.prompt("two");
    const leaf = store.leafId;
    expect(await session.navigateTree(firstAnswer, { summarize: true })).toEqual({ cancelled: true });
    expect(store.leafId).toBe(leaf);
    cancel = false;
    const moved = await session.navigateTree(firstAnswer, { summarize: true });
    expect(moved.cancelled).toBe(false);
    const summary = store.getEntry(moved.summaryEntryId!) as { summary: string; fromHook?: boolean };
    expect(summary.summary).toBe("HOOK BRANCH");
    expect(summary.fromHook).toBe(true);
    expect(store.tree.labelOf(moved.summaryEntryId!)?.label).toBe("from hook");
  });

  test("switch and fork can be cancelled; the session stays as it was", async () => {
    const asked: string[] = [];
    const { session, store } = makeSession([{ text: "a" }], [], {
      more: {
        hooks: hooks({
          sessionBeforeSwitch: async (event) => (asked.push(`switch:${event.reason}`), { cancel: true }),
          sessionBeforeFork: async (event) => (asked.push(`fork:${event.position}`), { cancel: true }),
        }),
      },
    });
    await session.prompt("one");
    const user = store.getBranch().find((e) => e.type === "message" && (e as MessageEntry).message.role === "user")!;
    expect(await session.newSession()).toEqual({ cancelled: true });
    expect(await session.switchSession("/nowhere.jsonl")).toEqual({ cancelled: true });
    expect(await session.fork(user.id)).toEqual({ text: "", cancelled: true });
    expect(await session.clone()).toEqual({ cancelled: true });
    expect(session.store).toBe(store);
    expect(asked).toEqual(["switch:new", "switch:resume", "fork:before", "fork:at"]);
  });

  test("user bash: a supplied result is recorded instead of running the command", async () => {
    const { session } = makeSession([], [], {
      more: {
        hooks: hooks({
          userBash: async (event) => ({ result: { output: `ran elsewhere: ${event.command}`, exitCode: 0, cancelled: false, truncated: false } }),
        }),
      },
    });
    const result = await session.bash("exit 3");
    expect(result.output).toBe("ran elsewhere: exit 3");
    expect(result.exitCode).toBe(0);
    expect(session.messages.at(-1)!.role).toBe("bashExecution");
  });
});

describe("abort and pending hooks", () => {
  test("abort ends an input hook that is still deciding (it gets the signal), and nothing runs", async () => {
    let asked = false;
    const { session, seen } = makeSession([{ text: "never" }], [], {
      more: {
        hooks: hooks({
          input: (_event, signal) =>
            new Promise((resolve) => {
              asked = true;
              signal?.addEventListener("abort", () => resolve({ action: "continue" }), { once: true });
            }),
        }),
      },
    });
    let accepted = 0;
    const submitted = session.submit("hello", { source: "interactive", onAccepted: () => accepted++ });
    await until(() => asked);
    await session.abort();
    await submitted;
    expect(seen).toHaveLength(0);
    expect(accepted).toBe(1);
  });

  test("abort during before_agent_start ends it; the run does not start", async () => {
    let asked = false;
    const { session, seen } = makeSession([{ text: "never" }], [], {
      more: {
        hooks: hooks({
          beforeAgentStart: (_event, signal) =>
            new Promise((resolve) => {
              asked = true;
              signal?.addEventListener("abort", () => resolve(undefined), { once: true });
            }),
        }),
      },
    });
    const submitted = session.submit("hello", { source: "interactive" });
    await until(() => asked);
    await session.abort();
    await submitted;
    expect(seen).toHaveLength(0);
  });
});
