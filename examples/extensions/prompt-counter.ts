/**
 * Counts the prompts of a session and keeps the count in the session file (a `custom` entry the
 * model never sees), so it survives /resume and follows the branch: after /tree to an earlier
 * point the count is the one recorded on that branch. `/count` shows it.
 *
 *   pig -e examples/extensions/prompt-counter.ts
 */
import type { ExtensionAPI, ExtensionContext } from "pig/extension";

const TYPE = "prompt-counter";

export default function promptCounter(pi: ExtensionAPI) {
  let count = 0;
  const restore = (ctx: ExtensionContext) => {
    count = 0;
    for (const entry of ctx.sessionManager.getBranch()) {
      if (entry.type === "custom" && entry.customType === TYPE) count = (entry.data as { count: number }).count;
    }
  };
  pi.on("session_start", (_event, ctx) => restore(ctx));
  pi.on("session_tree", (_event, ctx) => restore(ctx));
  pi.on("before_agent_start", () => {
    count += 1;
    pi.appendEntry(TYPE, { count });
  });
  pi.registerCommand("count", {
    description: "Show how many prompts this branch of the session has had",
    handler: async (_args, ctx) => ctx.ui.notify(`${count} prompt${count === 1 ? "" : "s"} on this branch`, "info"),
  });
}
