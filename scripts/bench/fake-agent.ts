// What the print-mode benchmarks (agent.ts, long-session.ts) give every side: an agent dir whose
// only model is `fake/fake-model` on the fake LLM server, and the command and env of pig and of
// each Pi release (through its package's bin) in the same scratch cwd.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Contender, pigEnv, type RunOptions } from "./measure.ts";
import { PI_QUIET_ENV, piEnv, type PiInstall } from "./pi-install.ts";
import { shellLine } from "./report.ts";

export interface AgentSide {
  cmd: readonly string[];
  opts: RunOptions;
  agentDir: string;
  /** The same command with the env that matters, for the summary. */
  line: string;
}

/** models.json (provider `fake`, openai-completions, `contextWindow` tokens) and settings.json. */
export function writeAgentDir(dir: string, baseUrl: string, contextWindow = 128000): void {
  mkdirSync(dir, { recursive: true });
  const model = {
    id: "fake-model",
    name: "fake-model",
    reasoning: false,
    input: ["text"],
    contextWindow,
    maxTokens: 16384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  const models = { providers: { fake: { baseUrl, api: "openai-completions", apiKey: "fake-key", models: [model] } } };
  writeFileSync(join(dir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
  const settings = { defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true, enableInstallTelemetry: false };
  writeFileSync(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
}

/** `pig -p PROMPT` (unless undefined) and each release's `<node> <bin> -p PROMPT`, each with its own agent dir under `work`. */
export function agentSides(
  pig: string | undefined,
  pis: readonly PiInstall[],
  setup: { work: string; cwd: string; baseUrl: string; prompt: string; contextWindow?: number },
): Map<Contender, AgentSide> {
  const sides = new Map<Contender, AgentSide>();
  const { work, cwd, baseUrl, prompt, contextWindow } = setup;
  if (pig !== undefined) {
    const agentDir = join(work, "agent-pig");
    writeAgentDir(agentDir, baseUrl, contextWindow);
    const cmd = [pig, "-p", prompt];
    sides.set("pig", { cmd, opts: { env: pigEnv(agentDir), cwd }, agentDir, line: shellLine(cmd, { PIG_CODING_AGENT_DIR: agentDir }) });
  }
  for (const p of pis) {
    const agentDir = join(work, `agent-pi-${p.version}`);
    writeAgentDir(agentDir, baseUrl, contextWindow);
    const cmd = [...p.cmd, "-p", prompt];
    sides.set(p.release, { cmd, opts: { env: piEnv(p, agentDir), cwd }, agentDir, line: shellLine(cmd, { ...PI_QUIET_ENV, PI_CODING_AGENT_DIR: agentDir }) });
  }
  return sides;
}
