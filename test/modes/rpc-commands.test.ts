/** RPC command shapes: the commands added up to Pi 0.87.1 parse, wrong fields are named. */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { CommandSchema, COMMAND_TYPES } from "../../src/modes/rpc-commands.ts";
import { describeIssues } from "../../src/session/format.ts";

const parse = (raw: unknown) => v.safeParse(CommandSchema, raw);

describe("CommandSchema", () => {
  test("Pi 0.87.1's commands are known", () => {
    for (const type of ["clear_queue", "get_available_thinking_levels", "get_entries", "get_tree"]) expect(COMMAND_TYPES.has(type)).toBe(true);
  });

  test("the new fields parse: get_entries since, bash excludeFromContext, the max level", () => {
    expect(parse({ type: "get_entries", id: "1", since: "abcd1234" })).toMatchObject({ success: true, output: { since: "abcd1234" } });
    expect(parse({ type: "get_entries" })).toMatchObject({ success: true });
    expect(parse({ type: "bash", command: "ls", excludeFromContext: true })).toMatchObject({ success: true, output: { excludeFromContext: true } });
    expect(parse({ type: "set_thinking_level", level: "max" })).toMatchObject({ success: true, output: { level: "max" } });
  });

  test("wrong fields are refused naming the field", () => {
    const since = parse({ type: "get_entries", since: 5 });
    expect(since.success).toBe(false);
    expect(describeIssues(since.issues!)).toContain("since");
    const exclude = parse({ type: "bash", command: "ls", excludeFromContext: "yes" });
    expect(exclude.success).toBe(false);
    expect(describeIssues(exclude.issues!)).toContain("excludeFromContext");
    const level = parse({ type: "set_thinking_level", level: "maximum" });
    expect(level.success).toBe(false);
    expect(describeIssues(level.issues!)).toContain("level");
  });
});
