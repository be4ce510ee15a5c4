/**
 * A session with several branches, labels, tool calls, a retried failure and model and thinking
 * changes, as a day of work leaves it: the tree a `/tree` test walks. The file's last entry (the
 * leaf it opens at) is on the third branch.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistant, HEADER, iso, msg, user } from "./sessions.ts";

const call = (id: string, name: string, args: Record<string, unknown>) => ({ type: "toolCall", id, name, arguments: args });

function toolResult(toolCallId: string, toolName: string, text: string, isError = false) {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: Date.now() };
}

function entry(type: string, id: string, parentId: string | null, fields: Record<string, unknown>) {
  return { type, id, parentId, timestamp: iso(), ...fields };
}

/** The user messages of the tree, by the branch they start. */
export const BRANCHED_TEXTS = {
  first: "fix the off-by-one in src/range.ts",
  tests: "now add a test for the empty range",
  explain: "explain the fix instead",
  question: "what does this repository do?",
} as const;

/**
 * Writes the session to `<cwd>/branched.jsonl` and returns its path. The tree:
 *
 *   model, thinking (internal)
 *   ├─ user "what does this repository do?" → assistant            (branch 1)
 *   └─ user "fix the off-by-one…" [start] → read, bash (failed) → assistant
 *      ├─ user "now add a test…" → failed attempt, retried → assistant [tests-added]   (branch 2)
 *      └─ user "explain the fix instead" → model change → assistant                    (branch 3, the leaf)
 */
export function writeBranchedSession(cwd: string): string {
  const lines: object[] = [
    { ...HEADER, cwd },
    entry("model_change", "mc1", null, { provider: "fake", modelId: "fake-model" }),
    entry("thinking_level_change", "tl1", "mc1", { thinkingLevel: "off" }),
    msg("uq", "tl1", user(BRANCHED_TEXTS.question)),
    msg("aq", "uq", assistant("It is a tiny range library with one function.")),
    msg("u1", "tl1", user(BRANCHED_TEXTS.first)),
    msg("a1", "u1", { ...assistant(""), content: [call("c1", "read", { path: "src/range.ts" })], stopReason: "toolUse" }),
    msg("r1", "a1", toolResult("c1", "read", "export function range(n) { for (let i = 0; i < n - 1; i++) {} }")),
    msg("a2", "r1", { ...assistant(""), content: [call("c2", "bash", { command: "npm test" })], stopReason: "toolUse" }),
    msg("r2", "a2", toolResult("c2", "bash", "1 failing", true)),
    msg("a3", "r2", assistant("The loop stopped one short of the end; fixed the bound.")),
    msg("u2", "a3", user(BRANCHED_TEXTS.tests)),
    msg("a4", "u2", { ...assistant(""), content: [], stopReason: "error", errorMessage: "503 overloaded" }),
    msg("a5", "a4", assistant("Added test/range.test.ts for the empty range.")),
    msg("u3", "a3", user(BRANCHED_TEXTS.explain)),
    entry("model_change", "mc2", "u3", { provider: "fake", modelId: "fake-reasoner" }),
    msg("a6", "mc2", assistant("The bound was exclusive where it had to be inclusive.")),
    entry("label", "l1", "a6", { targetId: "u1", label: "start" }),
    entry("label", "l2", "l1", { targetId: "a5", label: "tests-added" }),
  ];
  const path = join(cwd, "branched.jsonl");
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}
