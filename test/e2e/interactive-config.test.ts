/**
 * `pig config` in a real terminal (tmux): a checklist per installed package, a summary and a
 * confirmation; the settings file then holds the choice as +path/-path filters and the next run
 * loads exactly the chosen resources. Escape or Ctrl+C writes nothing; without a terminal it
 * refuses; with -l it edits the project's settings, only in a trusted project.
 */
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary, runPig } from "../helpers/binary.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";

const { open, track } = interactivePig();

/** A local pi package: an extension with a command, a skill and two prompt templates. */
function demoPackage(): string {
  const dir = tempDir("pig-config-pkg-");
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "demo-pkg", keywords: ["pi-package"], pi: { extensions: ["extensions"], skills: ["skills"], prompts: ["prompts"] } }),
    "extensions/demo.ts": 'export default function (pi) {\n  pi.registerCommand("demo", { description: "From the demo package", handler: async () => {} });\n}\n',
    "skills/hello/SKILL.md": "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n",
    "prompts/greet.md": "---\ndescription: Greet someone\n---\nGreet $1.\n",
    "prompts/wave.md": "---\ndescription: Wave\n---\nWave at $1.\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A second package with three templates, the two old ones turned off by a filter of the person's own. */
function otherPackage(): string {
  const dir = tempDir("pig-config-pkg2-");
  mkdirSync(join(dir, "prompts"), { recursive: true });
  for (const name of ["new", "old", "older"]) writeFileSync(join(dir, "prompts", `${name}.md`), `---\ndescription: ${name}\n---\n${name}.\n`);
  return dir;
}

/** pig run by a shell that prints its exit code when it ends, so the screen shows it. */
function openWithExitCode(world: PigWorld, args: string[]): TmuxSession {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return open(world, { command: ["sh", "-c", `'${pigBinary()}' ${quoted}; echo "exit code $?"; read _`] });
}

const settingsOf = (world: PigWorld) => JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8"));

/** The commands a run loads (`source:name`), asked over RPC. */
async function loaded(world: PigWorld): Promise<string[]> {
  const client = new RpcClient({ cwd: world.cwd, env: world.env });
  try {
    const listed = await client.request({ type: "get_commands" });
    const commands = (listed.data as { commands: { source: string; name: string }[] }).commands;
    return commands.map((c) => `${c.source}:${c.name}`).sort();
  } finally {
    expect(await client.close()).toBe(0);
  }
}

/** A world with the demo package installed and the other one named with a filter and a field of the person's. */
async function packagedWorld() {
  const world = track(await createWorld({ llm: { mode: "text" }, settings: { mine: { kept: true } } }));
  const demo = demoPackage();
  const other = otherPackage();
  expect(runPig(["install", demo], { cwd: world.cwd, env: world.env }).code).toBe(0);
  const settings = settingsOf(world);
  settings.packages.push({ source: other, note: "my own field", prompts: ["!prompts/old*.md"] });
  writeFileSync(join(world.agentDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  return { world, demo, other };
}

describeNeeding("tmux", tmuxAvailable(), "pig config", () => {
  test("checklists per package: the choice is written as +/- filters and the next run loads exactly it", async () => {
    const { world, demo, other } = await packagedWorld();
    const before = settingsOf(world);
    expect(await loaded(world)).toEqual(expect.arrayContaining(["extension:demo", "prompt:greet", "prompt:wave", "prompt:new", "skill:skill:hello"]));

    const tmux = openWithExitCode(world, ["config"]);
    const first = await tmux.waitFor(`◆  ${demo}`);
    expect(first).toMatch(/◼ extension\s+extensions\/demo\.ts/);
    expect(first).toMatch(/◼ skill\s+skills\/hello\/SKILL\.md/);
    expect(first).toMatch(/◼ prompt\s+prompts\/wave\.md/);
    // Off: the extension (first) and wave.md (fourth).
    tmux.sendKeys("Space", "Down", "Down", "Down", "Space");
    await tmux.waitFor(/◻ extension\s+extensions\/demo\.ts[\s\S]*◻ prompt\s+prompts\/wave\.md/);
    tmux.sendKeys("Enter");
    const second = await tmux.waitFor(`◆  ${other}`);
    expect(second).toMatch(/◼ prompt\s+prompts\/new\.md/);
    expect(second).toMatch(/◻ prompt\s+prompts\/old\.md/);
    expect(second).toMatch(/◻ prompt\s+prompts\/older\.md/);
    // On: old.md, which the person's own filter leaves off.
    tmux.sendKeys("Down", "Space");
    await tmux.waitFor(/◼ prompt\s+prompts\/old\.md/);
    tmux.sendKeys("Enter");
    const summary = await tmux.waitFor("Save them to");
    expect(summary).toMatch(/off\s+extension\s+extensions\/demo\.ts/);
    expect(summary).toMatch(/off\s+prompt\s+prompts\/wave\.md/);
    expect(summary).toMatch(/on\s+prompt\s+prompts\/old\.md/);
    // Nothing is written before the answer.
    expect(settingsOf(world)).toEqual(before);
    tmux.sendKeys("Enter");
    await tmux.waitFor("exit code 0");
    expect(tmux.capture()).toContain(`Saved ${join(world.agentDir, "settings.json")}`);

    const after = settingsOf(world);
    expect(after.packages).toEqual([
      { source: demo, extensions: [], prompts: ["-prompts/wave.md"] },
      { source: other, note: "my own field", prompts: ["!prompts/old*.md", "+prompts/old.md"] },
    ]);
    const { packages: _p, ...rest } = after;
    const { packages: _q, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(rest.mine).toEqual({ kept: true });

    const names = await loaded(world);
    expect(names).toEqual(expect.arrayContaining(["prompt:greet", "prompt:new", "prompt:old", "skill:skill:hello"]));
    expect(names).not.toContain("prompt:wave");
    expect(names).not.toContain("prompt:older");
    expect(names).not.toContain("extension:demo");

    // Everything of the demo package on again: its filters go and the entry is its source again.
    const again = openWithExitCode(world, ["config"]);
    await again.waitFor(/◻ extension\s+extensions\/demo\.ts[\s\S]*◼ prompt\s+prompts\/greet\.md[\s\S]*◻ prompt\s+prompts\/wave\.md/);
    again.sendKeys("Space", "Down", "Down", "Down", "Space");
    await again.waitFor(/◼ extension\s+extensions\/demo\.ts[\s\S]*◼ prompt\s+prompts\/wave\.md/);
    again.sendKeys("Enter");
    await again.waitFor(`◆  ${other}`);
    again.sendKeys("Enter");
    await again.waitFor("Save them to");
    again.sendKeys("Enter");
    await again.waitFor("exit code 0");
    expect(settingsOf(world).packages).toEqual([demo, { source: other, note: "my own field", prompts: ["!prompts/old*.md", "+prompts/old.md"] }]);
    expect(await loaded(world)).toEqual(expect.arrayContaining(["extension:demo", "prompt:wave"]));
  });

  test("Escape at a checklist, Ctrl+C or no at the confirmation: nothing is written", async () => {
    const { world, demo } = await packagedWorld();
    const file = join(world.agentDir, "settings.json");
    const text = readFileSync(file, "utf8");

    const escaped = openWithExitCode(world, ["config"]);
    await escaped.waitFor(`◆  ${demo}`);
    escaped.sendKeys("Space");
    await escaped.waitFor(/◻ extension\s+extensions\/demo\.ts/);
    escaped.sendKeys("Escape");
    const screen = await escaped.waitFor("exit code 130");
    expect(screen).toContain("Nothing written.");
    expect(readFileSync(file, "utf8")).toBe(text);

    const interrupted = openWithExitCode(world, ["config"]);
    await interrupted.waitFor(`◆  ${demo}`);
    interrupted.sendKeys("Space");
    await interrupted.waitFor(/◻ extension\s+extensions\/demo\.ts/);
    interrupted.sendKeys("Enter");
    await interrupted.waitFor("prompts/new.md");
    interrupted.sendKeys("Enter");
    await interrupted.waitFor("Save them to");
    interrupted.sendKeys("C-c");
    expect(await interrupted.waitFor("exit code 130")).toContain("Nothing written.");
    expect(readFileSync(file, "utf8")).toBe(text);

    // Answering no is not a cancel: nothing is written either, and the run ends well.
    const declined = openWithExitCode(world, ["config"]);
    await declined.waitFor(`◆  ${demo}`);
    declined.sendKeys("Space", "Enter");
    await declined.waitFor("prompts/new.md");
    declined.sendKeys("Enter");
    await declined.waitFor("Save them to");
    declined.sendKeys("Right");
    await declined.waitFor(/○ Yes \/ ● No/);
    declined.sendKeys("Enter");
    expect(await declined.waitFor("exit code 0")).toContain("Nothing written.");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  test("the settings file's own resources have a checklist of their own; its list gets a -path", async () => {
    const world = track(
      await createWorld({
        llm: { mode: "text" },
        agentFiles: { "prompts/draft.md": "---\ndescription: Draft\n---\nDraft.\n", "prompts/review.md": "---\ndescription: Review\n---\nReview $1.\n" },
      }),
    );
    const file = join(world.agentDir, "settings.json");
    const tmux = openWithExitCode(world, ["config"]);
    const screen = await tmux.waitFor(`◆  ${file}: its own resources`);
    expect(screen).toContain(`No packages in ${file}.`);
    expect(screen).toMatch(/◼ prompt\s+prompts\/draft\.md[\s\S]*◼ prompt\s+prompts\/review\.md/);
    tmux.sendKeys("Space");
    await tmux.waitFor(/◻ prompt\s+prompts\/draft\.md/);
    tmux.sendKeys("Enter");
    await tmux.waitFor("Save them to");
    tmux.sendKeys("Enter");
    await tmux.waitFor("exit code 0");
    expect(settingsOf(world).prompts).toEqual(["-prompts/draft.md"]);
    const names = await loaded(world);
    expect(names).toContain("prompt:review");
    expect(names).not.toContain("prompt:draft");
  });

  test("with no packages it says so and ends", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const tmux = openWithExitCode(world, ["config"]);
    const screen = await tmux.waitFor("exit code 0");
    expect(screen).toContain(`No packages in ${join(world.agentDir, "settings.json")} (pig install <source> adds one).`);
  });

  test("-l edits the project's settings: only once the project is trusted, never after a no", async () => {
    const world = track(await createWorld({ llm: { mode: "text" } }));
    const demo = demoPackage();
    expect(runPig(["install", demo, "-l"], { cwd: world.cwd, env: world.env }).code).toBe(0);
    const file = join(world.cwd, ".pig", "settings.json");
    const text = readFileSync(file, "utf8");
    const recorded = JSON.parse(text).packages[0];

    const refused = openWithExitCode(world, ["config", "-l"]);
    await refused.waitFor("has its own pig configuration");
    refused.sendKeys("Enter");
    const screen = await refused.waitFor("exit code 1");
    expect(screen).toContain("is not trusted; nothing written");
    expect(readFileSync(file, "utf8")).toBe(text);

    const trusted = openWithExitCode(world, ["config", "-l", "--trust"]);
    await trusted.waitFor(`◆  ${recorded}`);
    expect(trusted.capture()).not.toContain("has its own pig configuration");
    trusted.sendKeys("Down", "Space");
    await trusted.waitFor(/◻ skill\s+skills\/hello\/SKILL\.md/);
    trusted.sendKeys("Enter");
    await trusted.waitFor("Save them to");
    trusted.sendKeys("Enter");
    await trusted.waitFor("exit code 0");
    expect(JSON.parse(readFileSync(file, "utf8")).packages).toEqual([{ source: recorded, skills: [] }]);
    expect(settingsOf(world).packages).toBeUndefined();
  });
});

test("without a terminal pig config refuses with exit code 2 and writes nothing", async () => {
  const world = await createWorld({ llm: { mode: "text" } });
  try {
    const demo = demoPackage();
    expect(runPig(["install", demo], { cwd: world.cwd, env: world.env }).code).toBe(0);
    const text = readFileSync(join(world.agentDir, "settings.json"), "utf8");
    const result = runPig(["config"], { cwd: world.cwd, env: world.env, stdin: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pig: config needs a terminal");
    expect(result.stdout).toBe("");
    expect(readFileSync(join(world.agentDir, "settings.json"), "utf8")).toBe(text);
  } finally {
    await world.close();
  }
});
