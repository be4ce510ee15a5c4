/**
 * The interactive mode with an extension, in a real terminal (tmux): the banner names it,
 * `/extensions` shows its process, and `/reload` restarts it for the same session with its new
 * code, which `/extensions` and the extension's own log then show.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig } from "../../helpers/interactive-pig.ts";
import { describeNeeding } from "../../helpers/needs.ts";
import { tmuxAvailable } from "../../helpers/tmux.ts";
import { tempDir } from "../../helpers/tmp.ts";

const SOURCE = readFileSync(join(import.meta.dir, "..", "..", "fixtures", "extensions", "features", "reloadable.ts"), "utf8");
const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "extensions in interactive mode", () => {
  test("banner, /extensions and /reload", async () => {
    const dir = tempDir();
    const file = join(dir, "reloadable.ts");
    writeFileSync(file, SOURCE);
    const { tmux, world } = await start(undefined, { settings: { quietStartup: false }, args: ["-e", file] });
    const log = () => (existsSync(join(world.cwd, "reload.log")) ? readFileSync(join(world.cwd, "reload.log"), "utf8").trim().split("\n") : []);
    const banner = tmux.capture();
    expect(banner).toMatch(/extensions\s+.*reloadable\.ts/);

    tmux.type("/extensions");
    tmux.sendKeys("Enter");
    const listed = await tmux.waitFor(/running · pid \d+ · generation 1/);
    const firstPid = /running · pid (\d+)/.exec(listed)![1];

    writeFileSync(file, SOURCE.replace('const VERSION = "v1";', 'const VERSION = "v2";'));
    tmux.type("/reload");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Reloaded 1 extension.");
    expect(log()).toEqual(["v1 start startup", "v1 shutdown reload", "v2 start reload"]);

    tmux.type("/extensions");
    tmux.sendKeys("Enter");
    const again = await tmux.waitFor((screen) => [...screen.matchAll(/running · pid (\d+)/g)].some((m) => m[1] !== firstPid));
    expect(again).toContain(file.replace(/^.*\//, ""));
  }, 60_000);
});
