/**
 * How a headless run says why it failed: each kind of failure (a bad key, a rate limit, a server
 * error, a server nobody answers on, a context too long, an answer cut at the output limit) has
 * its own exit code in `-p` and `--mode json` (so has a run an extension stopped), and JSON
 * mode's last line (`agent_settled`) names it as `failureKind`. Through the built binary,
 * against the fake LLM server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { closedPort } from "../helpers/closed-port.ts";
import type { ScriptResponse } from "../helpers/fake-llm/server.ts";
import { createWorld, fakeModelsJson, type PigWorld } from "../helpers/pig-env.ts";

// Retries off: each transient failure is the final word at once (retries are tested elsewhere).
let world: PigWorld;
beforeAll(async () => {
  world = await createWorld({ settings: { retry: { enabled: false } } });
});
afterAll(() => world.close());

interface Case {
  kind: string;
  code: number;
  response: ScriptResponse;
  stderr: RegExp;
}

const CASES: Case[] = [
  { kind: "auth", code: 3, response: { error: { status: 401, message: "Incorrect API key provided" } }, stderr: /failed after 1 attempt: 401 Incorrect API key provided/ },
  { kind: "rate_limit", code: 4, response: { error: { status: 429, message: "Rate limit reached" } }, stderr: /failed after 1 attempt: 429 Rate limit reached/ },
  { kind: "server_error", code: 5, response: { error: { status: 503, message: "The server is overloaded" } }, stderr: /failed after 1 attempt: 503 The server is overloaded/ },
  {
    kind: "context_overflow",
    code: 7,
    // The fallback answers the retry after the overflow recovery's compaction the same way.
    response: { error: { status: 400, message: "This model's maximum context length is 128000 tokens" } },
    stderr: /maximum context length is 128000 tokens/,
  },
  { kind: "other", code: 1, response: { error: { status: 400, message: "max_tokens is too large" } }, stderr: /failed after 1 attempt: 400 max_tokens is too large/ },
];

function lastLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
}

describe("a failed answer's kind", () => {
  for (const { kind, code, response, stderr } of CASES) {
    test(`${kind}: -p exits ${code} with the provider's words on stderr`, async () => {
      world.llm.setScript({ responses: [response], fallback: response });
      const run = await world.run(["--no-session", "-p", "hello"]);
      expect(run.stderr).toMatch(stderr);
      expect(run.stdout).toBe("");
      expect(run.code).toBe(code);
    });

    test(`${kind}: --mode json exits ${code}, its last line agent_settled with failureKind "${kind}"`, async () => {
      world.llm.setScript({ responses: [response], fallback: response });
      const run = await world.run(["--no-session", "--mode", "json", "hello"]);
      expect(run.stderr).toMatch(stderr);
      expect(lastLine(run.stdout)).toEqual({ type: "agent_settled", aborted: false, failureKind: kind });
      expect(run.code).toBe(code);
    });
  }

  test("unreachable: a closed port exits 6 in -p and names the kind in --mode json", async () => {
    const unreachable = await createWorld({ settings: { retry: { enabled: false } } });
    try {
      writeFileSync(join(unreachable.agentDir, "models.json"), JSON.stringify(fakeModelsJson(`http://127.0.0.1:${closedPort()}`, {})));
      const print = await unreachable.run(["--no-session", "-p", "hello"]);
      expect(print.stderr).toContain("Connection error. (ECONNREFUSED");
      expect(print.code).toBe(6);
      const json = await unreachable.run(["--no-session", "--mode", "json", "hello"]);
      expect(lastLine(json.stdout)).toEqual({ type: "agent_settled", aborted: false, failureKind: "unreachable" });
      expect(json.code).toBe(6);
    } finally {
      await unreachable.close();
    }
  });

  test("aborted: an extension that stops the run exits 9 in -p and --mode json", async () => {
    const stop = join(world.cwd, "stop.ts");
    writeFileSync(stop, "export default function (pi) { pi.on(\"turn_start\", (_event, ctx) => { ctx.abort(); }); }\n");
    // The answer never comes on its own: only the extension's abort ends the run.
    world.llm.setScript({ responses: [{ hang: true }], fallback: { hang: true } });
    const print = await world.run(["--no-session", "-e", stop, "-p", "hello"]);
    expect(print.stderr).toBe("Request was aborted\n");
    expect(print.code).toBe(9);
    const json = await world.run(["--no-session", "-e", stop, "--mode", "json", "hello"]);
    expect(lastLine(json.stdout)).toEqual({ type: "agent_settled", aborted: true, failureKind: "aborted" });
    expect(json.code).toBe(9);
  });

  test("a good answer exits 0 and its agent_settled has no failureKind", async () => {
    world.llm.setScript({ responses: [{ text: "All fine." }] });
    const run = await world.run(["--no-session", "--mode", "json", "hello"]);
    expect(lastLine(run.stdout)).toEqual({ type: "agent_settled", aborted: false });
    expect(run.code).toBe(0);
  });
});

describe("an answer cut at the output limit", () => {
  const cut: ScriptResponse = { text: "The three steps are: first, read the", finishReason: "length" };

  test("-p prints what came, warns on stderr what happened and what to do, and exits 8", async () => {
    world.llm.setScript({ responses: [cut] });
    const run = await world.run(["--no-session", "-p", "hello"]);
    expect(run.stdout).toBe("The three steps are: first, read the\n");
    expect(run.stderr).toMatch(/^pig: the answer from fake\/fake-model was cut off at the model's output limit \(\d+ output tokens\): raise the model's maxTokens \(models\.json\) or ask for a shorter answer\n$/);
    expect(run.code).toBe(8);
  });

  test("--mode json keeps the answer in its events, names cut_off and exits 8", async () => {
    world.llm.setScript({ responses: [cut] });
    const run = await world.run(["--no-session", "--mode", "json", "hello"]);
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; message?: { role: string; stopReason?: string } });
    const end = events.findLast((e) => e.type === "message_end" && e.message?.role === "assistant");
    expect(end?.message?.stopReason).toBe("length");
    expect(lastLine(run.stdout)).toEqual({ type: "agent_settled", aborted: false, failureKind: "cut_off" });
    expect(run.stderr).toContain("was cut off at the model's output limit");
    expect(run.code).toBe(8);
  });

  test("a cut answer before the last prompt lets the next one go on; the exit code is the last answer's", async () => {
    world.llm.setScript({ responses: [cut, { text: "Done." }] });
    const run = await world.run(["--no-session", "-p", "first", "second"]);
    expect(run.stdout).toBe("Done.\n");
    expect(run.code).toBe(0);
  });
});
