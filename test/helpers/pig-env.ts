/**
 * An isolated world for running the real `pig` binary against the fake LLM server: an agent
 * directory with the `fake` provider the Pi fixtures were recorded with, a working directory,
 * and an async runner (the fake server lives in this process, so pig must not block it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pigBinary } from "./binary.ts";
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from "./fake-llm/server.ts";
import { tempDir } from "./tmp.ts";

export type FixtureApi = "openai-completions" | "anthropic-messages" | "openai-responses";

export interface PigWorld {
  agentDir: string;
  cwd: string;
  llm: FakeLlm;
  env: Record<string, string>;
  run(args: string[], options?: { stdin?: string; env?: Record<string, string>; cwd?: string }): Promise<PigRun>;
  close(): Promise<void>;
}

export interface PigRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface WorldOptions {
  api?: FixtureApi;
  llm?: FakeLlmOptions;
  /** Input kinds of both fake models (fixture 13 uses text and image). */
  input?: ("text" | "image")[];
  contextWindow?: number;
  /** `thinkingLevelMap` of the reasoning model (`fake-reasoner`), e.g. `{ max: "max" }`. */
  reasonerLevels?: Record<string, string | null>;
  /** Settings added to the fixtures' base settings. */
  settings?: Record<string, unknown>;
  /** Files to create in the working directory. */
  files?: Record<string, string | Uint8Array>;
  /** Files to create in the agent directory (keybindings.json, AGENTS.md, …). */
  agentFiles?: Record<string, string>;
}

export function fakeModelsJson(url: string, options: WorldOptions): object {
  const api = options.api ?? "openai-completions";
  const model = (id: string, reasoning: boolean) => ({
    id,
    name: id,
    reasoning,
    ...(reasoning && options.reasonerLevels ? { thinkingLevelMap: options.reasonerLevels } : {}),
    input: options.input ?? ["text"],
    contextWindow: options.contextWindow ?? 128000,
    maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  return {
    providers: {
      fake: {
        baseUrl: api === "anthropic-messages" ? url : `${url}/v1`,
        api,
        apiKey: "fake-key",
        models: [model("fake-model", false), model("fake-reasoner", true)],
      },
    },
  };
}

export async function createWorld(options: WorldOptions = {}): Promise<PigWorld> {
  const llm = await startFakeLlm(options.llm ?? {});
  const agentDir = tempDir("pig-agent-");
  const cwd = tempDir("pig-work-");
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(fakeModelsJson(llm.url, options), null, 2));
  writeFileSync(
    join(agentDir, "settings.json"),
    JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, ...options.settings }, null, 2),
  );
  for (const [name, content] of Object.entries(options.agentFiles ?? {})) {
    mkdirSync(join(agentDir, name, ".."), { recursive: true });
    writeFileSync(join(agentDir, name), content);
  }
  for (const [name, content] of Object.entries(options.files ?? {})) {
    const path = join(cwd, name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, content);
  }
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: agentDir,
    PIG_CODING_AGENT_DIR: agentDir,
    // The built-in grep/find, so results do not depend on what the machine has installed.
    PIG_NO_EXTERNAL_SEARCH: "1",
  };
  return {
    agentDir,
    cwd,
    llm,
    env,
    async run(args, runOptions = {}) {
      const proc = Bun.spawn([pigBinary(), ...args], {
        cwd: runOptions.cwd ?? cwd,
        env: { ...env, ...runOptions.env },
        stdin: runOptions.stdin !== undefined ? new Blob([runOptions.stdin]) : "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      return { code, stdout, stderr };
    },
    close: () => llm.close(),
  };
}
