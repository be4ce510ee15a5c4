// A team rule: no `git push --force` from the agent; and `/standup` drafts a stand-up note.
import type { ExtensionAPI } from "pig/extension";

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", (event) => {
    if (event.toolName !== "bash") return;
    const command = String((event.input as { command?: unknown }).command ?? "");
    if (/git\s+push\b.*(--force|-f\b)/.test(command)) return { block: true, reason: "force-pushing is off for this team" };
  });
  pi.registerCommand("standup", {
    description: "Ask for a stand-up note from today's commits",
    handler: async () => {
      pi.sendUserMessage("Write my stand-up note from `git log --since=yesterday --author=\"$(git config user.email)\"`.");
    },
  });
}
