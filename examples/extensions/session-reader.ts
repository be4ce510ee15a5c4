/**
 * Reads the session log: `/session` tells how many entries the session has, how many are on the
 * current branch (by type) and which is the leaf. The log reaches this extension only when it is
 * first read (`ctx.sessionManager`), once; later entries arrive as they are written.
 *
 *   pig -e examples/extensions/session-reader.ts
 */
import type { ExtensionAPI } from "pig/extension";

export default function sessionReader(pi: ExtensionAPI) {
  pi.registerCommand("session", {
    description: "Count the session's entries, and those on the current branch by type",
    handler: async (_args, ctx) => {
      const all = ctx.sessionManager.getEntries();
      const branch = ctx.sessionManager.getBranch();
      const kinds = new Map<string, number>();
      for (const entry of branch) kinds.set(entry.type, (kinds.get(entry.type) ?? 0) + 1);
      const summary = [...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `${n} ${kind}`).join(", ");
      ctx.ui.notify(`${all.length} entries, ${branch.length} on this branch (${summary}); leaf ${ctx.sessionManager.getLeafId()}`, "info");
    },
  });
}
