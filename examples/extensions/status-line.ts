/**
 * A status line under the prompt: the turn being run and the tools called so far in this run.
 *
 *   pig -e examples/extensions/status-line.ts
 */
import type { ExtensionAPI } from "pig/extension";

export default function statusLine(pi: ExtensionAPI) {
  let tools = 0;
  pi.on("agent_start", (_event, ctx) => {
    tools = 0;
    ctx.ui.setStatus("run", "working…");
  });
  pi.on("turn_start", (event, ctx) => ctx.ui.setStatus("run", `turn ${event.turnIndex + 1}, ${tools} tool call${tools === 1 ? "" : "s"}`));
  pi.on("tool_execution_end", () => {
    tools += 1;
  });
  pi.on("agent_end", (_event, ctx) => ctx.ui.setStatus("run", `done: ${tools} tool call${tools === 1 ? "" : "s"}`));
}
