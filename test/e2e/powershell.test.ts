/**
 * The powershell tool through the built binary: `--tools` turns it on off Windows, the model
 * sees its schema, and a call's output, stderr and exit code come back to the model as the
 * tool result. PowerShell itself is a fake on `<agentDir>/bin` (first on the tool's PATH).
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const FAKE = join(import.meta.dir, "..", "fixtures", "fake-pwsh", "fake-pwsh.ts");
const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

// The fake is a `#!/bin/sh` script.
test.skipIf(process.platform === "win32")("--tools powershell: the model calls it and gets the merged output and the exit code back", async () => {
  const command = `Write-Output "it's \\"quoted\\""; EMIT-ORDER; EXIT=2`;
  const w = await createWorld({ llm: { script: [{ toolCalls: [{ name: "powershell", arguments: { command } }] }, { text: "done" }] } });
  worlds.push(w);
  mkdirSync(join(w.agentDir, "bin"), { recursive: true });
  const pwsh = join(w.agentDir, "bin", "pwsh");
  writeFileSync(pwsh, `#!/bin/sh\nexec "${process.execPath}" "${FAKE}" "$@"\n`);
  chmodSync(pwsh, 0o755);

  const result = await w.run(["--tools", "read,powershell", "-p", "list the files"]);
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "done\n" });
  const first = w.llm.requests[0]!.body as { tools: { function: { name: string } }[]; messages: { role: string; content: string }[] };
  expect(first.tools.map((t) => t.function.name)).toEqual(["read", "powershell"]);
  const system = first.messages.find((m) => m.role === "system")!.content;
  expect(system).toContain("- powershell: Execute PowerShell commands");
  expect(system).toContain("- Use powershell for file operations such as Get-ChildItem and Select-String");
  const second = w.llm.requests[1]!.body as { messages: { role: string; content: string }[] };
  const tool = second.messages.find((m) => m.role === "tool")!.content;
  const [reported, ...output] = tool.split("\n");
  const { args } = JSON.parse(reported!) as { args: string[] };
  expect(args.slice(0, 3)).toEqual(["-NoProfile", "-NonInteractive", "-Command"]);
  expect(args[3]).toEndWith(`\n${command}`);
  expect(output.join("\n")).toBe("out one\nerr two\nout three\n\n\nCommand exited with code 2");
});
