/**
 * SIGINT, SIGTERM and SIGHUP during a run, in every mode, through the built binary: the run
 * stops, the session file keeps what happened until then (the prompt, the answer so far marked
 * aborted), and pig exits with 130, 143 or 129 — what a shell reports for a process the signal
 * killed. Each signal is sent once pig is in the state the test names (the request at the fake
 * server, the answer's first words streamed, on the screen), never after a delay.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import type { Script } from "../helpers/fake-llm/server.ts";
import { interactivePig, sessionEntries } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(script: Script): Promise<PigWorld> {
  const w = await createWorld({ llm: { script } });
  worlds.push(w);
  return w;
}

/** Resolves once `check` holds; fails the test with `what` if it never does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** The answer streams "Release notes" (the role chunk, then one text chunk) and then waits for ever. */
const STALLED: Script = [{ text: "Release notes for version 2", chunkSize: 13, stallAfterChunks: 2 }];
/** No answer at all until pig leaves. */
const HANGING: Script = [{ hang: true }];

const SIGNALS = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const;

type Json = Record<string, unknown>;

function messages(w: PigWorld): Json[] {
  return sessionEntries(w)
    .filter((e) => e.type === "message")
    .map((e) => e.message as Json)
    .filter((m) => m.role !== "system");
}

/** The saved conversation: the prompt, then the answer as far as it came, marked aborted. */
function expectSavedUntilStopped(w: PigWorld, prompt: string, partial: unknown[]): void {
  const saved = messages(w);
  expect(saved).toHaveLength(2);
  expect(saved[0]).toMatchObject({ role: "user", content: [{ type: "text", text: prompt }] });
  expect(saved[1]).toMatchObject({ role: "assistant", stopReason: "aborted", content: partial });
}

/** pig running non-interactively, its stdout lines collected as they come. */
function spawnPig(w: PigWorld, args: string[]) {
  const proc = Bun.spawn([pigBinary(), ...args], { cwd: w.cwd, env: w.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const lines: string[] = [];
  const stdout = (async () => {
    let rest = "";
    for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
        lines.push(rest.slice(0, nl));
        rest = rest.slice(nl + 1);
      }
    }
  })();
  const stderr = new Response(proc.stderr).text();
  return {
    proc,
    lines,
    async exit() {
      const [code, , err] = await Promise.all([proc.exited, stdout, stderr]);
      return { code, stderr: err };
    },
  };
}

const streamed = (lines: readonly string[]) => lines.some((line) => line.includes('"text_delta"'));

describe("print mode", () => {
  for (const [signal, code] of SIGNALS) {
    test(`${signal} while the request waits: exit ${code}, the prompt and an empty aborted answer are saved`, async () => {
      const w = await world(HANGING);
      const run = spawnPig(w, ["-p", "write the release notes"]);
      await until(() => w.llm.requests.length === 1, "the request at the server");
      run.proc.kill(signal);
      const { code: exit, stderr } = await run.exit();
      expect(exit).toBe(code);
      expect(stderr).toBe("Request was aborted\n");
      expectSavedUntilStopped(w, "write the release notes", []);
    });
  }
});

describe("JSON mode", () => {
  for (const [signal, code] of SIGNALS) {
    test(`${signal} mid-answer: exit ${code}, the words streamed so far are saved`, async () => {
      const w = await world(STALLED);
      const run = spawnPig(w, ["--mode", "json", "write the release notes"]);
      await until(() => streamed(run.lines), "the first words of the answer");
      run.proc.kill(signal);
      expect((await run.exit()).code).toBe(code);
      expectSavedUntilStopped(w, "write the release notes", [{ type: "text", text: "Release notes" }]);
    });
  }
});

describe("RPC mode", () => {
  for (const [signal, code] of SIGNALS) {
    test(`${signal} mid-answer: exit ${code}, the words streamed so far are saved`, async () => {
      const w = await world(STALLED);
      const client = new RpcClient({ cwd: w.cwd, env: w.env });
      client.send({ type: "prompt", message: "write the release notes" });
      await client.waitFor((line) => JSON.stringify(line).includes('"text_delta"'));
      expect(await client.terminate(signal)).toBe(code);
      expectSavedUntilStopped(w, "write the release notes", [{ type: "text", text: "Release notes" }]);
    });
  }
});

describeNeeding("tmux", tmuxAvailable(), "interactive mode", () => {
  const { open, track } = interactivePig();

  /** pig in tmux under sh, which then prints pig's exit code and whether the terminal is back in line mode. */
  async function startInteractive() {
    const w = track(await createWorld({ llm: { script: STALLED } }));
    const report = `"$0" "$@"; echo "exit $?"; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'`;
    const tmux = open(w, { command: ["sh", "-c", report, pigBinary(), "write the release notes"] });
    await tmux.waitFor("Release notes");
    const shell = tmux.panePid();
    const pid = Number(readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim());
    return { w, tmux, pid };
  }

  for (const [signal, code] of SIGNALS) {
    test(`${signal} mid-answer: exit ${code}, the answer so far saved, the terminal given back`, async () => {
      const { w, tmux, pid } = await startInteractive();
      process.kill(pid, signal);
      const screen = await tmux.waitFor(/^exit \d+\n-?icanon$/m);
      // Line mode again ("-icanon" would be the raw mode pig reads keys in).
      expect(screen).toMatch(new RegExp(`^exit ${code}\\nicanon$`, "m"));
      expectSavedUntilStopped(w, "write the release notes", [{ type: "text", text: "Release notes" }]);
    });
  }

  test("/quit mid-answer stops the run first: exit 0, the answer so far saved", async () => {
    const { w, tmux } = await startInteractive();
    tmux.type("/quit");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/^exit 0\nicanon$/m);
    expectSavedUntilStopped(w, "write the release notes", [{ type: "text", text: "Release notes" }]);
  });

  test("the terminal going away mid-answer: exit 129, the answer so far saved, no error", async () => {
    const w = track(await createWorld({ llm: { script: STALLED } }));
    const done = join(w.cwd, "exit-code");
    // sh outlives the terminal (it ignores the hangup; pig has its own handler) to write down pig's exit code.
    const report = `trap '' HUP; "$0" "$@" 2>stderr.txt; echo $? > exit-code`;
    const tmux = open(w, { command: ["sh", "-c", report, pigBinary(), "write the release notes"] });
    await tmux.waitFor("Release notes");
    tmux.kill();
    await until(() => existsSync(done) && readFileSync(done, "utf8").endsWith("\n"), "pig's exit code");
    expect(readFileSync(done, "utf8")).toBe("129\n");
    expect(readFileSync(join(w.cwd, "stderr.txt"), "utf8")).toBe("");
    expectSavedUntilStopped(w, "write the release notes", [{ type: "text", text: "Release notes" }]);
  });
});
