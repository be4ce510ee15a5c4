import { expect, test } from "bun:test";
import { shellExitCode } from "../../../src/extensions/runner/exec.ts";

test("a command's exit code as a shell reports it: its own, or 128 + the signal's number", () => {
  expect(shellExitCode(0, null)).toBe(0);
  expect(shellExitCode(3, null)).toBe(3);
  expect(shellExitCode(null, "SIGTERM")).toBe(143);
  expect(shellExitCode(null, "SIGKILL")).toBe(137);
  expect(shellExitCode(null, "SIGINT")).toBe(130);
  expect(shellExitCode(null, null)).toBe(1);
});
