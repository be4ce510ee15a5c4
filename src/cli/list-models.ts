/** `pig --list-models [search]`: the models that have a key, as a table. */
import { ModelRegistry } from "../ai/registry.ts";
import type { Model } from "../ai/types.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";

function tokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1)}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}K`;
  return String(n);
}

function matches(model: Model, search: string): boolean {
  const haystack = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export function listModels(search: string | undefined): number {
  const registry = new ModelRegistry({ agentDir: agentDir() });
  for (const error of registry.problems) writeStderr(`pig: warning: ${error}\n`);
  const models = registry.available().filter((m) => !search || matches(m, search));
  if (models.length === 0) {
    writeStdout(
      search
        ? `No available model matches "${search}".\n`
        : "No models available: set a provider's API key (e.g. ANTHROPIC_API_KEY or OPENAI_API_KEY) or add one in models.json.\n",
    );
    return 0;
  }
  const rows = [
    ["provider", "model", "context", "max-out", "thinking", "images"],
    ...models.map((m) => [m.provider, m.id, tokens(m.contextWindow), tokens(m.maxTokens), m.reasoning ? "yes" : "no", m.input.includes("image") ? "yes" : "no"]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const lines = rows.map((row) => row.map((cell, col) => cell.padEnd(widths[col]!)).join("  ").trimEnd());
  writeStdout(`${lines.join("\n")}\n`);
  return 0;
}
