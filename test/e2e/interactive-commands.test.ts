/**
 * Interactive pig's slash commands, completion and first-run setup in a real terminal (tmux).
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script, ScriptResponse } from "../helpers/fake-llm/server.ts";
import { interactivePig, sessionEntries } from "../helpers/interactive-pig.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { rowsHolding, type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start, open, track } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "interactive commands", () => {
  async function ask(tmux: TmuxSession, text: string, wait: string | RegExp) {
    tmux.type(text);
    tmux.sendKeys("Enter");
    return tmux.waitFor(wait);
  }

  test("/name, /session and /export", async () => {
    const { tmux, world } = await start(undefined);
    await ask(tmux, "hello there", /↑\d/);
    await ask(tmux, "/name Morning work", "Session name: Morning work");
    // What each command prints, not the command line as typed.
    await ask(tmux, "/session", /Name:\s+Morning work/);
    await ask(tmux, "/export out.html", `Exported to ${join(world.cwd, "out.html")}`);
    const html = readFileSync(join(world.cwd, "out.html"), "utf8");
    expect(html).toContain("<html");
    expect(html).toContain("hello there");
    expect(sessionEntries(world).filter((e) => e.type === "session_info")).toEqual([expect.objectContaining({ name: "Morning work" })]);
  });

  test("/model opens a picker; choosing switches the model", async () => {
    const { tmux, world } = await start(undefined);
    tmux.type("/model");
    tmux.sendKeys("Enter");
    // Keys sent before the picker listens would be lost: wait for it to show.
    await tmux.waitFor("fake-reasoner");
    tmux.type("reasoner");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Model: fake/fake-reasoner");
    await ask(tmux, "which model?", /which model\?[\s\S]*↑\d/);
    expect((world.llm.requests.at(-1)!.body as { model: string }).model).toBe("fake-reasoner");
    const entries = sessionEntries(world);
    const change = entries.findLast((e) => e.type === "model_change");
    expect(change).toMatchObject({ provider: "fake", modelId: "fake-reasoner" });
    // The switch is recorded before the question asked with the new model.
    expect(entries.indexOf(change!)).toBeLessThan(entries.findIndex((e) => JSON.stringify(e).includes("which model?")));
  });

  test("/fork puts the message back in the editor and continues in a new file", async () => {
    const { tmux, world } = await start(undefined);
    await ask(tmux, "first question", /↑\d/);
    await ask(tmux, "second question", /second question[\s\S]*↑\d/);
    tmux.type("/fork");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Fork from which message?");
    // The last message is chosen to begin with.
    tmux.sendKeys("Enter");
    const forked = await tmux.waitFor("Forked into a new session.");
    expect(forked).toMatch(/› second question\s*$/m);
    tmux.sendKeys("C-u");
    await ask(tmux, "a different second", /a different second[\s\S]*↑\d/);
    const root = join(world.agentDir, "sessions");
    const [dir] = readdirSync(root);
    const files = readdirSync(join(root, dir!)).filter((n) => n.endsWith(".jsonl"));
    expect(files).toHaveLength(2);
    const texts = files.map((f) => readFileSync(join(root, dir!, f), "utf8"));
    // The fork holds the first question and the new second one; the original keeps its own.
    expect(texts.filter((t) => t.includes("a different second"))).toHaveLength(1);
    expect(texts.find((t) => t.includes("a different second"))).not.toContain('"text":"second question"');
  });

  test("/compact summarises and the conversation goes on", async () => {
    const words = "lorem ipsum dolor sit amet ".repeat(30);
    const { tmux, world } = await start(
      { responses: [{ when: "context summarization assistant", text: "## Goal\nSummarised." }, { text: "one" }, { text: "two" }, { text: "three" }] } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 50 } } },
    );
    await ask(tmux, `first ${words}`, /↑\d/);
    // The answer, then the status line under it: the run is over.
    await ask(tmux, `second ${words}`, /^two\n↑\d/m);
    await ask(tmux, "/compact", "Compacted");
    await ask(tmux, "after compaction", /^three\n↑\d/m);
    expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("Summarised.");
    const compactions = sessionEntries(world).filter((e) => e.type === "compaction");
    expect(compactions).toHaveLength(1);
    expect(String(compactions[0]!.summary)).toContain("Summarised.");
  });
});

describeNeeding("tmux", tmuxAvailable(), "commands while the agent works", () => {
  const words = "lorem ipsum dolor sit amet ".repeat(30);

  test("/compact typed during a running tool stops the turn and compacts; it is not sent as a steer", async () => {
    const { tmux, world } = await start(
      {
        responses: [
          { when: "context summarization assistant", text: "## Goal\nSummarised mid-run." },
          { text: "one" },
          // The tool runs until it is stopped.
          { toolCalls: [{ name: "bash", arguments: { command: "while true; do sleep 0.05; done" } }] },
          { text: "after" },
        ],
      } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 50 } } },
    );
    tmux.type(`first ${words}`);
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    tmux.type(`second ${words}`);
    tmux.sendKeys("Enter");
    await tmux.waitFor("● bash");
    tmux.type("/compact");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Compacted");
    const entries = sessionEntries(world);
    expect(entries.filter((e) => e.type === "compaction")).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toContain('"text":"/compact"');
    expect(world.llm.requests.some((r) => JSON.stringify(r.body).includes("/compact"))).toBe(false);
    // The turn was stopped: the tool's result says so, and the model was not asked again.
    const result = entries.find((e) => e.type === "message" && (e.message as { role: string }).role === "toolResult");
    expect(result).toMatchObject({ message: { isError: true } });
    const answers = world.llm.requests.filter((r) => !JSON.stringify(r.body).includes("context summarization assistant"));
    expect(answers).toHaveLength(2);
  });

  /** pig with two long turns behind it (enough to compact), and a summariser answering `summary`. */
  async function compactableSession(summary: ScriptResponse, after: string, width?: number) {
    const started = await start(
      { responses: [{ when: "context summarization assistant", ...summary }, { text: "one" }, { text: "two" }, { text: after }] } as unknown as Script,
      { settings: { compaction: { keepRecentTokens: 50 } }, ...(width === undefined ? {} : { width }) },
    );
    for (const [i, reply] of ["one", "two"].entries()) {
      started.tmux.type(`${i === 0 ? "first" : "second"} ${words}`);
      started.tmux.sendKeys("Enter");
      // The answer, then the status line under it: the run is over.
      await started.tmux.waitFor(new RegExp(`^${reply}\\n↑\\d`, "m"));
    }
    return started;
  }

  const isSummary = (r: { body: unknown }) => JSON.stringify(r.body).includes("context summarization assistant");

  /** `/compact`, then `text` typed while its summary is held at the server: it is queued until the command ends. */
  async function typeDuringCompact(tmux: TmuxSession, world: PigWorld, text: string) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    world.llm.setBeforeAnswer((request) => (isSummary(request) ? held : undefined));
    tmux.type("/compact");
    tmux.sendKeys("Enter");
    while (!world.llm.requests.some(isSummary)) await Bun.sleep(10);
    tmux.type(text);
    tmux.sendKeys("Enter");
    await tmux.waitFor("queued until the current command ends");
    world.llm.setBeforeAnswer(undefined);
    release();
  }

  test("text sent while /compact works waits for it, then goes out on the compacted context", async () => {
    const { tmux, world } = await compactableSession({ text: "## Goal\nSummarised slowly." }, "answer after compaction");
    await typeDuringCompact(tmux, world, "typed during compaction");
    await tmux.waitFor("answer after compaction");
    const entries = sessionEntries(world);
    const compaction = entries.findIndex((e) => e.type === "compaction");
    const typed = entries.findIndex((e) => e.type === "message" && JSON.stringify(e.message).includes("typed during compaction"));
    expect(compaction).toBeGreaterThan(0);
    expect(typed).toBeGreaterThan(compaction);
    expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("Summarised slowly.");
  });

  test("the line saying text is queued wraps at the terminal's width like pig's other lines", async () => {
    const { tmux, world } = await compactableSession({ text: "## Goal\nSummarised." }, "answered after the wait", 40);
    // Two spaces, as typed: not a table's gap for the rest to hang under.
    const typed = "typed while  the summary is being written";
    await typeDuringCompact(tmux, world, typed);
    // The answer and the status line under it: the screen is still.
    const screen = await tmux.waitFor(/^answered after the wait\n↑\d/m);
    // Every row is one pig printed: none is a long line the terminal cut at its edge.
    tmux.expectNoRowCutByTheTerminal();
    // The notice's words are all there, over more than one row, each row from the left edge.
    const whole = `queued until the current command ends: ${typed}`;
    const notice = rowsHolding(screen, "queued until the current command", whole);
    expect(notice.join(" ").replace(/\s+/g, " ")).toContain(whole.replace(/\s+/g, " "));
    expect(notice.length).toBeGreaterThan(1);
    for (const row of notice) expect(row).toMatch(/^\S.{0,39}$/);
  });

  test("text sent while /compact works still goes out when the compaction fails", async () => {
    const { tmux, world } = await compactableSession({ error: { status: 400, message: "summary refused" } }, "answer to the held text");
    await typeDuringCompact(tmux, world, "typed during a failing compaction");
    await tmux.waitFor("answer to the held text");
    expect(JSON.stringify(world.llm.requests.at(-1)!.body)).toContain("typed during a failing compaction");
  });
});

describeNeeding("tmux", tmuxAvailable(), "interactive completion", () => {
  test("Tab completes a model name after /model", async () => {
    const { tmux } = await start(undefined);
    tmux.type("/model fake/fake-rea");
    tmux.sendKeys("Tab");
    await tmux.waitFor("/model fake/fake-reasoner");
  });

  test("Tab completes a path anywhere in the prompt; an @mention attaches the file it names", async () => {
    const { tmux, world } = await start(undefined, { files: { "docs/guide.md": "GUIDE CONTENT\n", "docs/other.md": "" } });
    tmux.type("compare docs/gu");
    tmux.sendKeys("Tab");
    await tmux.waitFor("› compare docs/guide.md");
    tmux.sendKeys("C-u");
    tmux.type("summarise @docs/guide.md please");
    tmux.sendKeys("Enter");
    await tmux.waitFor("attached: docs/guide.md");
    const screen = await tmux.waitFor(/↑\d/);
    // The echo names the file; its contents go to the model only.
    expect(screen).toContain(`[file ${join(world.cwd, "docs", "guide.md")}]`);
    expect(screen).not.toContain("GUIDE CONTENT");
    const body = JSON.stringify(world.llm.requests[0]!.body);
    expect(body).toContain(`<file name=\\"${join(world.cwd, "docs", "guide.md")}\\">\\nGUIDE CONTENT`);
    expect(body).toContain("summarise @docs/guide.md please");
  });

  test("/skill: commands are offered unless enableSkillCommands is off", async () => {
    const skill = { "skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint the project\n---\nRun the linter." };
    const on = await start(undefined, { agentFiles: skill });
    on.tmux.type("/skil");
    on.tmux.sendKeys("Tab");
    await on.tmux.waitFor("/skill:lint");
    const off = await start(undefined, { agentFiles: skill, settings: { enableSkillCommands: false } });
    // Several commands start with "/s": Tab lists them, which shows the answer came for this text.
    off.tmux.type("/s");
    off.tmux.sendKeys("Tab");
    const screen = await off.tmux.waitFor("/settings");
    expect(screen).toContain("/session");
    expect(screen).not.toContain("/skill:lint");
  });
});

describeNeeding("tmux", tmuxAvailable(), "first run", () => {
  test("without a model the setup asks for a server, stores it, and pig works with it", async () => {
    const world = await createWorld({ llm: { mode: "text" } });
    track(world);
    // A fresh agent directory: no models.json, no settings, no keys in the environment.
    const { rmSync } = await import("node:fs");
    rmSync(join(world.agentDir, "models.json"));
    rmSync(join(world.agentDir, "settings.json"));
    const tmux = open(world);
    await tmux.waitFor("Provider");
    // Up from the first option wraps to the last one.
    tmux.sendKeys("Up");
    await tmux.waitFor(/● Another OpenAI-compatible server/);
    tmux.sendKeys("Enter");
    await tmux.waitFor("Server URL");
    tmux.type(`${world.llm.url}/v1`);
    tmux.sendKeys("Enter");
    await tmux.waitFor("name for this provider");
    tmux.sendKeys("Enter");
    await tmux.waitFor("API key");
    tmux.type("secret-key");
    tmux.sendKeys("Enter");
    await tmux.waitFor("›");
    tmux.type("hello");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    expect(world.llm.requests.at(-1)!.headers.authorization).toBe("Bearer secret-key");
    const models = JSON.parse(readFileSync(join(world.agentDir, "models.json"), "utf8"));
    expect(Object.keys(models.providers)).toEqual(["custom"]);
  });
});
