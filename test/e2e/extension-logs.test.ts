/**
 * Extension logs keep to their cap: an extension that floods its stderr leaves at most 10 MiB in
 * its log and 10 MiB in the `.1` before it, with the start and the end of the flood kept and the
 * cut said in the log; and a log that cannot be written at all never stops the session.
 */
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const EXT = join(import.meta.dir, "..", "fixtures", "extensions", "e2e2");
const ext = (name: string) => join(EXT, name);
const MIB = 1024 * 1024;

const { world } = extensionWorlds();

type Json = Record<string, any>;

/** The text of the tool results in model request `index` (OpenAI chat). */
function toolResults(requests: { body: unknown }[], index: number): string[] {
  return (requests[index]!.body as { messages: Json[] }).messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: Json) => p.text ?? "").join("")));
}

test("an extension writing 30 MiB to stderr: its log stays under 10 MiB, with the start in .1 and the end kept", async () => {
  const w = await world([{ toolCalls: [{ name: "flood", arguments: {} }] }, { text: "after the flood" }]);
  const result = await w.run(["-p", "-e", ext("flood.ts"), "go"]);
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe("after the flood\n");
  expect(toolResults(w.llm.requests, 1)).toEqual(["flood finished"]);
  const logs = join(w.agentDir, "extensions", "logs");
  const names = readdirSync(logs).sort();
  expect(names).toHaveLength(2);
  const [log, previous] = names.map((name) => join(logs, name));
  expect(previous).toBe(`${log}.1`);
  expect(statSync(log!).size).toBeLessThanOrEqual(10 * MIB);
  expect(statSync(previous!).size).toBeLessThanOrEqual(10 * MIB);
  const head = readFileSync(previous!, "utf8");
  const tail = readFileSync(log!, "utf8");
  expect(head.startsWith("flood-start-marker\n")).toBe(true);
  expect(tail.endsWith("line 29-1023 ".padEnd(1023, "x") + "\nflood-end-marker\n")).toBe(true);
  expect(tail).toMatch(/^\[pig: \d+ bytes of output dropped here to keep the log under 10 MiB; the start is in [\w.-]+\.log\.1\]\n/);
}, 120_000);

test("an extension log that cannot be written (the disk is full): the session goes on and is saved", async () => {
  const w = await world([{ toolCalls: [{ name: "flood", arguments: {} }] }, { text: "still here" }]);
  const logs = join(w.agentDir, "extensions", "logs");
  mkdirSync(logs, { recursive: true });
  // Every write to /dev/full fails with ENOSPC, as on a full disk.
  symlinkSync("/dev/full", join(logs, "flood.log"));
  const result = await w.run(["-p", "-e", ext("flood.ts"), "go"]);
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe("still here\n");
  expect(toolResults(w.llm.requests, 1)).toEqual(["flood finished"]);
  const sessions = join(w.agentDir, "sessions");
  const [project] = readdirSync(sessions);
  const [file] = readdirSync(join(sessions, project!)).filter((n) => n.endsWith(".jsonl"));
  const entries = readFileSync(join(sessions, project!, file!), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  expect(entries.at(-1)).toMatchObject({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "still here" }] } });
}, 120_000);
