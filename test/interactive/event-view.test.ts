import { describe, expect, test } from "bun:test";
import { EventView } from "../../src/modes/interactive/event-view.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";
import type { BashExecutionMessage } from "../../src/session/format.ts";

function view() {
  const printed: string[] = [];
  const status: string[][] = [];
  const v = new EventView({ print: (t) => printed.push(t), setStatus: (l) => status.push([...l]), columns: () => 40 }, loadTheme("dark", [], false).theme, { showThinking: true });
  return { v, text: () => printed.join(""), status };
}

const message = (output: string, exitCode = 0): BashExecutionMessage =>
  ({ role: "bashExecution", command: "x", output, exitCode, cancelled: false, truncated: false, timestamp: 1 }) as BashExecutionMessage;

describe("! output in the view", () => {
  test("lines show as they arrive, a partial line once complete or at the end", () => {
    const { v, text } = view();
    v.shell.started();
    v.shell.output("one\ntw");
    expect(text()).toBe("  │ one\n");
    v.shell.output("o\nthree");
    v.shell.finished(message("one\ntwo\nthree"));
    expect(text()).toBe("  │ one\n  │ two\n  │ three\n");
    v.dispose();
  });

  test("a long output shows its first 200 lines live and its last 20 at the end", () => {
    const { v, text } = view();
    v.shell.started();
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`);
    v.shell.output(`${lines.join("\n")}\n`);
    v.shell.finished(message(`${lines.join("\n")}\n`, 2));
    const out = text();
    expect(out).toContain("│ line 200\n");
    expect(out).not.toContain("│ line 201\n");
    expect(out).toContain("… the last 20 lines:");
    expect(out).toContain("│ line 281\n");
    expect(out).toContain("│ line 300\n");
    expect(out).toContain("exit code 2");
    v.dispose();
  });

  test("a command that never started still stops the spinner", () => {
    const { v, status } = view();
    v.shell.started();
    expect(status.at(-1)!.some((l) => l.includes("running"))).toBe(true);
    v.shell.finished(undefined);
    expect(status.at(-1)).toEqual([]);
    v.dispose();
  });
});

describe("failed answers in the view", () => {
  const model = { id: "m1", name: "m1", api: "openai-completions", provider: "acme", baseUrl: "https://llm.example/v1", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 } as const;
  const failed = (errorMessage: string) =>
    ({ role: "assistant", content: [], api: "openai-completions", provider: "acme", model: "m1", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "error", errorMessage, timestamp: 1 }) as const;

  function failingView() {
    const printed: string[] = [];
    const v = new EventView({ print: (t) => printed.push(t), setStatus: () => {} }, loadTheme("dark", [], false).theme, {
      showThinking: true,
      models: (provider, id) => (provider === "acme" && id === "m1" ? { ...model, input: ["text"] } : undefined),
    });
    return { v, text: () => printed.join("") };
  }

  test("a retried failure is one updating line above the prompt; giving up prints the error once, with where and how many attempts", () => {
    const printed: string[] = [];
    const status: string[][] = [];
    const v = new EventView({ print: (t) => printed.push(t), setStatus: (l) => status.push([...l]) }, loadTheme("dark", [], false).theme, {
      showThinking: true,
      models: (provider, id) => (provider === "acme" && id === "m1" ? { ...model, input: ["text"] } : undefined),
    });
    v.handle({ type: "agent_start" });
    v.handle({ type: "message_start", message: { role: "user", content: "go", timestamp: 1 } });
    v.handle({ type: "message_end", message: failed("503 down") });
    v.handle({ type: "auto_retry_start", attempt: 1, maxAttempts: 1, delayMs: 1500, errorMessage: "503 down" });
    expect(status.at(-1)!.at(-1)).toMatch(/retrying in 2s \(1\/1\) · 503 down · Esc to stop$/);
    v.handle({ type: "message_start", message: failed("") });
    v.handle({ type: "message_end", message: failed('503 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}') });
    v.handle({ type: "auto_retry_end", success: false, attempt: 1, finalError: "503 down" });
    expect(printed.join("")).toBe(
      "› go\n" + "Error: 503 Overloaded (overloaded_error)\n  acme/m1 at https://llm.example/v1/chat/completions, gave up after 2 attempts\n",
    );
    v.dispose();
  });

  test("a retry that works leaves one dim line", () => {
    const { v, text } = failingView();
    v.handle({ type: "message_end", message: failed("529 overloaded") });
    v.handle({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "529 overloaded" });
    v.handle({ type: "auto_retry_end", success: true, attempt: 1 });
    expect(text()).toBe("(retried once after: 529 overloaded)\n");
    v.dispose();
  });

  test("a cancelled retry says so; a model pig does not know is still named", () => {
    const { v, text } = failingView();
    v.handle({ type: "message_end", message: { ...failed("<html><title>502 Bad Gateway</title></html>"), provider: "other" } });
    v.handle({ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" });
    expect(text()).toBe("Error: (an HTML page: 502 Bad Gateway)\n  other/m1\nRetry cancelled.\n");
    v.dispose();
  });
});

describe("an answer's blocks in the view", () => {
  const partial = {} as never;
  /** What the view prints of an answer streamed as these events ([type, content index, delta]). */
  const printed = (events: [string, number, string?][]) => {
    const { v, text } = view();
    for (const [type, contentIndex, delta] of events) v.handle({ type: "message_update", message: partial, assistantMessageEvent: { type, contentIndex, delta, content: "", partial } } as never);
    v.dispose();
    return text();
  };

  test("blocks whose ends all come when the answer ends print in the answer's order", () => {
    const events: [string, number, string?][] = [
      ["thinking_start", 0],
      ["thinking_delta", 0, "weigh it\nchoose"],
      ["text_start", 1],
      ["text_delta", 1, "First.\n\nSecond"],
      ["thinking_end", 0],
      ["text_end", 1],
    ];
    expect(printed(events)).toBe("thinking: weigh it\nchoose\nFirst.\n\nSecond\n");
  });

  test("thinking resumed after text goes on without a second introduction", () => {
    expect(printed([["thinking_delta", 0, "one"], ["text_delta", 1, "said"], ["thinking_delta", 0, "two"], ["thinking_end", 0]])).toBe("thinking: one\nsaid\ntwo\n");
  });
});

describe("tool calls in the view", () => {
  const result = (text: string) => ({ content: [{ type: "text" as const, text }], details: {} });
  test("calls run at once print in call order, each whole, however they end; the later ones show live meanwhile", () => {
    const { v, text, status } = view();
    v.handle({ type: "tool_execution_start", toolCallId: "a", toolName: "bash", args: { command: "one" } });
    v.handle({ type: "tool_execution_start", toolCallId: "b", toolName: "bash", args: { command: "two" } });
    v.handle({ type: "tool_execution_update", toolCallId: "b", toolName: "bash", args: {}, partialResult: result("b-out") });
    v.handle({ type: "tool_execution_update", toolCallId: "a", toolName: "bash", args: {}, partialResult: result("a-out") });
    expect(text()).toBe("● bash  one\n");
    expect(status.at(-1)!.slice(0, 3)).toEqual(["  ┊ a-out", "● bash  two", "  ┊ b-out"]);
    v.handle({ type: "tool_execution_end", toolCallId: "b", toolName: "bash", result: result("b-done"), isError: false });
    expect(text()).toBe("● bash  one\n");
    expect(status.at(-1)![2]).toMatch(/^ {2}done, took \d+ms$/);
    v.handle({ type: "tool_execution_end", toolCallId: "a", toolName: "bash", result: result("a-done"), isError: true });
    expect(text()).toMatch(/^● bash {2}one\n {2}✗ bash failed\n {2}│ a-done\n {2}took \d+ms\n● bash {2}two\n {2}│ b-done\n {2}took \d+ms\n$/);
    expect(v.blocks.get(1)?.args).toEqual({ command: "one" });
    expect(v.blocks.get(2)?.args).toEqual({ command: "two" });
    v.dispose();
  });

  test("more calls at once than fit above the prompt show one line each, then how many more", () => {
    const { v, status } = view();
    for (let i = 1; i <= 20; i++) {
      v.handle({ type: "tool_execution_start", toolCallId: `c${i}`, toolName: "bash", args: { command: `job ${i}` } });
      v.handle({ type: "tool_execution_update", toolCallId: `c${i}`, toolName: "bash", args: {}, partialResult: result("out\nmore\nlast") });
    }
    v.handle({ type: "tool_execution_end", toolCallId: "c2", toolName: "bash", result: result("x"), isError: false });
    const rows = status.at(-1)!.filter((row) => !row.includes("Esc to stop"));
    expect(rows).toHaveLength(16);
    expect(rows.slice(0, 3)).toEqual(["  running", expect.stringMatching(/^● bash {2}job 2 · done, took \d+ms$/), "● bash  job 3 · running"]);
    expect(rows.at(-1)).toBe("  … 5 more calls");
    v.dispose();
  });

  test("a call stopped before its end keeps its call line; a quick call on its own shows no time", () => {
    const { v, text } = view();
    v.handle({ type: "tool_execution_start", toolCallId: "a", toolName: "read", args: { path: "x" } });
    v.handle({ type: "tool_execution_end", toolCallId: "a", toolName: "read", result: result("x"), isError: false });
    v.handle({ type: "tool_execution_start", toolCallId: "b", toolName: "bash", args: { command: "sleep 9" } });
    v.handle({ type: "tool_execution_start", toolCallId: "c", toolName: "bash", args: { command: "sleep 8" } });
    v.handle({ type: "agent_end", messages: [] } as never);
    expect(text()).toBe("● read  x\n  │ x\n● bash  sleep 9\n● bash  sleep 8\n");
    v.dispose();
  });
});
