// Loaded by pi-rpc-client.ts with a 1.x client, into pig and into Pi alike (no imports, so both
// load it as it is): a command a prompt can run ("handled"), an input handler that takes or
// rewrites what starts with its markers, and a notice from session_start.
interface Ctx {
  ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
}
interface Api {
  on(event: "session_start", handler: (event: { reason: string }, ctx: Ctx) => void): void;
  on(event: "input", handler: (event: { text: string }) => { action: "continue" | "handled" } | { action: "transform"; text: string }): void;
  registerCommand(name: string, command: { description: string; handler: (args: string, ctx: Ctx) => Promise<void> }): void;
}

export default function (pi: Api) {
  pi.on("session_start", (event, ctx) => {
    ctx.ui.notify(`compat session_start: ${event.reason}`, "info");
  });
  pi.registerCommand("compat-command", {
    description: "Answers with a notice",
    handler: async (args, ctx) => {
      ctx.ui.notify(`compat command ran: ${args}`, "info");
    },
  });
  pi.on("input", (event) => {
    if (event.text.startsWith("compat-drop ")) return { action: "handled" };
    if (event.text.startsWith("compat-rewrite ")) return { action: "transform", text: `rewritten: ${event.text.slice("compat-rewrite ".length)}` };
    return { action: "continue" };
  });
}
