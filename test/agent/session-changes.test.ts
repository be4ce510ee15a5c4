/**
 * Every change a front end shows passes through the session and is told once, with its reason:
 * replacing the session, moving in the tree, compacting, the model, the level, the name.
 */
import { describe, expect, test } from "bun:test";
import type { SessionChangeReason } from "../../src/agent/events.ts";
import { NO_HOOKS } from "../../src/agent/hooks.ts";
import { makeSession, MODEL } from "../helpers/scripted-session.ts";

describe("session changes", () => {
  test("each operation tells its reason", async () => {
    const { session, store } = makeSession([{ text: "a" }, { text: "b" }], [], {
      more: {
        compaction: { enabled: false, reserveTokens: 100, keepRecentTokens: 1 },
        hooks: { ...NO_HOOKS, sessionBeforeCompact: async () => ({ compaction: { summary: "S", firstKeptEntryId: null, tokensBefore: 1 } }) },
      },
    });
    const reasons: SessionChangeReason[] = [];
    session.onSessionChange((change) => reasons.push(change.reason));
    await session.prompt("one");
    const answer = store.leafId!;
    await session.prompt("two");
    session.setModel({ ...MODEL, id: "thinker", reasoning: true });
    session.setThinkingLevel("high");
    session.setSessionName("named");
    await session.navigateTree(answer);
    await session.compact();
    await session.clone();
    await session.newSession();
    expect(reasons).toEqual(["model", "thinking_level", "session_name", "tree", "compaction", "clone", "new"]);
  });

  test("a level that does not change is not told", () => {
    const { session } = makeSession([]);
    const reasons: SessionChangeReason[] = [];
    session.onSessionChange((change) => reasons.push(change.reason));
    session.setThinkingLevel("off");
    expect(reasons).toEqual([]);
  });
});
