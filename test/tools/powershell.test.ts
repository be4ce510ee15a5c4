import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BashDetails } from "../../src/tools/bash.ts";
import { POWERSHELL_PRELUDE, isPowerShellPath, powershellArgv, powershellScript, resolvePowerShell } from "../../src/tools/powershell-args.ts";
import { createPowerShellTool } from "../../src/tools/powershell.ts";
import type { ToolContext, ToolResult } from "../../src/tools/types.ts";
import { errorOf, makeContext, run, textOf } from "./helpers.ts";

const FAKE = join(import.meta.dir, "..", "fixtures", "fake-pwsh", "fake-pwsh.ts");

/** A script quoting would break: quotes of both kinds, backslashes (one at the end), $, ;, a newline, a leading dash. */
const AWKWARD = `-not-a-flag; Write-Output "a \\"quoted\\" word" 'single ''quote''' $env:HOME C:\\dir\\ \`n
Get-ChildItem "C:\\Program Files\\"`;

/** A context whose `<agentDir>/bin` (first on the command's PATH) holds a fake `pwsh`. */
function contextWithFakePwsh(): ToolContext {
  const ctx = makeContext();
  const bin = join(ctx.agentDir, "bin");
  mkdirSync(bin, { recursive: true });
  const pwsh = join(bin, "pwsh");
  writeFileSync(pwsh, `#!/bin/sh\nexec "${process.execPath}" "${FAKE}" "$@"\n`);
  chmodSync(pwsh, 0o755);
  return ctx;
}

/** The first line the fake prints: the arguments it got and what was on its stdin. */
function reported(text: string): { args: string[]; stdin: string } {
  return JSON.parse(text.split("\n")[0]!);
}

describe("powershell arguments", () => {
  test("the script is one argument after -NoProfile -NonInteractive -Command, unquoted", () => {
    expect(powershellArgv("C:\\Program Files\\PowerShell\\7\\pwsh.exe", AWKWARD)).toEqual([
      "C:\\Program Files\\PowerShell\\7\\pwsh.exe",
      "-NoProfile",
      "-NonInteractive",
      "-Command",
      `${POWERSHELL_PRELUDE}\n${AWKWARD}`,
    ]);
    expect(powershellScript("-")).toBe(`${POWERSHELL_PRELUDE}\n-`);
  });

  test("prefers pwsh, then Windows PowerShell on Windows; only pwsh elsewhere", () => {
    const on = (names: string[], platform: string) =>
      resolvePowerShell({ which: (n) => (names.includes(n) ? `/found/${n}` : null), exists: () => true, platform });
    expect(on(["pwsh.exe", "powershell.exe"], "win32")).toBe("/found/pwsh.exe");
    expect(on(["powershell.exe"], "win32")).toBe("/found/powershell.exe");
    expect(on(["pwsh"], "linux")).toBe("/found/pwsh");
    expect(() => on(["powershell.exe"], "linux")).toThrow("powershell tool: none of pwsh is on PATH");
    expect(() => on([], "win32")).toThrow("none of pwsh.exe, pwsh, powershell.exe is on PATH");
  });

  test("a shellPath naming a PowerShell is used, and must exist", () => {
    const lookup = { which: () => "/found/pwsh", platform: "win32" };
    expect(resolvePowerShell({ ...lookup, customPath: "D:\\ps\\pwsh.exe", exists: () => true })).toBe("D:\\ps\\pwsh.exe");
    expect(() => resolvePowerShell({ ...lookup, customPath: "D:\\ps\\pwsh.exe", exists: () => false })).toThrow(
      "PowerShell not found at D:\\ps\\pwsh.exe (the shellPath setting)",
    );
    expect([isPowerShellPath("C:\\x\\pwsh.exe"), isPowerShellPath("/usr/bin/pwsh"), isPowerShellPath("powershell.EXE")]).toEqual([true, true, true]);
    expect([isPowerShellPath("/bin/bash"), isPowerShellPath("C:\\Git\\bin\\bash.exe"), isPowerShellPath("/opt/pwsh-tools/zsh")]).toEqual([false, false, false]);
  });
});

// The fake is a `#!/bin/sh` script; on Windows the real pwsh would have to be tested instead.
describe.skipIf(process.platform === "win32")("powershell tool with a fake pwsh", () => {
  const tool = createPowerShellTool();

  test("the script reaches pwsh as written, with stdin closed", async () => {
    const ctx = contextWithFakePwsh();
    const got = reported(textOf(await run(tool, { command: AWKWARD }, ctx)));
    expect(got).toEqual({ args: ["-NoProfile", "-NonInteractive", "-Command", `${POWERSHELL_PRELUDE}\n${AWKWARD}`], stdin: "" });
  });

  test("returns stdout and stderr merged in the order they were written", async () => {
    const text = textOf(await run(tool, { command: "EMIT-ORDER" }, contextWithFakePwsh()));
    expect(text.split("\n").slice(1)).toEqual(["out one", "err two", "out three", ""]);
  });

  test("fails with the output and the exit code", async () => {
    const message = await errorOf(run(tool, { command: "EMIT-ORDER; EXIT=3" }, contextWithFakePwsh()));
    expect(message).toEndWith("out one\nerr two\nout three\n\n\nCommand exited with code 3");
  });

  test("keeps the tail of long output and saves all of it to a file", async () => {
    const result = (await run(tool, { command: "LOTS" }, contextWithFakePwsh())) as ToolResult<BashDetails | undefined>;
    const text = textOf(result);
    expect(text).toContain("line 3000\n");
    expect(text).not.toContain("line 1000\n");
    const path = result.details?.fullOutputPath;
    expect(path).toBeString();
    expect(text).toEndWith(`[Showing lines 1002-3001 of 3001. Full output: ${path}]`);
    expect(readFileSync(path!, "utf8")).toContain("\nline 1\nline 2\n");
  });

  test("stops a command at its timeout", async () => {
    const message = await errorOf(run(tool, { command: "HANG", timeout: 0.5 }, contextWithFakePwsh()));
    expect(message).toEndWith("started\n\n\nCommand timed out after 0.5 seconds");
  });

  test("stops a command when the call is aborted, once it has started", async () => {
    const ctx = contextWithFakePwsh();
    const controller = new AbortController();
    const call = tool.execute("call-1", { command: "HANG" }, controller.signal, (partial) => {
      if (partial.content.some((block) => block.type === "text" && block.text.includes("started"))) controller.abort();
    }, ctx);
    expect(await errorOf(call)).toEndWith("started\n\n\nCommand aborted");
  });

  test("says which programs it looked for when there is no PowerShell", async () => {
    const ctx = makeContext();
    const tool = createPowerShellTool();
    const saved = process.env.PATH;
    process.env.PATH = join(ctx.agentDir, "nothing-here");
    try {
      expect(await errorOf(run(tool, { command: "Get-Date" }, ctx))).toContain("none of pwsh is on PATH");
    } finally {
      process.env.PATH = saved;
    }
  });
});
