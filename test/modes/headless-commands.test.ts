/** Print and JSON mode: a prompt naming an extension command runs it instead of going to the model. */
import { describe, expect, test } from "bun:test";
import type { AgentSession } from "../../src/agent/session.ts";
import type { CommandContext } from "../../src/extensions/commands.ts";
import { createRegistries, type ModeExtensions } from "../../src/extensions/registries.ts";
import { HEADLESS_UI, type ExtensionUI } from "../../src/extensions/ui.ts";
import { runJsonMode } from "../../src/modes/json.ts";
import { runPrintMode } from "../../src/modes/print.ts";

const info = { path: "/ext/a.ts", source: "local", scope: "user" as const, origin: "top-level" as const };

/** Just enough of a session for the modes: it records prompts and never answers. */
function fakeSession() {
  const prompts: string[] = [];
  const session = {
    prompts,
    store: { header: { type: "session", id: "s" } },
    subscribe: () => () => {},
    submit: async (text: string) => void prompts.push(text),
    lastAssistant: () => undefined,
  };
  return session as typeof session & AgentSession;
}

function extensions() {
  const ran: { args: string; ctx: CommandContext }[] = [];
  const bound: ExtensionUI[] = [];
  const ext: ModeExtensions = { registries: createRegistries(), bindUi: (ui) => void bound.push(ui) };
  ext.registries.commands.register({ name: "stats", handler: async (args, ctx) => void ran.push({ args, ctx }) }, info);
  return { ext, ran, bound };
}

describe("extension commands in print and JSON mode", () => {
  for (const [mode, run] of [["print", runPrintMode], ["json", runJsonMode]] as const) {
    test(`${mode}: /stats runs the command with the headless UI; other prompts go to the session`, async () => {
      const session = fakeSession();
      const { ext, ran, bound } = extensions();
      const code = await run(session, [{ text: "/stats --all", images: [] }, { text: "/unknown", images: [] }, { text: "hello", images: [] }], ext);
      expect(code).toBe(0);
      expect(ran.map((r) => r.args)).toEqual(["--all"]);
      expect(ran[0]!.ctx.ui).toBe(HEADLESS_UI);
      expect(ran[0]!.ctx.hasUI).toBe(false);
      expect(bound).toEqual([HEADLESS_UI]);
      expect(session.prompts).toEqual(["/unknown", "hello"]);
    });
  }

  test("a prompt with images is never a command", async () => {
    const session = fakeSession();
    const { ext, ran } = extensions();
    await runPrintMode(session, [{ text: "/stats", images: [{ type: "image", data: "", mimeType: "image/png" }] }], ext);
    expect(ran).toEqual([]);
    expect(session.prompts).toEqual(["/stats"]);
  });
});
