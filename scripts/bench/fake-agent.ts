// What every model-driven benchmark gives each side: an agent dir whose only model is
// `fake/fake-model` (openai-completions at the benchmark's fake LLM server), chosen by default
// with a quiet start-up, and, for the print-mode benchmarks, the command and env of pig and of
// each Pi release (through its package's bin) in the same scratch cwd. pig and every Pi release
// read the same two files.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Contender, pigEnv, type RunOptions } from "./measure.ts";
import { PI_QUIET_ENV, piEnv, type PiInstall } from "./pi-install.ts";
import { shellLine } from "./report.ts";

export interface FakeAgentDirOptions {
  /** The model's context window (default 128,000). */
  contextWindow?: number;
  /** The model's output cap (default 16,384). */
  maxTokens?: number;
  /** Extra settings.json keys (e.g. `compaction`). */
  settings?: Record<string, unknown>;
}

/** models.json and settings.json in `dir` (made if missing); `baseUrl` ends in `/v1`. */
export function writeFakeAgentDir(dir: string, baseUrl: string, opts: FakeAgentDirOptions = {}): void {
  mkdirSync(dir, { recursive: true });
  const model = {
    id: "fake-model",
    name: "fake-model",
    reasoning: false,
    input: ["text"],
    contextWindow: opts.contextWindow ?? 128000,
    maxTokens: opts.maxTokens ?? 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  const models = { providers: { fake: { baseUrl, api: "openai-completions", apiKey: "fake-key", models: [model] } } };
  writeFileSync(join(dir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
  const settings = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false, ...opts.settings };
  writeFileSync(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
}

export interface AgentSide {
  cmd: readonly string[];
  opts: RunOptions;
  agentDir: string;
  /** The same command with the env that matters, for the summary. */
  line: string;
}

/** `pig -p PROMPT` (unless undefined) and each release's `<node> <bin> -p PROMPT`, each with its own agent dir under `work`. */
export function agentSides(
  pig: string | undefined,
  pis: readonly PiInstall[],
  setup: { work: string; cwd: string; baseUrl: string; prompt: string; contextWindow?: number },
): Map<Contender, AgentSide> {
  const sides = new Map<Contender, AgentSide>();
  const { work, cwd, baseUrl, prompt, contextWindow } = setup;
  const dirOptions = contextWindow === undefined ? {} : { contextWindow };
  if (pig !== undefined) {
    const agentDir = join(work, "agent-pig");
    writeFakeAgentDir(agentDir, baseUrl, dirOptions);
    const cmd = [pig, "-p", prompt];
    sides.set("pig", { cmd, opts: { env: pigEnv(agentDir), cwd }, agentDir, line: shellLine(cmd, { PIG_CODING_AGENT_DIR: agentDir }) });
  }
  for (const p of pis) {
    const agentDir = join(work, `agent-pi-${p.version}`);
    writeFakeAgentDir(agentDir, baseUrl, dirOptions);
    const cmd = [...p.cmd, "-p", prompt];
    sides.set(p.release, { cmd, opts: { env: piEnv(p, agentDir), cwd }, agentDir, line: shellLine(cmd, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir }) });
  }
  return sides;
}
