/**
 * A request answered with a value at hand is written at once, so nothing the host sends after
 * it (a `session.appended` after the `session.subscribe` snapshot) can overtake the answer.
 */
import { expect, test } from "bun:test";
import { Connection } from "../../src/extensions/connection.ts";

test("a synchronous answer goes out before a notification sent right after it", async () => {
  const out: Array<Record<string, unknown>> = [];
  let appended!: () => void;
  const appendSent = new Promise<void>((resolve) => (appended = resolve));
  let conn!: Connection;
  conn = new Connection({
    send: (bytes) => {
      for (const line of new TextDecoder().decode(bytes).split("\n")) if (line) out.push(JSON.parse(line));
    },
    onRequest: (method) => {
      // The snapshot is taken now; an append that happens in the next microtask is sent after it.
      queueMicrotask(() => {
        conn.notify("session.appended", { entries: ["{}"], leafId: "e1" });
        appended();
      });
      return { method, header: "{}", entries: [], leafId: null };
    },
  });
  conn.receive(new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session.subscribe", params: {} })}\n`));
  await appendSent;
  expect(out.map((m) => m.method ?? `answer ${String(m.id)}`)).toEqual(["answer 1", "session.appended"]);
});
