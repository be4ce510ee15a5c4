/**
 * Asks before a bash command that deletes, formats or force-pushes runs. Without anyone to ask
 * (print and JSON mode) such a command is blocked.
 *
 *   pig -e examples/extensions/permission-gate.ts
 */
import type { ExtensionAPI } from "pig/extension";

const RISKY = [/\brm\s+(-[a-zA-Z]*[rf]|--recursive|--force)/, /\bmkfs\b/, /\bdd\s+if=/, /\bgit\s+push\b.*(--force|-f)\b/, /\bsudo\b/];

export default function permissionGate(pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return undefined;
    const command = String((event.input as { command?: unknown }).command ?? "");
    if (!RISKY.some((pattern) => pattern.test(command))) return undefined;
    if (!ctx.hasUI) return { block: true, reason: `Blocked without confirmation: ${command}` };
    const allowed = await ctx.ui.confirm("Run this command?", command);
    return allowed ? undefined : { block: true, reason: "The user declined this command." };
  });
}
