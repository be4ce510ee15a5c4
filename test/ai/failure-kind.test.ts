import { describe, expect, test } from "bun:test";
import { errorStatus, failureKind } from "../../src/ai/failure-kind.ts";
import type { AssistantMessage } from "../../src/ai/types.ts";

const usage = { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function answer(stopReason: AssistantMessage["stopReason"], errorMessage?: string, output = 50): Pick<AssistantMessage, "stopReason" | "errorMessage" | "usage"> {
  return { stopReason, ...(errorMessage !== undefined ? { errorMessage } : {}), usage: { ...usage, output } };
}

describe("failureKind", () => {
  test("an answer that ended as it should has no kind", () => {
    expect(failureKind(answer("stop"), 128000)).toBeUndefined();
    expect(failureKind(answer("toolUse"), 128000)).toBeUndefined();
  });

  test("each provider's wording of a status is read by its code", () => {
    const cases: [string, string][] = [
      ["401 Incorrect API key provided", "auth"],
      ['403 {"error":{"message":"forbidden"}}', "auth"],
      ["401 Unauthorized: bad key (invalid_api_key)", "auth"],
      ["429 Rate limit reached for requests", "rate_limit"],
      ["429 Resource has been exhausted (RESOURCE_EXHAUSTED)", "rate_limit"],
      ["Server requested 120s retry delay (max: 60s). 429 Too Many Requests", "rate_limit"],
      ["503: Service Unavailable", "server_error"],
      ["500 Internal server error", "server_error"],
      ["529 Overloaded", "server_error"],
      ["The server answered 502 with an HTML page instead of an event stream: Bad Gateway", "server_error"],
      ["400 max_tokens is too large", "other"],
      ["404 model not found", "other"],
    ];
    for (const [text, kind] of cases) expect([text, failureKind(answer("error", text), 128000)]).toEqual([text, kind]);
  });

  test("Bedrock's exception names, which carry no status, are read by their words", () => {
    expect(failureKind(answer("error", "Throttling error: Too many tokens, please wait"), 128000)).toBe("rate_limit");
    expect(failureKind(answer("error", "Service unavailable: try again"), 128000)).toBe("server_error");
    expect(failureKind(answer("error", "Internal server error: boom"), 128000)).toBe("server_error");
    expect(failureKind(answer("error", "AccessDeniedException: access denied to model"), 128000)).toBe("auth");
  });

  test("a server that never answered, or went away before the answer was whole, is unreachable", () => {
    for (const text of [
      "Connection error. (ECONNREFUSED: nothing is listening there (is the server running?))",
      "Connection error. (ENOTFOUND: getaddrinfo ENOTFOUND llm.invalid)",
      "terminated",
      "Stream idle timeout: the provider did not answer in time",
    ]) expect([text, failureKind(answer("error", text), 128000)]).toEqual([text, "unreachable"]);
  });

  test("an overflow is told apart from a rate limit that mentions tokens", () => {
    expect(failureKind(answer("error", "400 prompt is too long: 210000 tokens > 200000 maximum"), 200000)).toBe("context_overflow");
    expect(failureKind(answer("error", "400 This model's maximum context length is 8192 tokens"), 8192)).toBe("context_overflow");
    expect(failureKind(answer("error", "429 rate limit: too many tokens per minute"), 8192)).toBe("rate_limit");
  });

  test("an answer cut at the output limit is cut off; one with no room to write at all is an overflow", () => {
    expect(failureKind(answer("length"), 128000)).toBe("cut_off");
    expect(failureKind({ ...answer("length", undefined, 0), usage: { ...usage, input: 128000, output: 0 } }, 128000)).toBe("context_overflow");
  });

  test("a stopped answer is aborted, whatever its text", () => {
    expect(failureKind(answer("aborted", "Request was aborted"), 128000)).toBe("aborted");
  });

  test("errorStatus reads only an HTTP error status", () => {
    expect(errorStatus("401 nope")).toBe(401);
    expect(errorStatus("200 fine")).toBeUndefined();
    expect(errorStatus("max_tokens is 4096")).toBeUndefined();
  });
});
