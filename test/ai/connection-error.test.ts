import { describe, expect, test } from "bun:test";
import { connectionErrorMessage, connectionFailure, isLoopbackUrl, refusedOnThisMachine } from "../../src/ai/connection-error.ts";
import { isRetryableError } from "../../src/ai/errors.ts";
import type { AssistantMessage } from "../../src/ai/types.ts";

const failed = (errorMessage: string) => ({ stopReason: "error", errorMessage }) as AssistantMessage;
const REFUSED = "Connection error. (ECONNREFUSED: Unable to connect. Is the computer able to access the url?)";

describe("what kind of connection failure", () => {
  const withCode = (code: string, message = `${code}: failed`) => Object.assign(new Error(message), { code });
  test.each([
    [withCode("ECONNREFUSED"), "refused"],
    [withCode("ENOTFOUND", "getaddrinfo ENOTFOUND no-such-host.invalid"), "dns"],
    [withCode("EAI_AGAIN"), "dns"],
    [withCode("DEPTH_ZERO_SELF_SIGNED_CERT", "self signed certificate"), "tls"],
    [withCode("ERR_TLS_CERT_ALTNAME_INVALID"), "tls"],
    [withCode("ECONNRESET"), "reset"],
    [Object.assign(new Error("The operation timed out."), { name: "TimeoutError" }), "timeout"],
    [new Error("something else"), "other"],
  ] as const)("%p is %s", (error, kind) => {
    expect(connectionFailure(error).kind).toBe(kind);
  });
});

describe("a refused connection to this machine", () => {
  test.each(["http://127.0.0.1:8000/v1", "http://localhost:11434/v1", "http://[::1]:1234/v1", "http://127.1.2.3/v1"])("%s is this machine", (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
  });
  test.each(["http://10.0.0.5:8000/v1", "https://api.openai.com/v1", "", "not a url"])("%p is not", (url) => {
    expect(isLoopbackUrl(url)).toBe(false);
  });

  test("is not retried; a remote refusal, a reset on this machine and a 503 still are", () => {
    const local = { contextWindow: 128000, baseUrl: "http://127.0.0.1:8000/v1" };
    const remote = { contextWindow: 128000, baseUrl: "http://10.0.0.5:8000/v1" };
    expect(refusedOnThisMachine(REFUSED, local.baseUrl)).toBe(true);
    expect(isRetryableError(failed(REFUSED), local)).toBe(false);
    expect(isRetryableError(failed(REFUSED), remote)).toBe(true);
    expect(isRetryableError(failed("Connection error. (ECONNRESET: socket closed)"), local)).toBe(true);
    expect(isRetryableError(failed("503 Service unavailable"), local)).toBe(true);
  });
});

test("a refusal reads as what it means, not as Bun's question to the programmer", () => {
  const bun = Object.assign(new Error("Unable to connect. Is the computer able to access the url?"), { code: "ECONNREFUSED" });
  expect(connectionErrorMessage(bun)).toBe("Connection error. (ECONNREFUSED: nothing is listening there (is the server running?))");
});
