/**
 * The agent end to end, through the built binary: retries, failures, aborts, invalid tool
 * arguments and a missing key — each leaves the session file as a person would want it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import type { Script } from "../helpers/fake-llm/server.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

const FAST_RETRY = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 20 } };

async function world(script: Script, options: WorldOptions = {}): Promise<PigWorld> {
  const w = await createWorld({ ...options, llm: { ...options.llm, script } });
  worlds.push(w);
  return w;
}

/** Resolves once `check` holds; fails the test with `what` if it never does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

type Json = Record<string, unknown>;

/** `pig --mode json <prompt>` running, with its events collected as they arrive. */
function spawnJson(w: PigWorld, prompt: string) {
  const proc = Bun.spawn([pigBinary(), "--mode", "json", prompt], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const events: Json[] = [];
  const stderr = new Response(proc.stderr).text();
  const reading = (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of proc.stdout) {
      rest += decoder.decode(chunk, { stream: true });
      for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
        events.push(JSON.parse(rest.slice(0, nl)));
        rest = rest.slice(nl + 1);
      }
    }
  })();
  return {
    proc,
    events,
    /**
     * The text of the answer streaming now, put together from its deltas as a client does
     * (the wire's `message_update` carries only what changed).
     */
    partialText(): string | undefined {
      const start = events.findLastIndex((e) => e.type === "message_start" && (e.message as { role?: string }).role === "assistant");
      if (start < 0) return undefined;
      return events
        .slice(start + 1)
        .map((e) => (e.type === "message_update" ? (e.assistantMessageEvent as { type: string; delta?: string }) : undefined))
        .flatMap((d) => (d?.type === "text_delta" ? [d.delta ?? ""] : []))
        .join("");
    },
    async exit(): Promise<number> {
      const [code] = await Promise.all([proc.exited, reading, stderr]);
      return code;
    },
  };
}

/** The entries of the only session file the run wrote. */
function sessionEntries(w: PigWorld): Record<string, unknown>[] {
  const root = join(w.agentDir, "sessions");
  const [dir] = readdirSync(root);
  const [file] = readdirSync(join(root, dir!)).filter((n) => n.endsWith(".jsonl"));
  return readFileSync(join(root, dir!, file!), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

function messages(w: PigWorld): Record<string, unknown>[] {
  return sessionEntries(w)
    .filter((e) => e.type === "message")
    .map((e) => e.message as Record<string, unknown>);
}

describe("retries", () => {
  test("a 429 then a 500 are retried with backoff, and the answer arrives", async () => {
    const w = await world(
      [{ error: { status: 429, message: "slow down" } }, { error: { status: 500, message: "boom" } }, { text: "finally" }],
      { settings: FAST_RETRY },
    );
    const result = await w.run(["--mode", "json", "go"]);
    expect(result.code).toBe(0);
    const events = result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const retries = events.filter((e) => e.type.startsWith("auto_retry"));
    expect(retries).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 2, delayMs: 20, errorMessage: "429 slow down" },
      { type: "auto_retry_start", attempt: 2, maxAttempts: 2, delayMs: 40, errorMessage: "500 boom" },
      { type: "auto_retry_end", success: true, attempt: 2 },
    ]);
    expect(w.llm.requests).toHaveLength(3);
    // Every failed attempt stays in the file, chained before the answer.
    const stored = messages(w);
    expect(stored.map((m) => m.stopReason ?? m.role)).toEqual(["system", "user", "error", "error", "stop"]);
    // The failed attempts are not sent to the model again.
    expect(JSON.stringify(w.llm.requests[2]!.body)).not.toContain("slow down");
  });

  test("when retries run out the error is reported and the exit code is a server error's", async () => {
    const w = await world([{ error: { status: 503, message: "down" }, repeat: 3 }], { settings: FAST_RETRY });
    const result = await w.run(["-p", "go"]);
    expect(result.code).toBe(5);
    // A line per retry, then what failed, where, and after how many attempts.
    expect(result.stderr).toBe(
      "pig: fake/fake-model: 503 down — retry 1/2 in 20ms\n" +
        "pig: fake/fake-model: 503 down — retry 2/2 in 40ms\n" +
        `pig: fake/fake-model at ${w.llm.url}/v1/chat/completions failed after 3 attempts: 503 down\n`,
    );
    expect(w.llm.requests).toHaveLength(3);
    expect(messages(w).filter((m) => m.role === "assistant")).toHaveLength(3);
  });

  test("a server asking to wait longer than allowed fails at once with a clear message", async () => {
    const w = await world([{ error: { status: 429, message: "later", headers: { "retry-after": "600" } } }], {
      settings: { retry: { ...FAST_RETRY.retry, provider: { maxRetryDelayMs: 1000 } } },
    });
    const result = await w.run(["-p", "go"]);
    // Still a rate limit (4), only one not worth waiting for.
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("600");
    expect(result.stderr).toContain("maxRetryDelayMs");
    expect(w.llm.requests).toHaveLength(1);
  });

  test("non-transient errors (400) are not retried", async () => {
    const w = await world([{ error: { status: 400, message: "bad request body" } }], { settings: FAST_RETRY });
    const result = await w.run(["-p", "go"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`pig: fake/fake-model at ${w.llm.url}/v1/chat/completions failed after 1 attempt: 400 bad request body\n`);
    expect(w.llm.requests).toHaveLength(1);
  });
});

describe("broken streams", () => {
  test("a disconnect mid-stream keeps the partial text, marks it an error, and is retried", async () => {
    const w = await world(
      [{ text: "this answer is cut off in the middle", chunkSize: 4, disconnectAfterChunks: 3 }, { text: "second try" }],
      { settings: FAST_RETRY, llm: { holdDisconnects: true } },
    );
    const run = spawnJson(w, "go");
    // The server's first chunk only opens the message; the cut comes once pig has shown the
    // two text chunks sent before it.
    await until(() => run.partialText() === "this ans", "the partial text");
    w.llm.dropOpenStreams();
    expect(await run.exit()).toBe(0);
    const answers = messages(w).filter((m) => m.role === "assistant");
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ stopReason: "error", errorMessage: "terminated", content: [{ type: "text", text: "this ans" }] });
    expect(answers[1]).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "second try" }] });
  });

  test("an error event mid-stream is persisted with the text so far", async () => {
    const w = await world([{ text: "partial then boom", midStreamError: "exploded" }], { settings: { retry: { enabled: false } } });
    const result = await w.run(["-p", "go"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`pig: fake/fake-model at ${w.llm.url}/v1/chat/completions failed after 1 attempt: exploded\n`);
    expect(messages(w).at(-1)).toMatchObject({ stopReason: "error", errorMessage: "exploded" });
  });
});

describe("tools", () => {
  test("invalid arguments go back to the model as an error result it can fix", async () => {
    const w = await world([
      { toolCalls: [{ name: "read", arguments: { offset: "not a number" } }] },
      { toolCalls: [{ name: "write", arguments: { path: "ok.txt", content: "fixed" } }] },
      { text: "done" },
    ]);
    const result = await w.run(["-p", "go"]);
    expect(result.code).toBe(0);
    const [firstResult] = messages(w).filter((m) => m.role === "toolResult");
    expect(firstResult).toMatchObject({ toolName: "read", isError: true });
    const text = (firstResult!.content as { text: string }[])[0]!.text;
    expect(text).toStartWith('Validation failed for tool "read":');
    expect(text).toContain("path");
    expect(text).toContain('Received arguments:\n{\n  "offset": "not a number"\n}');
    expect(readFileSync(join(w.cwd, "ok.txt"), "utf8")).toBe("fixed");
  });

  test("an unknown tool is reported to the model", async () => {
    const w = await world([{ toolCalls: [{ name: "teleport", arguments: {} }] }, { text: "ok then" }]);
    await w.run(["-p", "go"]);
    const [toolResult] = messages(w).filter((m) => m.role === "toolResult");
    expect(toolResult).toMatchObject({ isError: true, content: [{ type: "text", text: "Tool teleport not found" }] });
  });
});

describe("abort", () => {
  test("Ctrl+C mid-stream saves the partial answer as aborted", async () => {
    const w = await world([{ text: "streaming slowly forever and ever", chunkSize: 4, stallAfterChunks: 2 }]);
    const run = spawnJson(w, "go");
    // Role chunk, then one text chunk: the stream stalls after "stre".
    await until(() => run.partialText() === "stre", "the first text chunk");
    run.proc.kill("SIGINT");
    expect(await run.exit()).toBe(130);
    expect(messages(w).at(-1)).toMatchObject({
      role: "assistant",
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      content: [{ type: "text", text: "stre" }],
    });
  });

  test("Ctrl+C mid-tool kills the command and records the result", async () => {
    const w = await world([{ toolCalls: [{ name: "bash", arguments: { command: "touch started; sleep 30" } }] }, { text: "never" }]);
    const run = spawnJson(w, "go");
    await until(() => existsSync(join(w.cwd, "started")), "the command to start");
    const interruptedAt = Date.now();
    run.proc.kill("SIGINT");
    expect(await run.exit()).toBe(130);
    // Far less than the command's 30 s sleep: it was killed, not waited for.
    expect(Date.now() - interruptedAt).toBeLessThan(10_000);
    const toolResult = messages(w).find((m) => m.role === "toolResult");
    expect(toolResult).toMatchObject({ toolName: "bash", isError: true });
    expect(JSON.stringify(toolResult!.content)).toContain("Command aborted");
    expect(w.llm.requests).toHaveLength(1);
  });
});

describe("keys", () => {
  test("no key for the provider: one clear message naming the variable, exit code 1", async () => {
    const w = await createWorld({});
    worlds.push(w);
    const result = await w.run(["--provider", "anthropic", "-p", "hi"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No API key found for anthropic");
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("models.json");
    expect(w.llm.requests).toHaveLength(0);
  });

  test("no model at all: the variables to set and the models.json path, exit code 1, nothing written", async () => {
    const w = await createWorld({});
    worlds.push(w);
    const { rmSync, existsSync } = await import("node:fs");
    rmSync(join(w.agentDir, "models.json"));
    rmSync(join(w.agentDir, "settings.json"));
    const result = await w.run(["-p", "hi"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toStartWith("pig: No models available.");
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(result.stderr).toContain(join(w.agentDir, "models.json"));
    expect(existsSync(join(w.agentDir, "sessions"))).toBe(false);
  });

  test("--api-key supplies the key for this run", async () => {
    const w = await world([{ text: "keyed" }]);
    const models = JSON.parse(readFileSync(join(w.agentDir, "models.json"), "utf8"));
    delete models.providers.fake.apiKey;
    models.providers.fake.apiKey = "!false";
    await Bun.write(join(w.agentDir, "models.json"), JSON.stringify(models));
    const result = await w.run(["--model", "fake/fake-model", "--api-key", "sk-from-flag", "-p", "hi"]);
    expect(result.stdout).toBe("keyed\n");
    expect(w.llm.requests[0]!.headers.authorization).toBe("Bearer sk-from-flag");
  });

  test("a key command runs for every request; a failing one is an error naming the provider and command", async () => {
    const w = await world([{ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" }]);
    const models = JSON.parse(readFileSync(join(w.agentDir, "models.json"), "utf8"));
    const counter = join(w.cwd, "..", `key-count-${Date.now()}`);
    models.providers.fake.apiKey = `!n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; echo tok$n`;
    await Bun.write(join(w.agentDir, "models.json"), JSON.stringify(models));
    const result = await w.run(["-p", "hi"]);
    expect(result.stdout).toBe("done\n");
    expect(w.llm.requests.map((r) => r.headers.authorization)).toEqual(["Bearer tok1", "Bearer tok2"]);

    models.providers.fake.apiKey = "!echo broken >&2; exit 3";
    await Bun.write(join(w.agentDir, "models.json"), JSON.stringify(models));
    const failed = await w.run(["-p", "hi"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toEndWith('failed after 1 attempt: Failed to resolve API key for provider "fake" from shell command: echo broken >&2; exit 3\n');
    expect(w.llm.requests).toHaveLength(2);
  });
});

describe("--models", () => {
  test("a new session starts on the first scoped model, with its level, unless the saved default is in scope", async () => {
    const w = await world([{ text: "a" }, { text: "b" }]);
    expect((await w.run(["--models", "fake/fake-reasoner:low", "-p", "hi"])).code).toBe(0);
    expect(w.llm.requests[0]!.body).toMatchObject({ model: "fake-reasoner", reasoning_effort: "low" });
    expect((await w.run(["--models", "fake/fake-reasoner,fake/fake-model", "-p", "hi"])).code).toBe(0);
    expect(w.llm.requests[1]!.body).toMatchObject({ model: "fake-model" });
  });

  test("cycling goes to the next scoped model with its own level", async () => {
    const w = await world([]);
    const rpc = await w.run(["--models", "fake/fake-model,fake/fake-reasoner:high", "--mode", "rpc"], {
      stdin: `${JSON.stringify({ type: "cycle_model", id: "c" })}\n`,
    });
    const response = rpc.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.id === "c");
    expect(response.data).toMatchObject({ model: { id: "fake-reasoner" }, thinkingLevel: "high", isScoped: true });
  });
});
