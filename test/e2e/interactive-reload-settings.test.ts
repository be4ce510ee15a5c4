/**
 * `/reload` reads settings.json again and the session takes up what it keeps a copy of: turning
 * automatic compaction on in the file compacts the next request, and a changed queue mode, retry
 * or tool-output bound is what the next run uses; the theme and the keys follow their files.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { tmuxAvailable, type TmuxSession } from "../helpers/tmux.ts";

const { start } = interactivePig();

const SUMMARY = { when: "context summarization assistant", text: "## Goal\nKeep going.", repeat: 10 };
const BASE = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true };

/** Types `text` and Enter, as a person sends a prompt or a command. */
function send(tmux: TmuxSession, text: string): void {
  tmux.type(text);
  tmux.sendKeys("Enter");
}

/** `/reload`, until pig says what it reloaded (the first time it says so in this window). */
async function reload(tmux: TmuxSession): Promise<void> {
  send(tmux, "/reload");
  await tmux.waitFor("Reloaded:");
}

function summaryRequests(requests: readonly { body: unknown }[]): number {
  return requests.filter((r) => JSON.stringify(r.body).includes("context summarization assistant")).length;
}

describeNeeding("tmux", tmuxAvailable(), "/reload and the settings the session holds", () => {
  test("compaction turned on in settings.json after the start compacts once /reload ran", async () => {
    const script = {
      // A long first answer: something older than the recent part for a summary to replace.
      responses: [SUMMARY, { text: `${"lorem ipsum ".repeat(400)}first-answer-ends-here` }, { text: "second answer", usage: { prompt_tokens: 18000, completion_tokens: 5 } }],
    } as unknown as Script;
    const compaction = { reserveTokens: 4000, keepRecentTokens: 10 };
    const { world, tmux } = await start(script, { contextWindow: 20000, settings: { compaction: { ...compaction, enabled: false } } });
    send(tmux, "one");
    // Its end: the beginning scrolls off the screen.
    await tmux.waitFor("first-answer-ends-here");
    writeFileSync(join(world.agentDir, "settings.json"), JSON.stringify({ ...BASE, compaction: { ...compaction, enabled: true } }, null, 2));
    await reload(tmux);
    send(tmux, "two");
    // The answer's usage is past the threshold the file now allows: a summary follows it.
    await tmux.waitFor("Compacted");
    expect(summaryRequests(world.llm.requests)).toBe(1);
  });

  test("retries turned off in settings.json: after /reload a failed answer is not retried", async () => {
    const script = { responses: [{ text: "first answer" }, { error: { status: 500, message: "boom from the server" }, repeat: 4 }] } as unknown as Script;
    const { world, tmux } = await start(script);
    send(tmux, "one");
    await tmux.waitFor("first answer");
    writeFileSync(join(world.agentDir, "settings.json"), JSON.stringify({ ...BASE, retry: { enabled: false } }, null, 2));
    await reload(tmux);
    send(tmux, "two");
    // The failure is the run's end, said at once: no countdown to a next attempt.
    const screen = await tmux.waitFor("Error: 500 boom from the server");
    expect(screen).not.toContain("retrying");
    expect(world.llm.requests).toHaveLength(2);
  });

  test("a theme changed in settings.json is the one pig draws with after /reload", async () => {
    const { world, tmux } = await start(undefined, { settings: { theme: "dark" } });
    /** The colour sequences on the screen (tmux writes one where the style changes). */
    const colours = (): Set<string> => new Set(tmux.captureStyled().match(/\x1b\[[0-9;]*m/g) ?? []);
    await reload(tmux);
    const dark = colours();
    writeFileSync(join(world.agentDir, "settings.json"), JSON.stringify({ ...BASE, theme: "light" }, null, 2));
    send(tmux, "/reload");
    await tmux.waitFor((screen) => screen.split("Reloaded:").length === 3);
    // The second report is drawn in a colour the dark theme did not use.
    expect([...colours()].filter((c) => !dark.has(c))).not.toEqual([]);
  });

  test("a key bound in keybindings.json after the start works once /reload ran", async () => {
    const { world, tmux } = await start(undefined);
    writeFileSync(join(world.agentDir, "keybindings.json"), JSON.stringify({ "app.thinking.toggle": "ctrl+x" }));
    await reload(tmux);
    tmux.sendKeys("C-x");
    await tmux.waitFor("Thinking is hidden.");
  });
});
