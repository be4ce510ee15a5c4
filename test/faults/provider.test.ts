/**
 * Provider faults against the real binary, for each of the three APIs: rate limits with and
 * without retry-after, server errors, a refused connection, a connection reset, stalls (no
 * headers, headers and no body, mid-stream), malformed event streams, truncated tool-call JSON,
 * HTML error pages, a 100 MB body and context overflow in every provider's wording. Each case
 * checks pig's promises: the run recovers, or ends with one line naming provider, model, URL
 * and attempts; each retry is visible; the session file stays consistent and reopens.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FailureKind } from "../../src/ai/failure-kind.ts";
import { EXIT_CODES } from "../../src/modes/run-outcome.ts";
import type { Script, ScriptResponse } from "../helpers/fake-llm/server.ts";
import type { FixtureApi } from "../helpers/pig-env.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";
import { runCases } from "./figures.ts";
import { OVERFLOWS, SUMMARY, words } from "./overflow-wordings.ts";
import {
  answers,
  APIS,
  checkSession,
  closedPort,
  concurrently,
  endpointFor,
  expectFailureLine,
  FAST_RETRY,
  faultWorld,
  headersOnlyServer,
  IDLE_MS,
  jsonEvents,
  retryLines,
  rpcRun,
  runPig,
} from "./provider-helpers.ts";

const STALL_SETTINGS = { retry: { ...FAST_RETRY, provider: { idleTimeoutMs: IDLE_MS } } };
const apiLabel = (api: FixtureApi) => api.replace("openai-", "").replace("-messages", "");

interface Recovery {
  settings?: Record<string, unknown>;
  /** The final answer's text. */
  answer?: string;
  /** The stop reasons of the answers after the failed ones. */
  then?: string[];
}

/** A case that recovers: print mode, one retry line per failed attempt, the answer on stdout. */
async function expectRecovery(api: FixtureApi, script: Script, failed: number, options: Recovery = {}) {
  const w = await faultWorld(api, script, options.settings ? { settings: options.settings } : {});
  const run = await runPig(w, ["-p", "go"]);
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: `${options.answer ?? "ok"}\n` });
  expect(retryLines(run.stderr)).toHaveLength(failed);
  const then = options.then ?? ["stop"];
  expect(w.llm.requests).toHaveLength(failed + then.length);
  const messages = await checkSession(w);
  expect(answers(messages).map((m) => m.stopReason)).toEqual([...Array(failed).fill("error"), ...then]);
  return { w, run, messages };
}

interface GiveUp {
  settings?: Record<string, unknown>;
  baseUrl?: string;
  /** JSON mode: retries are `auto_retry_*` events on stdout; the final line is still on stderr. */
  json?: boolean;
  /** The kind of failure the exit code says (docs/cli-integration.md); `other` (1) when not given. */
  kind?: FailureKind;
}

/** A case that gives up: the exit code of its kind, each retry visible, and the final line on stderr. */
async function expectGiveUp(api: FixtureApi, script: Script, attempts: number, reason: RegExp, options: GiveUp = {}) {
  const w = await faultWorld(api, script, options);
  const run = await runPig(w, options.json ? ["--mode", "json", "go"] : ["-p", "go"]);
  expect(run.code).toBe(EXIT_CODES[options.kind ?? "other"]);
  if (options.json) {
    const retries = jsonEvents(run.stdout).filter((e) => String(e.type).startsWith("auto_retry"));
    const starts = Array.from({ length: attempts - 1 }, (_, i) => ({ type: "auto_retry_start", attempt: i + 1 }));
    const end = attempts > 1 ? [{ type: "auto_retry_end", success: false, attempt: attempts - 1 }] : [];
    expect(retries).toMatchObject([...starts, ...end]);
    expect(retryLines(run.stderr)).toEqual([]);
  } else {
    expect(run.stdout).toBe("");
    expect(retryLines(run.stderr)).toHaveLength(attempts - 1);
  }
  const shown = expectFailureLine(run.stderr, endpointFor(api, options.baseUrl ?? w.llm.url), attempts, reason);
  const messages = await checkSession(w);
  expect(answers(messages).map((m) => m.stopReason)).toEqual(Array(attempts).fill("error"));
  return { w, run, shown, messages };
}

const ok: ScriptResponse = { text: "ok" };

describe("provider faults", () => {
  test("HTTP 429 without retry-after: backoff retries, then the answer or a clear end", async () => {
    const limited = (api: FixtureApi): ScriptResponse => ({ error: { status: 429, message: `Rate limit reached for fake-model on ${apiLabel(api)}` } });
    const cases = APIS.flatMap((api) => [
      { api, variant: "recovers" as const },
      { api, variant: "gives up" as const },
    ]);
    const failures = await runCases("HTTP 429 without retry-after", cases, (c) => `${c.api} ${c.variant}`, async ({ api, variant }) => {
      if (variant === "recovers") {
        const { run } = await expectRecovery(api, [limited(api), limited(api), ok], 2);
        // Exponential backoff from baseDelayMs: 10 ms, then 20 ms.
        expect(retryLines(run.stderr).map((l) => l.replace(/.* — /, ""))).toEqual(["retry 1/2 in 10ms", "retry 2/2 in 20ms"]);
      } else {
        const { shown } = await expectGiveUp(api, [{ ...limited(api), repeat: 3 }], 3, /Rate limit reached for fake-model/, { kind: "rate_limit" });
        expect(shown).toStartWith("429 ");
      }
    });
    expect(failures).toEqual([]);
  });

  test("HTTP 429 with retry-after: the wait the server asks for, or a clear refusal when it is too long", async () => {
    type Case = { api: FixtureApi; header: Record<string, string>; waitMs: number | undefined };
    const cases = APIS.flatMap((api): Case[] => [
      { api, header: { "retry-after": "1" }, waitMs: 1000 },
      { api, header: { "retry-after-ms": "150" }, waitMs: 150 },
      { api, header: { "retry-after": "600" }, waitMs: undefined },
    ]);
    const check = concurrently(cases, 3, async ({ api, header, waitMs }) => {
      const limited: ScriptResponse = { error: { status: 429, message: "Too many requests", headers: header } };
      if (waitMs === undefined) {
        // Above retry.provider.maxRetryDelayMs: no retry, and the message says why.
        const settings = { retry: { ...FAST_RETRY, provider: { maxRetryDelayMs: 5000 } } };
        const { w, shown } = await expectGiveUp(api, [limited, ok], 1, /600s/, { settings, kind: "rate_limit" });
        expect(shown).toMatch(/max/i);
        expect(w.llm.requests).toHaveLength(1);
        return;
      }
      const w = await faultWorld(api, [limited, ok]);
      const run = await runPig(w, ["--mode", "json", "go"]);
      expect(run.code).toBe(0);
      const retries = jsonEvents(run.stdout).filter((e) => String(e.type).startsWith("auto_retry"));
      expect(retries).toEqual([
        { type: "auto_retry_start", attempt: 1, maxAttempts: 2, delayMs: waitMs, errorMessage: expect.stringContaining("429") },
        { type: "auto_retry_end", success: true, attempt: 1 },
      ]);
      await checkSession(w);
    });
    const failures = await runCases("HTTP 429 with retry-after", cases, (c) => `${c.api} ${JSON.stringify(c.header)}`, check);
    expect(failures).toEqual([]);
  });

  test("HTTP 500, 502, 503, 529: retried, then the answer or a clear end", async () => {
    const errors = [
      { status: 500, message: "Internal server error" },
      { status: 502, message: "Bad gateway" },
      { status: 503, message: "Service unavailable" },
      { status: 529, message: "Overloaded" },
    ];
    const cases = APIS.flatMap((api) => errors.map((error, i) => ({ api, error, giveUp: i === 1 })));
    const failures = await runCases("HTTP 500, 502, 503, 529", cases, (c) => `${c.api} ${c.error.status}${c.giveUp ? " gives up" : ""}`, async ({ api, error, giveUp }) => {
      if (giveUp) {
        await expectGiveUp(api, [{ error, repeat: 3 }], 3, new RegExp(`^${error.status} .*${error.message}`), { json: true, kind: "server_error" });
        return;
      }
      const { run } = await expectRecovery(api, [{ error }, ok], 1);
      expect(retryLines(run.stderr)[0]).toContain(String(error.status));
    });
    expect(failures).toEqual([]);
  });

  test("connection refused on this machine: not retried (nothing listens there), an end that says where and why", async () => {
    const failures = await runCases("connection refused", APIS, (api) => api, async (api) => {
      const port = closedPort();
      const { shown } = await expectGiveUp(api, [ok], 1, /^Connection error\. \(ECONNREFUSED\b/, { baseUrl: `http://127.0.0.1:${port}`, kind: "unreachable" });
      // Never the bare words that once left a person guessing.
      expect(shown).not.toBe("Connection error.");
    });
    expect(failures).toEqual([]);
  });

  test("connection reset: before the answer, mid-text and mid-tool-call, retried and recovered", async () => {
    const write = { name: "write", arguments: { path: "reset.txt", content: "written once, whole" } };
    const cases = APIS.flatMap((api) => [
      { api, where: "before any byte", cut: { text: "never", disconnectAfterChunks: 0 } as ScriptResponse },
      { api, where: "mid-text", cut: { text: "this answer is cut off in the middle", chunkSize: 4, disconnectAfterChunks: 4 } as ScriptResponse },
      { api, where: "mid-tool-call", cut: { toolCalls: [write], chunkSize: 6, disconnectAfterChunks: 5 } as ScriptResponse },
    ]);
    const failures = await runCases("connection reset mid-stream", cases, (c) => `${c.api} ${c.where}`, async ({ api, where, cut }) => {
      if (where !== "mid-tool-call") {
        const { messages } = await expectRecovery(api, [cut, ok], 1);
        expect(answers(messages)[0]!.errorMessage).toMatch(where === "mid-text" ? /^terminated$/ : /^Connection error\. \(ECONNRESET\b/);
        return;
      }
      const { w, messages } = await expectRecovery(api, [cut, { toolCalls: [write] }, { text: "done" }], 1, { answer: "done", then: ["toolUse", "stop"] });
      expect(await Bun.file(join(w.cwd, "reset.txt")).text()).toBe("written once, whole");
      // The cut call was never run: one result, for the call that arrived whole.
      expect(messages.filter((m) => m.role === "toolResult")).toHaveLength(1);
    });
    expect(failures).toEqual([]);
  });

  test(`a stalled stream is given up after retry.provider.idleTimeoutMs (${IDLE_MS} ms) and retried`, async () => {
    const cases = APIS.flatMap((api) => [
      { api, stall: "no response headers" as const },
      { api, stall: "headers, then no body" as const },
      { api, stall: "mid-stream" as const },
      { api, stall: "mid-tool-call" as const },
      { api, stall: "a summary request" as const },
    ]);
    const check = concurrently(cases, 4, async ({ api, stall }) => {
      if (stall === "headers, then no body") {
        const server = headersOnlyServer();
        try {
          const settings = { retry: { ...STALL_SETTINGS.retry, maxRetries: 1 } };
          await expectGiveUp(api, [ok], 2, /^Stream idle timeout: the server sent nothing for 1s after its headers \(retry\.provider\.idleTimeoutMs\)$/, {
            settings,
            baseUrl: server.url,
            kind: "unreachable",
          });
          expect(server.requests()).toBe(2);
        } finally {
          server.close();
        }
        return;
      }
      if (stall === "a summary request") {
        // An overflow is compacted; the summary's first request hangs, and its retry makes it.
        const hungSummary: ScriptResponse = { when: "context summarization assistant", hang: true };
        const w = await faultWorld(api, [hungSummary, SUMMARY, { text: "first answer" }, OVERFLOWS[0]!.error, { text: "recovered" }], {
          contextWindow: 20000,
          settings: { ...STALL_SETTINGS, compaction: { reserveTokens: 4000, keepRecentTokens: 10 } },
        });
        const run = await runPig(w, ["--mode", "json", words("one", 800), words("two", 800)]);
        expect(run.code).toBe(0);
        const events = jsonEvents(run.stdout);
        expect(events.filter((e) => e.type === "compaction_end")).toMatchObject([{ reason: "overflow", willRetry: true, aborted: false }]);
        expect(events.filter((e) => e.type === "message_end").at(-1)!.message).toMatchObject({ content: [{ type: "text", text: "recovered" }] });
        // Three answers, the hung summary and its retry, and the summary of the overflowing turn's
        // beginning (Pi 0.87.1 summarises that turn apart, as a split turn).
        expect(w.llm.requests).toHaveLength(6);
        await checkSession(w);
        return;
      }
      const script: Script =
        stall === "no response headers"
          ? [{ hang: true }, ok]
          : stall === "mid-stream"
            ? [{ text: "an answer that stops half-way", chunkSize: 4, stallAfterChunks: 3 }, ok]
            : [{ toolCalls: [{ name: "bash", arguments: { command: "echo never run" } }], chunkSize: 6, stallAfterChunks: 4 }, ok];
      const { run, messages } = await expectRecovery(api, script, 1, { settings: STALL_SETTINGS });
      const why = stall === "no response headers" ? /no response from the server within 1s/ : /the server sent nothing for 1s after \d+ bytes/;
      expect(retryLines(run.stderr)[0]).toMatch(why);
      expect(answers(messages)[0]!.errorMessage).toMatch(why);
    });
    const failures = await runCases("stalled stream", cases, (c) => `${c.api} ${c.stall}`, check);
    expect(failures).toEqual([]);
  });

  test("malformed event streams: a clear end, or a retry when the stream just ended early", async () => {
    const unparsable: Record<FixtureApi, string> = {
      "openai-completions": 'data: {"choices":[{"delta":{"content":"a"}\n\n',
      "openai-responses": 'event: response.created\ndata: {"type":"response.created","response":{\n\n',
      "anthropic-messages": 'event: message_start\ndata: {"type":"message_start","message":{"id":\n\n',
    };
    const cases = APIS.flatMap((api) => [
      { api, body: unparsable[api], parses: false },
      { api, body: "this is not an event stream\nat all\n", parses: true },
    ]);
    const failures = await runCases("malformed SSE", cases, (c) => `${c.api} ${c.parses ? "no events" : "unparsable event"}`, async ({ api, body, parses }) => {
      const raw: ScriptResponse = { raw: { status: 200, contentType: "text/event-stream", body } };
      if (parses) {
        // Nothing the client can read: like a stream cut short, worth another attempt.
        await expectRecovery(api, [raw, ok], 1);
        return;
      }
      // The same bytes would come again: no retry, and the end says what was wrong.
      const { w } = await expectGiveUp(api, [raw, ok], 1, /JSON|parse/i);
      expect(w.llm.requests).toHaveLength(1);
    });
    expect(failures).toEqual([]);
  });

  test("truncated or malformed tool-call JSON is answered with an error, never run", async () => {
    const cases = APIS.flatMap((api) => [
      { api, call: { name: "write", arguments: '{"path": "half.txt", "content": "only the first ha' } },
      { api, call: { name: "bash", arguments: '{"command": "touch ran.txt",}' } },
    ]);
    const failures = await runCases("truncated tool-call JSON", cases, (c) => `${c.api} ${c.call.name}`, async ({ api, call }) => {
      const w = await faultWorld(api, [{ toolCalls: [call] }, { text: "understood" }]);
      const run = await runPig(w, ["-p", "go"]);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 0, stdout: "understood\n", stderr: "" });
      expect(existsSync(join(w.cwd, "half.txt")) || existsSync(join(w.cwd, "ran.txt"))).toBe(false);
      const messages = await checkSession(w);
      const result = messages.find((m) => m.role === "toolResult")!;
      expect(result).toMatchObject({ toolName: call.name, isError: true });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toContain("not valid JSON");
      expect(text).toContain(call.arguments);
      // The model is told, in the next request.
      expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("not valid JSON");
    });
    expect(failures).toEqual([]);
  });

  test("HTML error pages: a 502 from a proxy is retried and shown by its title; a 200 page fails at once", async () => {
    const page = (title: string) =>
      `<!DOCTYPE html>\n<html><head><title>${title}</title><style>body{font:1em sans-serif}</style></head>` +
      `<body><center><h1>${title}</h1></center><hr><center>nginx/1.25.3</center></body></html>\n`;
    const badGateway: ScriptResponse = { raw: { status: 502, contentType: "text/html", body: page("502 Bad Gateway") } };
    const portal: ScriptResponse = { raw: { status: 200, contentType: "text/html; charset=utf-8", body: page("Sign in to Guest Wi-Fi") } };
    const cases = APIS.flatMap((api) => [
      { api, variant: "502 recovers" },
      { api, variant: "502 gives up" },
      { api, variant: "200 page" },
    ]);
    const failures = await runCases("HTML error page", cases, (c) => `${c.api} ${c.variant}`, async ({ api, variant }) => {
      if (variant === "502 recovers") {
        const { run, messages } = await expectRecovery(api, [badGateway, ok], 1);
        expect(retryLines(run.stderr)[0]).toContain("502 (an HTML page: 502 Bad Gateway)");
        // The session keeps the server's own text.
        expect(answers(messages)[0]!.errorMessage).toContain("<title>502 Bad Gateway</title>");
      } else if (variant === "502 gives up") {
        const { shown } = await expectGiveUp(api, [{ ...badGateway, repeat: 3 }], 3, /^502 \(an HTML page: 502 Bad Gateway\)$/, { kind: "server_error" });
        expect(shown).not.toContain("<");
      } else {
        await expectGiveUp(api, [portal, ok], 1, /^The server answered 200 with an HTML page instead of an event stream: Sign in to Guest Wi-Fi$/);
      }
    });
    expect(failures).toEqual([]);
  });

  test("a 100 MB body is never held: an error page is read in part, an endless line or page fails early", async () => {
    const HUNDRED_MB = 100 * 1024 * 1024;
    // What pig's memory is after an ordinary answer: the measure for the faults.
    const baseline = await rpcRun("openai-completions", [ok]);
    expect(baseline.lines.filter((l) => l.type === "message_end").at(-1)!.message).toMatchObject({ stopReason: "stop" });
    const cases = APIS.flatMap((api) => [
      { api, body: "502 error page", script: [{ raw: { status: 502, contentType: "text/html", body: "<html><body>upstream failed</body></html>\n", repeatToBytes: HUNDRED_MB } }, ok] as Script },
      { api, body: "200 stream without a line break", script: [{ raw: { status: 200, contentType: "text/event-stream", body: "x", repeatToBytes: HUNDRED_MB } }] as Script },
      { api, body: "200 HTML page", script: [{ raw: { status: 200, contentType: "text/html", body: "<p>portal</p>", repeatToBytes: HUNDRED_MB } }] as Script },
    ]);
    const failures = await runCases("100 MB response body", cases, (c) => `${c.api} ${c.body}`, async ({ api, body, script }) => {
      const { peak, lines, world } = await rpcRun(api, script);
      expect(peak).toBeLessThan(baseline.peak + 48 * 1024 * 1024);
      const ends = lines.filter((l) => l.type === "message_end" && (l.message as { role: string }).role === "assistant");
      const first = ends[0]!.message as { stopReason: string; errorMessage: string };
      expect(first.stopReason).toBe("error");
      expect(first.errorMessage.length).toBeLessThan(20 * 1024);
      if (body === "502 error page") {
        expect(first.errorMessage).toContain("the rest of the body was not read");
        expect(ends.at(-1)!.message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "ok" }] });
      } else if (body === "200 HTML page") {
        expect(first.errorMessage).toContain("HTML page instead of an event stream");
      } else {
        expect(first.errorMessage).toBe("Malformed event stream from fake: a line longer than 16 MiB without a line break");
      }
      await checkSession(world);
    });
    expect(failures).toEqual([]);
  });
});

describe("context overflow", () => {
  test("every provider's wording leads to a compaction and a retry of the same request", async () => {
    const cases = OVERFLOWS.flatMap((o, i) => (o.apis ?? APIS).map((api, j) => ({ ...o, api, print: (i + j) % 2 === 1 })));
    const check = concurrently(cases, 3, async ({ api, error, print }) => {
      const w = await faultWorld(api, [SUMMARY, { text: "first answer" }, error, { text: "recovered" }], {
        contextWindow: 20000,
        settings: { retry: FAST_RETRY, compaction: { reserveTokens: 4000, keepRecentTokens: 10 } },
      });
      const prompts = [words("one", 800), words("two", 800)];
      const run = await runPig(w, print ? ["-p", ...prompts] : ["--mode", "json", ...prompts]);
      expect(run.code).toBe(0);
      if (print) {
        expect({ stdout: run.stdout, stderr: run.stderr }).toEqual({ stdout: "recovered\n", stderr: "" });
      } else {
        const events = jsonEvents(run.stdout);
        expect(events.filter((e) => e.type === "compaction_end")).toMatchObject([{ reason: "overflow", willRetry: true, aborted: false }]);
        // Compaction, not the retry loop, answers an overflow.
        expect(events.filter((e) => String(e.type).startsWith("auto_retry"))).toEqual([]);
        const last = events.filter((e) => e.type === "message_end").at(-1)!;
        expect(last.message).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "recovered" }] });
      }
      // Three answers and two summaries: the history, then the overflowing turn's beginning
      // (Pi 0.87.1 summarises that turn apart, as a split turn).
      expect(w.llm.requests).toHaveLength(5);
      const messages = await checkSession(w);
      const failed = answers(messages).find((m) => m.stopReason === "error")!;
      // The provider's own words stay in the file: the overflow rules read them there.
      const wording = error.error?.message ?? "status code (no body)";
      expect(String(failed.errorMessage)).toContain(wording);
    });
    const failures = await runCases("context overflow", cases, (c) => `${c.api} ${c.source}`, check);
    expect(failures).toEqual([]);
  });
});

const { start } = interactivePig();

describeNeeding("tmux", tmuxAvailable(), "interactive mode", () => {
  test("a retry that works leaves one line and no error; giving up shows the error once with provider, model, URL and attempts", async () => {
    const unavailable: ScriptResponse = { error: { status: 503, message: "Service unavailable" } };
    const failures = await runCases("provider faults, interactive", APIS, (api) => api, async (api) => {
      const { tmux, world } = await start([unavailable, ok, { ...unavailable, repeat: 3 }], { api, settings: { retry: FAST_RETRY } });
      tmux.type("first");
      tmux.sendKeys("Enter");
      const retried = await tmux.waitFor(/\(retried once after: 503 Service unavailable[\s\S]*↑\d/);
      expect(retried).toMatch(/\nok\n/);
      expect(retried).not.toContain("Error:");
      tmux.type("second");
      tmux.sendKeys("Enter");
      const gaveUp = await tmux.waitFor(/second[\s\S]*Error: 503 Service unavailable.*\n.*gave up after 3 attempts/);
      expect(gaveUp).toContain(`fake/fake-model at ${endpointFor(api, world.llm.url)}, gave up after 3 attempts`);
      // Said once: the retries before giving up printed no error of their own.
      expect(gaveUp.slice(gaveUp.lastIndexOf("second")).split("Service unavailable").length - 1).toBe(1);
      expect(answers(await checkSession(world)).map((m) => m.stopReason)).toEqual(["error", "stop", "error", "error", "error"]);
    });
    expect(failures).toEqual([]);
  });
});
