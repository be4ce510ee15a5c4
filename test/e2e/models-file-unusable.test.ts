/**
 * A models.json pig cannot use stops the start: the message names the file, the line, the column
 * and the field, says to fix it, and pig exits non-zero without opening the first-run setup and
 * without touching the file (byte for byte). Print mode says the same and no more: a guided
 * setup cannot help with a mistake in a file.
 */
import { expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { open, track } = interactivePig();

/** The file a person wrote for their local server, with a mistake on line 8. */
const BROKEN = `{
  // my local server
  "providers": {
    "custom": {
      "baseUrl": "http://127.0.0.1:9/v1",
      "api": "openai-completions",
      "apiKey": "none",
      "models": [{ "id": "qwen", "contextWindow": "big" }]
    }
  }
}
`;
const FAULT = '"providers.custom.models.0.contextWindow" (line 8, column 51) must be a number, not "big"';
const FIX = "Fix models.json and start pig again; pig has not changed the file.";

/** A custom provider without its key: a rule the schema cannot say, placed all the same. */
const NO_KEY = `{
  "providers": {
    "custom": {
      "baseUrl": "http://127.0.0.1:9/v1",
      "api": "openai-completions",
      "models": [{ "id": "qwen" }]
    }
  }
}
`;

async function brokenWorld(text: string): Promise<{ world: PigWorld; path: string; mtimeMs: number }> {
  const world = track(await createWorld({ settings: { defaultProvider: "custom", defaultModel: "qwen" } }));
  const path = join(world.agentDir, "models.json");
  writeFileSync(path, text);
  return { world, path, mtimeMs: statSync(path).mtimeMs };
}

function expectUntouched(path: string, text: string, mtimeMs: number): void {
  expect(readFileSync(path, "utf8")).toBe(text);
  expect(statSync(path).mtimeMs).toBe(mtimeMs);
}

describeNeeding("tmux", tmuxAvailable(), "a models.json pig cannot use (interactive)", () => {
  for (const width of [100, 40]) {
    test(`${width} columns: the fault with its place, the advice, a non-zero exit, no setup, the file unchanged`, async () => {
      const { world, path, mtimeMs } = await brokenWorld(BROKEN);
      // The shell says how pig ended once it has, and stays (tmux's own "Pane is dead" line would scroll the screen).
      const tmux = open(world, { width, command: ["sh", "-c", `'${pigBinary()}'; echo "pig exited with $?"; exec sleep 600`] });
      const screen = await tmux.waitFor("pig exited with");
      const joined = tmux.captureJoined().replace(/\n/g, " ").replace(/\s+/g, " ");
      expect(joined).toContain(`${path}: ${FAULT}`);
      expect(joined).toContain(FIX);
      expect(screen).toContain("pig exited with 1");
      expect(screen).not.toContain("No model is set up");
      expect(screen).not.toContain("Provider");
      expectUntouched(path, BROKEN, mtimeMs);
    });
  }
});

test("print mode: the same message and exit code, no advice about a guided setup, no request", async () => {
  const { world, path, mtimeMs } = await brokenWorld(BROKEN);
  const run = await world.run(["-p", "hi"]);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(`pig: ${path}: ${FAULT}\n${FIX}\n`);
  expect(run.stdout).toBe("");
  expect(world.llm.requests).toHaveLength(0);
  expectUntouched(path, BROKEN, mtimeMs);
});

test("a custom provider without a key: the field and its place are named", async () => {
  const { world, path, mtimeMs } = await brokenWorld(NO_KEY);
  const run = await world.run(["-p", "hi"]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`${path}: "providers.custom.apiKey" (line 3, column 15) is missing`);
  expect(run.stderr).toContain(FIX);
  expectUntouched(path, NO_KEY, mtimeMs);
});

test("--help still shows, with the fault first", async () => {
  const { world, path } = await brokenWorld(BROKEN);
  const run = await world.run(["--help"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(`${path}: ${FAULT}`);
  expect(run.stdout).toContain("Usage");
});
