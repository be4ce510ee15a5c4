/**
 * `pig --list-models [search]`: the models that have a key, as a table. None (or none matching
 * the search) is exit code 1, with what to do on stderr.
 */
import { join } from "node:path";
import { noModelsMessage } from "../ai/auth.ts";
import { ModelRegistry } from "../ai/registry.ts";
import type { Model } from "../ai/types.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";

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
  // Nothing to list is a failure a script can see (exit code 1), said on stderr with the way out.
  if (models.length === 0) {
    if (!search || registry.available().length === 0) {
      writeStderr(`pig: ${noModelsMessage(join(agentDir(), "models.json"), { fromListModels: true })}\n`);
    } else {
      writeStderr(`pig: No available model matches "${search}"; 'pig --list-models' lists them all.\n`);
    }
    return 1;
  }
  const rows = [
    ["provider", "model", "context", "max-out", "thinking", "images"],
    // Provider and model names come from models.json and extensions.
    ...models.map((m) => [terminalSafe(m.provider, { tabs: "show" }), terminalSafe(m.id, { tabs: "show" }), tokens(m.contextWindow), tokens(m.maxTokens), m.reasoning ? "yes" : "no", m.input.includes("image") ? "yes" : "no"]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const lines = rows.map((row) => row.map((cell, col) => cell.padEnd(widths[col]!)).join("  ").trimEnd());
  writeStdout(`${lines.join("\n")}\n`);
  return 0;
}
