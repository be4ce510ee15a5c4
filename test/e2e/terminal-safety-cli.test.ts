/**
 * Text from outside pig on the command line's surfaces: `pig sessions list/show/tree` of a
 * session file that carries the hostile corpus (test/helpers/hostile-corpus.ts), `--list-models`
 * with it in a model's id, a provider's error on stderr, and `pig -p`'s answer, which a pipe
 * gets byte for byte and a terminal gets made safe. A failure line names the provider's URL
 * without the user and password in it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary, runPig } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { expectHostileShown, expectNoHostileBytes, HOSTILE, hostileSession } from "../helpers/hostile-text.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { tempDir } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});
async function world(script?: Script): Promise<PigWorld> {
  const made = await createWorld({ llm: script ? { script } : { mode: "text" } });
  worlds.push(made);
  return made;
}

describe("pig sessions on a session file that carries escape sequences and controls", () => {
  test("show, tree and list show every control and write none of them", () => {
    const { dir, path } = hostileSession();
    const env = { PIG_CODING_AGENT_DIR: tempDir() };
    const show = runPig(["sessions", "show", path], { env });
    expect(show.code).toBe(0);
    for (const what of ["asked", "answered", "result", "named"]) expectHostileShown(show.stdout.split("\n").find((l) => l.includes(`${what} HOSTILE-START`))!);
    // A tool call's arguments are shown as JSON, which writes ESC as \u001b; the C1 and bidi controls JSON leaves are shown.
    expect(show.stdout).toContain("true # HOSTILE-START \\u001b[2K \\u001b[1A");
    expect(show.stdout).toContain("\\u009b31m before\\rafter ab\\bc \\u202eevil\\u202c \\u2066iso\\u2069 HOSTILE-END\"})");
    expectNoHostileBytes(show.stdout);

    const tree = runPig(["sessions", "tree", path], { env });
    expect(tree.code).toBe(0);
    expectHostileShown(tree.stdout.split("\n").find((l) => l.includes("label HOSTILE-START"))!);
    expect(tree.stdout).toContain("named HOSTILE-START ␛[2K ␛[1A");
    expectNoHostileBytes(tree.stdout);

    const list = runPig(["sessions", "list", "--session-dir", dir], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("named HOSTILE-START ␛[2K ␛[1A");
    expectNoHostileBytes(list.stdout);
  });

  test("--json stays the file's data: the same strings, controls included, escaped as JSON escapes them", () => {
    const { path } = hostileSession();
    const show = runPig(["sessions", "show", path, "--json"], { env: { PIG_CODING_AGENT_DIR: tempDir() } });
    expect(show.code).toBe(0);
    const context = JSON.parse(show.stdout) as { messages: { content: { text?: string }[] }[] };
    expect(context.messages[0]!.content[0]!.text).toBe(`asked ${HOSTILE}`);
  });
});

describe("models, provider errors and answers outside the interactive mode", () => {
  test("--list-models shows a model id with controls in it visibly", async () => {
    const w = await world();
    const file = join(w.agentDir, "models.json");
    const models = JSON.parse(readFileSync(file, "utf8"));
    models.providers.fake.models[0].id = `model-${HOSTILE}`;
    writeFileSync(file, JSON.stringify(models));
    const listed = await w.run(["--list-models"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("model-HOSTILE-START ␛[2K ␛[1A");
    expectNoHostileBytes(listed.stdout);
  });

  test("a provider's error on stderr is shown safe, and the URL of the failure line has no credentials", async () => {
    const w = await world([{ error: { status: 400, message: `refused ${HOSTILE}` } }] as unknown as Script);
    const file = join(w.agentDir, "models.json");
    const models = JSON.parse(readFileSync(file, "utf8"));
    models.providers.fake.baseUrl = models.providers.fake.baseUrl.replace("http://", "http://alice:s3cret-pass@");
    writeFileSync(file, JSON.stringify(models));
    const failed = await w.run(["-p", "go"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("refused HOSTILE-START ␛[2K ␛[1A");
    expectHostileShown(failed.stderr);
    expectNoHostileBytes(failed.stderr);
    expect(failed.stderr).toMatch(/at http:\/\/\*\*\*@127\.0\.0\.1:\d+\//);
    expect(failed.stderr).not.toContain("s3cret-pass");
  });

  test("-p writes the answer byte for byte into a pipe", async () => {
    const w = await world([{ text: `answer ${HOSTILE}` }] as unknown as Script);
    const piped = await w.run(["-p", "go"]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`answer ${HOSTILE}\n`);
  });
});

describeNeeding("tmux", tmuxAvailable(), "pig -p on a terminal", () => {
  test("the answer is made safe: every control shown, none written", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const w = await world([{ text: `answer ${HOSTILE}` }] as unknown as Script);
    w.llm.setBeforeAnswer(() => held);
    const tmux = TmuxSession.start({ command: [pigBinary(), "-p", "go"], cwd: w.cwd, width: 250, height: 20, env: { ...w.env, TERM: "xterm-256color" } });
    try {
      const raw = tmux.recordOutput();
      // The answer is held until the output is watched.
      await waitUntil(() => w.llm.requests.length === 1);
      release();
      // What pig wrote, as the terminal received it (the screen of a pane whose program has
      // exited is not always kept).
      await waitUntil(() => raw().includes("HOSTILE-END"));
      await tmux.waitForExit();
      expect(raw()).toContain("answer HOSTILE-START ␛[2K");
      expectHostileShown(raw());
      expectNoHostileBytes(raw());
    } finally {
      tmux.kill();
    }
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(20);
  }
  expect(check()).toBe(true);
}
