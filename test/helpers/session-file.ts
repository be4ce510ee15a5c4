/** What a world's run left in its session files, for tests that check what was stored. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PigWorld } from "./pig-env.ts";

type Json = Record<string, unknown>;

/** The text of every session file the world's runs wrote, joined. */
export function sessionText(world: Pick<PigWorld, "agentDir">): string {
  const root = join(world.agentDir, "sessions");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".jsonl"))
    .sort()
    .map((file) => readFileSync(join(root, file), "utf8"))
    .join("");
}

/** Every entry of those files, in file order. */
export function sessionEntries(world: Pick<PigWorld, "agentDir">): Json[] {
  return sessionText(world)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json);
}

/** The messages of those entries (system messages included). */
export function sessionMessages(world: Pick<PigWorld, "agentDir">): Json[] {
  return sessionEntries(world)
    .filter((entry) => entry.type === "message")
    .map((entry) => entry.message as Json);
}
