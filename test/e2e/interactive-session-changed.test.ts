/**
 * The session file changes under interactive pig (someone truncates it, or puts another file in
 * its place): pig says so, leaves that file alone and goes on in a new file with the
 * conversation, and every later prompt works.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import type { PigWorld } from "../helpers/pig-env.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { start } = interactivePig();

function sessionFiles(world: PigWorld): string[] {
  const root = join(world.agentDir, "sessions");
  const [dir] = readdirSync(root);
  return readdirSync(join(root, dir!))
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => join(root, dir!, name));
}

const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n");

describeNeeding("tmux", tmuxAvailable(), "the session file changed under interactive pig", () => {
  for (const change of ["truncated to nothing", "replaced by another file"] as const) {
    test(`${change}: pig says so, goes on in a new file with the conversation, and later prompts work`, async () => {
      const { tmux, world } = await start(undefined);
      tmux.type("first question");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/↑\d/);
      const [original] = sessionFiles(world);
      const before = readFileSync(original!, "utf8");
      if (change === "truncated to nothing") truncateSync(original!, 0);
      else {
        writeFileSync(`${original}.new`, "someone else's file\n");
        renameSync(`${original}.new`, original!);
      }
      const left = readFileSync(original!, "utf8");
      tmux.type("second question");
      tmux.sendKeys("Enter");
      // The notice wraps at words: its rows read back joined by spaces.
      await tmux.waitFor((screen) => /changed on disk while pig had it open[\s\S]*goes on in a new file/.test(screen.replace(/\n/g, " ")));
      await tmux.waitFor((screen) => (screen.match(/↑\d/g) ?? []).length >= 2);
      tmux.type("third question");
      tmux.sendKeys("Enter");
      await tmux.waitFor((screen) => (screen.match(/↑\d/g) ?? []).length >= 3);
      // The changed file is left as it was made; the new one names it as its parent.
      expect(readFileSync(original!, "utf8")).toBe(left);
      const moved = sessionFiles(world).filter((path) => path !== original);
      expect(moved).toHaveLength(1);
      const header = JSON.parse(lines(moved[0]!)[0]!) as { parentSession?: string };
      expect(header.parentSession).toBe(original);
      const text = readFileSync(moved[0]!, "utf8");
      expect(text).toContain("second question");
      expect(text).toContain("third question");
      // What pig loaded from the file it held: all of it when the file was replaced (pig still
      // holds the old one open), the entries pig kept a copy of when it was cut to nothing.
      if (change === "replaced by another file") expect(text).toContain("first question");
      expect(before).toContain("first question");
      // The model saw the whole conversation all along.
      const last = JSON.stringify(world.llm.requests.at(-1)!.body);
      expect(last).toContain("first question");
      expect(last).toContain("second question");
      expect(tmux.capture()).not.toContain("The run was stopped");
    });
  }
});
