/**
 * project_trust in interactive pig, in a real terminal (tmux): an extension asks the person with
 * ctx.ui.confirm before the editor is up; the answer decides whether the project's own extension
 * loads. Fixtures: test/fixtures/extensions/boundaries/.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld } from "../helpers/pig-env.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "extensions", "boundaries");
const { open, track } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "project_trust in interactive pig", () => {
  for (const answer of ["yes", "no"] as const) {
    test(`the extension's confirm dialog comes first; ${answer} decides the project's extension`, async () => {
      const world = track(
        await createWorld({ llm: { mode: "text" }, files: { ".pig/extensions/project-ext.ts": readFileSync(join(FIXTURES, "project-ext.ts"), "utf8") } }),
      );
      const tmux = open(world, { args: ["-e", join(FIXTURES, "trust-dialog.ts")] });
      const asked = await tmux.waitFor("Trust this project?");
      expect(asked).toContain(world.cwd.split("/").at(-1)!);
      // pig's own trust question is not asked: the extension's answer stands.
      expect(asked).not.toContain("has its own pig configuration");
      if (answer === "no") {
        tmux.sendKeys("Right");
        await tmux.waitFor(/○ Yes \/ ● No/);
      }
      tmux.sendKeys("Enter");
      await tmux.waitFor("›");
      const logged = join(world.cwd, "project-ext.log");
      if (answer === "yes") expect(readFileSync(logged, "utf8")).toBe("loaded\n");
      else expect(existsSync(logged)).toBe(false);
      expect(tmux.capture()).not.toContain("has its own pig configuration");
    });
  }
});
