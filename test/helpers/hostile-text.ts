/** The hostile corpus (hostile-corpus.ts) and the checks that none of it reached a terminal raw. */
import { expect } from "bun:test";

import { HOSTILE, HOSTILE_PIECES } from "./hostile-corpus.ts";
import { assistant, HEADER, iso, msg, user, writeSession } from "./sessions.ts";
import { tempDir } from "./tmp.ts";

export { HOSTILE, HOSTILE_PIECES } from "./hostile-corpus.ts";

/** How the corpus shows once made safe: fragments a test can look for. */
export const HOSTILE_VISIBLE = ["␛[2K", "␛[1A", "␛]0;owned-title␇", "␛]52;c;", "␛Pq", "␛_apc-payload", "\\u009b31m", "before␍after", "ab␈c", "\\u202eevil", "\\u2066iso\\u2069"];

/**
 * What must never reach the terminal from the corpus: its escape sequences as written (pig's own
 * output has erase and cursor-up sequences of its own, so those two are looked for where the
 * corpus has them), C1 and bidi controls, a backspace, a bare CR between two words.
 */
export function expectNoHostileBytes(output: string): void {
  const p = HOSTILE_PIECES;
  const pieces = [`HOSTILE-START ${p.eraseLine}`, `${p.eraseLine} ${p.cursorUp}`, p.title, p.link, p.clipboard, p.dcs, p.apc, "\x9b", "\u202e", "\u202c", "\u2066", "\u2069", "\b", p.bareCr];
  const found = pieces.filter((piece) => output.includes(piece)).map((piece) => JSON.stringify(piece));
  expect(found).toEqual([]);
}

/** Every visible form of the corpus is in `text` (a screen or captured output). */
export function expectHostileShown(text: string): void {
  for (const fragment of HOSTILE_VISIBLE) expect(text).toContain(fragment);
}

/** A session (of `cwd`, in `dir`) whose name, messages, tool call, tool result and label carry the corpus. */
export function hostileSession(options: { dir?: string; cwd?: string } = {}): { dir: string; path: string } {
  const dir = options.dir ?? tempDir();
  const toolCall = { type: "toolCall", id: "call-1", name: "bash", arguments: { command: `true # ${HOSTILE}` } };
  const path = writeSession(
    [
      { ...HEADER, ...(options.cwd ? { cwd: options.cwd } : {}) },
      msg("a1", null, user(`asked ${HOSTILE}`)),
      msg("a2", "a1", assistant(`answered ${HOSTILE}`, { content: [{ type: "text", text: `answered ${HOSTILE}` }, toolCall], stopReason: "toolUse" })),
      msg("a3", "a2", { role: "toolResult", toolCallId: "call-1", toolName: "bash", content: [{ type: "text", text: `result ${HOSTILE}` }], isError: false, timestamp: Date.now() }),
      { type: "session_info", id: "a4", parentId: "a3", timestamp: iso(), name: `named ${HOSTILE}` },
      { type: "label", id: "a5", parentId: "a4", timestamp: iso(), targetId: "a1", label: `label ${HOSTILE}` },
    ],
    { dir, name: "2026-11-30T07-00-00-000Z_01a22b4b-0000-7000-8000-000000000001.jsonl" },
  );
  return { dir, path };
}
