/**
 * docs/extension-protocol.md's event table says what pig does: each event's kind and deadline
 * are the ones the host uses (protocol-events.ts), a request's safe default is the one pig
 * states, and the events pig does not send are marked.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVENTS, type EventName, NEVER_SENT } from "../../src/extensions/protocol-events.ts";

const DOC = readFileSync(join(import.meta.dir, "..", "..", "docs", "extension-protocol.md"), "utf8");
const DEADLINES: Record<string, number> = { quick: 5_000, slow: 120_000, interactive: 600_000 };

function tableRows(): Array<{ names: string[]; kind: string; deadline: string; notSent: boolean; fallback: string }> {
  const start = DOC.indexOf("| event | kind |");
  const rows = DOC.slice(start).split("\n\n")[0]!.split("\n").slice(2);
  return rows.map((row) => {
    const cells = row.split(/(?<!\\)\|/).map((c) => c.trim());
    const first = cells[1]!;
    const raw = [...first.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    const names = raw.map((n) => (n.startsWith("_") ? raw[0]!.replace(/_[a-z]+$/, "") + n : n));
    return { names, kind: cells[2]!, deadline: cells[5]!.split(";")[0]!.trim(), notSent: first.includes("(never sent by pig)"), fallback: cells[6]!.replaceAll("**", "") };
  });
}

test("every event's row matches the kind, deadline and sending pig uses", () => {
  const seen = new Set<string>();
  for (const row of tableRows()) {
    for (const name of row.names) {
      expect(Object.hasOwn(EVENTS, name)).toBe(true);
      seen.add(name);
      const info = EVENTS[name as EventName] as { kind: string; deadlineMs?: number };
      expect(`${name}: ${row.kind}`).toBe(`${name}: ${info.kind}`);
      if (info.kind === "request") expect(`${name}: ${DEADLINES[row.deadline]}`).toBe(`${name}: ${info.deadlineMs}`);
      if (info.kind === "request") expect(`${name}: ${row.fallback}`).toBe(`${name}: ${(info as { safeDefault?: string }).safeDefault}`);
      expect(`${name}: ${row.notSent ? "not sent" : "sent"}`).toBe(`${name}: ${NEVER_SENT.has(name as EventName) ? "not sent" : "sent"}`);
    }
  }
  expect([...seen].sort()).toEqual(Object.keys(EVENTS).sort());
});
