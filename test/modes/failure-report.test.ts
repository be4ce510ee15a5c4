/** The words a person reads about a failed answer: readable errors, where, attempts. */
import { describe, expect, test } from "bun:test";
import type { AssistantMessage, Model } from "../../src/ai/types.ts";
import { AttemptCounter, failureText, readableError, retryText } from "../../src/modes/failure-report.ts";

const model = { provider: "acme", id: "m1", api: "anthropic-messages", baseUrl: "https://llm.example/" } as Model;
const lookup = (provider: string, id: string) => (provider === "acme" && id === "m1" ? model : undefined);
const answer = (errorMessage: string) => ({ role: "assistant", provider: "acme", model: "m1", stopReason: "error", errorMessage }) as AssistantMessage;

describe("readableError", () => {
  test("provider text stays as it is; a JSON error body by its message; an HTML page by its title", () => {
    expect(readableError("429 Rate limit reached")).toBe("429 Rate limit reached");
    expect(readableError('529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toBe("529 Overloaded (overloaded_error)");
    expect(readableError("502 <!DOCTYPE html><html><head><title> 502  Bad Gateway </title></head></html>")).toBe("502 (an HTML page: 502 Bad Gateway)");
    expect(readableError("<html><body><h1>Down for maintenance</h1></body></html>")).toBe("(an HTML page: Down for maintenance)");
  });

  test("a long text is cut, saying how much was left out", () => {
    const shown = readableError("x".repeat(1500));
    expect(shown).toBe(`${"x".repeat(1000)}… (500 more characters)`);
  });
});

describe("failureText and retryText", () => {
  test("what failed, where, after how many attempts, and why", () => {
    expect(failureText(answer("503 down"), lookup, 4)).toBe("acme/m1 at https://llm.example/v1/messages failed after 4 attempts: 503 down");
    expect(failureText(answer("400 bad"), lookup, 1)).toBe("acme/m1 at https://llm.example/v1/messages failed after 1 attempt: 400 bad");
    expect(failureText({ ...answer("x"), provider: "gone" }, lookup, 1)).toBe("gone/m1 failed after 1 attempt: x");
  });

  test("a base URL's user and password, and a proxy's in the error, are not shown", () => {
    const secret = { ...model, baseUrl: "https://alice:s3cret@llm.example/" } as Model;
    const text = failureText(answer("Unable to connect through http://bob:hunter22@proxy.example:3128"), () => secret, 1);
    expect(text).toBe("acme/m1 at https://***@llm.example/v1/messages failed after 1 attempt: Unable to connect through http://***@proxy.example:3128");
  });

  test("a retry names the model, the error, the attempt and the wait", () => {
    expect(retryText({ type: "auto_retry_start", attempt: 2, maxAttempts: 3, delayMs: 4000, errorMessage: "503 down" }, "acme/m1")).toBe(
      "acme/m1: 503 down — retry 2/3 in 4s",
    );
  });
});

describe("AttemptCounter", () => {
  test("a prompt starts at one, each retry adds one, a success starts again", () => {
    const counter = new AttemptCounter();
    counter.observe({ type: "message_start", message: { role: "user", content: "go", timestamp: 1 } });
    expect(counter.attempts).toBe(1);
    counter.observe({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: "e" });
    counter.observe({ type: "auto_retry_start", attempt: 2, maxAttempts: 3, delayMs: 1, errorMessage: "e" });
    expect(counter.attempts).toBe(3);
    counter.observe({ type: "auto_retry_end", success: true, attempt: 2 });
    expect(counter.attempts).toBe(1);
  });
});
