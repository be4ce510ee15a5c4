/**
 * The command line of interactive pig in a real terminal (tmux): `pig -r` and its picker,
 * sessions shown by the user's own words (`/resume`, `/tree`, the exported page's title), and
 * `@path` mentions and arguments that cannot be attached.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start, open, track } = interactivePig();

const NOTES = "# Notes\nthe secret word is kumquat\n";

/** A world with two sessions written in print mode: one with an attached file, one from a template. */
async function worldWithSessions(options: WorldOptions = {}): Promise<PigWorld> {
  const world = track(
    await createWorld({
      llm: { mode: "text" },
      files: { "notes.md": NOTES },
      agentFiles: { "prompts/review.md": "---\ndescription: Review a file\n---\nReview $1 for bugs." },
      ...options,
    }),
  );
  expect((await world.run(["-p", "@notes.md", "summarise the notes"])).code).toBe(0);
  expect((await world.run(["-p", "/review src/a.ts"])).code).toBe(0);
  return world;
}

/**
 * pig run by a shell that prints its exit code once it ends, so the screen shows it. The shell
 * then waits (tmux scrolls the screen of a pane that has ended, which could take the first line).
 */
function openWithExitCode(world: PigWorld, args: string[]): TmuxSession {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return open(world, { command: ["sh", "-c", `'${pigBinary()}' ${quoted}; echo "exit code $?"; read _`] });
}

async function send(tmux: TmuxSession, text: string, wait: string | RegExp): Promise<string> {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(wait);
}

describeNeeding("tmux", tmuxAvailable(), "interactive command line", () => {
  test("pig -r: the picker lists sessions by the user's words; the one chosen continues", async () => {
    const world = await worldWithSessions();
    const tmux = open(world, { args: ["-r"] });
    const picker = await tmux.waitFor((screen) => screen.includes("Resume a session (this project)") && screen.includes("summarise the notes"));
    expect(picker).toContain("/review src/a.ts");
    expect(picker).not.toContain("<file");
    expect(picker).not.toContain("for bugs");
    tmux.type("summarise");
    await tmux.waitFor((screen) => screen.includes("Search: summarise█") && screen.includes("● summarise the notes"));
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Resumed "summarise the notes"[\s\S]*›/);
    await send(tmux, "and now the rest", /and now the rest[\s\S]*↑\d/);
    const last = JSON.stringify(world.llm.requests.at(-1)!.body);
    // The resumed context (with the file it had) and the new message.
    expect(last).toContain("kumquat");
    expect(last).toContain("and now the rest");
  });

  test("pig -r cancelled: a line says so and pig ends with exit code 0", async () => {
    const world = await worldWithSessions();
    const tmux = openWithExitCode(world, ["-r"]);
    await tmux.waitFor("summarise the notes");
    tmux.sendKeys("Escape");
    await tmux.waitFor(/No session chosen\.\s*\n\s*exit code 0/);
    expect(world.llm.requests).toHaveLength(2);
  });

  test("/resume and /tree show the user's words, and the exported page is titled by them", async () => {
    const world = await worldWithSessions();
    const tmux = open(world, { args: ["@notes.md", "explain the notes"] });
    await tmux.waitFor(/explain the notes[\s\S]*↑\d/);
    tmux.type("/resume");
    tmux.sendKeys("Enter");
    const picker = await tmux.waitFor((screen) => screen.includes("summarise the notes") && screen.includes("/review src/a.ts"));
    expect(picker).toContain("explain the notes");
    expect(picker).not.toContain("<file");
    tmux.sendKeys("Escape");
    await tmux.waitFor("Resume a session (this project) · cancelled");
    tmux.type("/tree");
    tmux.sendKeys("Enter");
    const tree = await tmux.waitFor("user: explain the notes");
    expect(tree).not.toContain("<file");
    tmux.sendKeys("Escape");
    await tmux.waitFor("■ Session tree · cancelled");
    await send(tmux, "/export out.html", `Exported to ${join(world.cwd, "out.html")}`);
    const html = readFileSync(join(world.cwd, "out.html"), "utf8");
    expect(html).toContain("<title>explain the notes</title>");
    // The page still shows what the model got.
    expect(html).toContain("kumquat");
  });

  test("@ mentions of a directory or a missing file are reported by name; the message still goes", async () => {
    const { tmux, world } = await start(undefined, { files: { "src/main.ts": "export {};\n" } });
    const screen = await send(tmux, "compare @src with @src/mian.ts please", /not attached: @src\/mian\.ts[\s\S]*↑\d/);
    expect(screen).toContain("not attached: @src (a directory; attach files inside it, e.g. @src/main.ts)");
    expect(screen.replace(/\s*\n\s*/g, "")).toContain(`not attached: @src/mian.ts (no such file: ${join(world.cwd, "src", "mian.ts")})`);
    expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("compare @src with @src/mian.ts please");
  });

  test("an @file argument that is missing or a directory stops interactive pig, naming it", async () => {
    const world = track(await createWorld({ llm: { mode: "text" }, files: { "src/main.ts": "export {};\n" } }));
    const missing = openWithExitCode(world, ["@nope.md", "look"]);
    const said = await missing.waitFor(/exit code 1/);
    expect(said.replace(/\s*\n\s*/g, "")).toContain(`pig: @nope.md: no such file: ${join(world.cwd, "nope.md")}exit code 1`);
    const dir = openWithExitCode(world, ["@src"]);
    await dir.waitFor(/pig: @src is a directory; attach files inside it, e\.g\. @src\/main\.ts\s*\n\s*exit code 1/);
    expect(world.llm.requests).toHaveLength(0);
  });
});
