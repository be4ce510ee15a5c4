// When a run starts the shared TypeScript runner before its extensions are known.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeConfig } from "../../src/runtime/config.ts";
import { expectsSharedRunner, prestartRunnerFor } from "../../src/runtime/runner-prestart.ts";
import { tempDir } from "../helpers/tmp.ts";

test("an extension named on the command line, unless only manifests are named", () => {
  const agentDir = tempDir("pig-prestart-agent-");
  expect(expectsSharedRunner({ paths: ["./a.ts"] }, agentDir)).toBe(true);
  expect(expectsSharedRunner({ paths: ["./dir"] }, agentDir)).toBe(true);
  expect(expectsSharedRunner({ paths: ["./go/pig-extension.json"] }, agentDir)).toBe(false);
  expect(expectsSharedRunner({}, agentDir)).toBe(false);
});

test("the user's extension folder holding something besides the logs, unless discovery is off", () => {
  const agentDir = tempDir("pig-prestart-agent-");
  mkdirSync(join(agentDir, "extensions", "logs"), { recursive: true });
  expect(expectsSharedRunner({}, agentDir)).toBe(false);
  writeFileSync(join(agentDir, "extensions", "mine.ts"), "export default () => {};\n");
  expect(expectsSharedRunner({}, agentDir)).toBe(true);
  expect(expectsSharedRunner({ noExtensions: true }, agentDir)).toBe(false);
});

test("the command line's early start: none without a TypeScript extension or with providers served in-process, else a runner", async () => {
  const agentDir = tempDir("pig-prestart-agent-");
  const cwd = tempDir("pig-prestart-cwd-");
  const env = { ...process.env, PIG_CODING_AGENT_DIR: agentDir };
  const config: RuntimeConfig = { cwd, env, interactive: false, session: { kind: "none" } };
  expect(await prestartRunnerFor(config)).toBeUndefined();
  const withExtension: RuntimeConfig = { ...config, extensions: { paths: [join(cwd, "a.ts")] } };
  expect(await prestartRunnerFor({ ...withExtension, providers: [{ name: "sdk", config: {}, stream: () => { throw new Error("unused"); } }] })).toBeUndefined();
  const runner = await prestartRunnerFor(withExtension);
  expect(runner).toBeDefined();
  try {
    expect(runner!.options).toMatchObject({ cwd, agentDir, env });
    await runner!.calledIn;
  } finally {
    runner!.stop();
  }
});
