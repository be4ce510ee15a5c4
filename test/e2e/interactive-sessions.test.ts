/**
 * Interactive pig across sessions in a real terminal (tmux): resuming, deleting, forking and
 * moving around the tree.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig, sessionEntries } from "../helpers/interactive-pig.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tempDir } from "../helpers/tmp.ts";

const { start, open, track } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "interactive sessions over days", () => {
  test("/resume tomorrow: pick yesterday's session and continue it", async () => {
    const { tmux, world } = await start(undefined);
    tmux.type("yesterday's work");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    tmux.sendKeys("C-c", "C-c");
    await tmux.waitForExit();
    const again = open(world);
    await again.waitFor("›");
    again.type("/resume");
    again.sendKeys("Enter");
    await again.waitFor("yesterday's work");
    again.sendKeys("Enter");
    await again.waitFor(/Session [0-9a-f]{8}/);
    again.type("and today");
    again.sendKeys("Enter");
    await again.waitFor(/↑\d/);
    const last = JSON.stringify(world.llm.requests.at(-1)!.body);
    expect(last).toContain("yesterday's work");
    expect(last).toContain("and today");
  });

  test("/resume deletes a session: to the trash when a trash command exists, else after a second yes", async () => {
    const world = await createWorld({ llm: { mode: "text" } });
    track(world);
    for (const prompt of ["first old session", "second old session"]) expect((await world.run(["-p", prompt])).code).toBe(0);
    const sessionDir = join(world.agentDir, "sessions", readdirSync(join(world.agentDir, "sessions"))[0]!);
    const fileOf = (text: string) => readdirSync(sessionDir).find((name) => readFileSync(join(sessionDir, name), "utf8").includes(text));
    const first = fileOf("first old session")!;
    // A stand-in `trash` that moves the file into a folder, found on PATH like the real one.
    const bin = tempDir();
    const trashed = tempDir();
    const { chmodSync, writeFileSync } = await import("node:fs");
    writeFileSync(join(bin, "trash"), `#!/bin/sh\nmv "$1" "${trashed}/"\n`);
    chmodSync(join(bin, "trash"), 0o755);

    const deleteOne = async (tmux: TmuxSession, title: string) => {
      tmux.type("/resume");
      tmux.sendKeys("Enter");
      await tmux.waitFor("Delete a session");
      // The list is filtered as the keys arrive: Enter takes the one match.
      tmux.type("Delete");
      await tmux.waitFor((screen) => screen.includes("Search: Delete█") && screen.includes("● ✕ Delete a session"));
      tmux.sendKeys("Enter");
      await tmux.waitFor("Delete which session?");
      tmux.type(title);
      await tmux.waitFor((screen) => screen.includes(`Search: ${title}█`) && screen.includes(`● ${title}`));
      tmux.sendKeys("Enter");
      await tmux.waitFor(`Delete session "${title}`);
      tmux.type("y");
    };

    const withTrash = open(world, { env: { PATH: `${bin}:${world.env.PATH}` } });
    await withTrash.waitFor("›");
    await deleteOne(withTrash, "first old session");
    await withTrash.waitFor("Moved to the trash");
    expect(readdirSync(trashed)).toEqual([first]);
    expect(fileOf("first old session")).toBeUndefined();
    // The list comes back after a deletion; leave it, then quit.
    await withTrash.waitFor(/Moved to the trash[\s\S]*Resume a session/);
    withTrash.sendKeys("Escape");
    await withTrash.waitFor("■ Resume a session (this project) · cancelled");
    withTrash.type("/quit");
    withTrash.sendKeys("Enter");
    await withTrash.waitForExit();

    const tmux = open(world);
    await tmux.waitFor("›");
    await deleteOne(tmux, "second old session");
    await tmux.waitFor("permanently?");
    tmux.type("y");
    await tmux.waitFor(/Deleted \/[\s\S]*No sessions in this project yet/);
    expect(fileOf("second old session")).toBeUndefined();
    expect(readdirSync(trashed)).toEqual([first]);
  });

  test("two quick Escapes on an empty prompt open /tree, or /fork with doubleEscapeAction", async () => {
    const tree = await start(undefined);
    tree.tmux.type("question one");
    tree.tmux.sendKeys("Enter");
    await tree.tmux.waitFor(/↑\d/);
    tree.tmux.sendKeys("Escape", "Escape");
    await tree.tmux.waitFor("Session tree · conversation");

    const fork = await start(undefined, { settings: { doubleEscapeAction: "fork" } });
    fork.tmux.type("question one");
    fork.tmux.sendKeys("Enter");
    await fork.tmux.waitFor(/↑\d/);
    // (That Escapes on a draft do nothing is tested in test/interactive/double-escape.test.ts:
    // a terminal cannot tell "Escape, then a key" from Alt+key when both arrive at once.)
    fork.tmux.sendKeys("Escape", "Escape");
    await fork.tmux.waitFor("Fork from which message?");
  });

  test("/tree: go back to the first question and continue on a new branch", async () => {
    const { tmux, world } = await start(undefined, { settings: { branchSummary: { skipPrompt: true } } });
    tmux.type("question one");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    tmux.type("question two");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/question two[\s\S]*↑\d/);
    tmux.type("/tree");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Session tree · conversation");
    tmux.type("question one");
    await tmux.waitFor((screen) => screen.includes("Search: question one█") && screen.includes("Session tree · conversation · 1/1"));
    tmux.sendKeys("Enter");
    // The move is done once pig says which session it is in now; the question is back to edit.
    // Navigating to before the first question leaves an empty context.
    const moved = await tmux.waitFor((screen) => /Session [0-9a-f]{8,} · \d+ messages?/.test(screen) && /› question one\s*$/.test(screen));
    expect(moved).toContain(" · 0 messages · ");
    tmux.sendKeys("C-u");
    tmux.type("another way");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/another way[\s\S]*↑\d/);
    const users = ((world.llm.requests.at(-1)!.body as { messages: { role: string; content: { text: string }[] }[] }).messages)
      .filter((m) => m.role === "user")
      .map((m) => m.content[0]!.text);
    expect(users).toEqual(["another way"]);
    // Both branches stay in the file: "another way" hangs off the same parent as "question one".
    const entries = sessionEntries(world);
    const userEntry = (text: string) => entries.find((e) => e.type === "message" && JSON.stringify(e.message).includes(text))!;
    expect(userEntry("another way").parentId).toBe(userEntry("question one").parentId);
    expect(userEntry("question two")).toBeDefined();
  });
});
