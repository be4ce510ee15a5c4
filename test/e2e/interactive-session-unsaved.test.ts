/**
 * Interactive pig in a session folder it may not write: the answer shows, a notice says once that
 * the session is not saved and why, and the conversation goes on.
 */
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { withPermissions } from "../helpers/permissions.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";
import { tempDir } from "../helpers/tmp.ts";

const { open, track } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "interactive pig with a session folder it may not write", () => {
  test("the answer shows, one notice names the file and the reason, and later prompts are answered", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const sessions = join(tempDir("pig-ro-sessions-"), "sessions");
    mkdirSync(sessions);
    chmodSync(sessions, 0o555);
    const tmux = open(world, { command: withPermissions([pigBinary(), "--session-dir", sessions]) });
    await tmux.waitFor("›");
    tmux.type("first question");
    tmux.sendKeys("Enter");
    // The notice is wider than the window: read it with its wrapped lines joined.
    // pig wraps the notice at words: its rows read back joined by spaces.
    const unwrapped = (screen: string) => screen.replace(/\n/g, " ");
    await tmux.waitFor((screen) => /Cannot save this session: cannot write to .*\.jsonl: permission denied \(EACCES\)\. It goes on in memory only; nothing of it is saved\./.test(unwrapped(screen)));
    await tmux.waitFor(/↑\d/);
    tmux.type("second question");
    tmux.sendKeys("Enter");
    await tmux.waitFor((screen) => (screen.match(/↑\d/g) ?? []).length >= 2);
    expect(unwrapped(tmux.capture()).match(/Cannot save this session/g)).toHaveLength(1);
    expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("first question");
    expect(readdirSync(sessions)).toEqual([]);
  });
});
