/**
 * TypeScript extensions in interactive pig, in a real terminal (tmux): a tool_call gate's
 * confirm dialog decides whether bash runs; Escape cancels an extension tool that waits for its
 * AbortSignal; status and notices show; /new and /resume keep the same extension process.
 * Fixtures: test/fixtures/extensions/e2e2/.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig, sessionMessages } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "e2e2");
const ext = (name: string) => ["-e", join(EXT, name)];

const { start } = interactivePig();

async function send(tmux: TmuxSession, text: string, wait: string | RegExp | ((screen: string) => boolean)) {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(wait);
}

/** The run is over: the usage line is back under the last answer and nothing says "Esc to stop". */
const idleAfter = (text: string) => (screen: string) => {
  const at = screen.lastIndexOf(text);
  return at >= 0 && /↑[\d.]+k?/.test(screen.slice(at)) && !screen.includes("Esc to stop");
};

describeNeeding("tmux", tmuxAvailable(), "extensions in interactive pig", () => {
  test("a tool_call gate asks with ui.confirm: yes lets bash run, no blocks it", async () => {
    const script = {
      responses: [
        { toolCalls: [{ name: "bash", arguments: { command: "touch allowed-marker" } }] },
        { text: "first answer" },
        { toolCalls: [{ name: "bash", arguments: { command: "touch refused-marker" } }] },
        { text: "second answer" },
      ],
    };
    const { tmux, world } = await start(script as Script, { args: ext("confirm-gate.ts") });

    const asked = await send(tmux, "run it", "Run this command?");
    expect(asked).toContain("touch allowed-marker");
    expect(asked).toMatch(/● Yes \/ ○ No/);
    // Nothing has run while the question is open.
    expect(existsSync(join(world.cwd, "allowed-marker"))).toBe(false);
    tmux.sendKeys("Enter");
    await tmux.waitFor(idleAfter("first answer"));
    expect(existsSync(join(world.cwd, "allowed-marker"))).toBe(true);

    await send(tmux, "run another", (s) => s.includes("touch refused-marker") && /Run this command\?\s*\n.*touch refused-marker\s*\n.*● Yes/.test(s));
    // Right to "No", then Enter.
    tmux.sendKeys("Right");
    await tmux.waitFor(/○ Yes \/ ● No/);
    tmux.sendKeys("Enter");
    const blocked = await tmux.waitFor(idleAfter("second answer"));
    expect(blocked).toContain("the user declined the command");
    expect(existsSync(join(world.cwd, "refused-marker"))).toBe(false);
    // The model was told: the second tool result is an error carrying the gate's reason.
    const last = JSON.stringify(world.llm.requests.at(-1)!.body);
    expect(last).toContain("the user declined the command");
  });

  test("Escape cancels an extension tool that streams progress and waits for its signal", async () => {
    const script = { responses: [{ toolCalls: [{ name: "wait_for_cancel", arguments: {} }] }, { text: "never asked for this" }] };
    const { tmux, world } = await start(script as Script, { args: ext("wait-tool.ts") });

    const running = await send(tmux, "wait for me", (s) => s.includes("waiting-progress-7") && s.includes("Esc to stop"));
    expect(running).toContain("wait_for_cancel");
    expect(existsSync(join(world.cwd, "aborted.txt"))).toBe(false);
    tmux.sendKeys("Escape");
    const stopped = await tmux.waitFor((s) => s.includes("wait_for_cancel failed") && !s.includes("Esc to stop"));
    expect(stopped).not.toContain("never asked for this");
    // The extension saw the abort through its signal (it writes that down in its own time: the
    // call fails on pig's side without waiting for the extension's handler to finish).
    const aborted = join(world.cwd, "aborted.txt");
    await waitUntil(
      () => existsSync(aborted) && readFileSync(aborted, "utf8") !== "",
      () => "the extension never wrote aborted.txt",
    );
    expect(readFileSync(aborted, "utf8")).toBe("aborted=true");
    // The run ended there, as for a cancelled built-in tool: the tool's result is an error and
    // the model was not asked again.
    expect(world.llm.requests).toHaveLength(1);
    expect(sessionMessages(world).at(-1)).toMatchObject({ role: "toolResult", toolName: "wait_for_cancel", isError: true });
    // The agent is idle: the next prompt is answered.
    world.llm.setScript([{ text: "back to work" }]);
    await send(tmux, "next", idleAfter("back to work"));
    expect(world.llm.requests).toHaveLength(2);
  });

  test("ctx.ui.setStatus from session_start and ctx.ui.notify from a command show on screen", async () => {
    const { tmux, world } = await start(undefined, { args: ext("status-notify.ts") });
    await tmux.waitFor("status-from-extension-42");
    const noticed = await send(tmux, "/shout hello there", "notice-from-extension: hello there");
    // The status stays while the notice shows, and the command did not go to the model.
    expect(noticed).toContain("status-from-extension-42");
    expect(world.llm.requests).toHaveLength(0);
  });

  test("a message an extension sends with display shows as it arrives; a hidden one does not", async () => {
    const { tmux, world } = await start(undefined, { args: ext("show-message.ts") });
    const shown = await send(tmux, "/note from the command", "visible-note: from the command");
    expect(shown).toContain("[note]");
    expect(tmux.capture()).not.toContain("hidden-note");
    // Both are in the session, for the next request.
    await send(tmux, "go on", idleAfter("ok"));
    const sent = JSON.stringify(world.llm.requests.at(-1)!.body);
    expect(sent).toContain("visible-note: from the command");
    expect(sent).toContain("hidden-note");
  });

  test("/new and /resume keep the extension's process; session_start says startup, new, resume", async () => {
    const { tmux, world } = await start(undefined, { args: ext("session-log.ts") });
    const log = () => (existsSync(join(world.cwd, "session-log.txt")) ? readFileSync(join(world.cwd, "session-log.txt"), "utf8").trimEnd().split("\n") : []);
    await send(tmux, "the first session", idleAfter("the first session"));
    expect(log()).toHaveLength(1);

    tmux.type("/new");
    tmux.sendKeys("Enter");
    await waitUntil(() => log().length === 2, () => log().join("\n"));

    tmux.type("/resume");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Resume a session");
    tmux.type("the first session");
    await tmux.waitFor((s) => s.includes("Search: the first session█") && s.includes("● the first session"));
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Session [0-9a-f]{8}/);
    await waitUntil(() => log().length === 3, () => log().join("\n"));

    const rows = log().map((line) => line.split(" "));
    expect(rows.map(([reason]) => reason)).toEqual(["startup", "new", "resume"]);
    const pids = new Set(rows.map(([, pid]) => pid));
    expect(pids.size).toBe(1);
    expect(Number([...pids][0])).toBeGreaterThan(0);
    expect(Number([...pids][0])).not.toBe(process.pid);
  });
});

/** Polls a condition on files (a state, not a time); fails with `show()` when it never holds. */
async function waitUntil(check: () => boolean, show: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition never held; state:\n${show()}`);
    await Bun.sleep(30);
  }
  expect(check()).toBe(true);
}
