// The in-process connection of a Piglet Binary's linked extensions (src/extensions/memory-pipe.ts):
// the runner's Peer and the host's Connection over it, as over a socket — including the
// synchronous reads, which the host answers within the runner's `requestSync`.
import { expect, test } from "bun:test";
import { Connection } from "../../src/extensions/connection.ts";
import { createMemoryPair } from "../../src/extensions/memory-pipe.ts";
import { Peer } from "../../src/extensions/runner/peer.ts";

function connected(onRequest: (method: string, params: unknown) => unknown) {
  const { runner, host } = createMemoryPair();
  const conn = new Connection({ send: (bytes) => void host.endpoint.write(bytes), onRequest: (m, p) => onRequest(m, p) });
  host.onData((bytes) => conn.receive(bytes));
  return { peer: new Peer(runner), conn, host };
}

test("requestSync gets an answer the host computes synchronously, without the event loop", () => {
  const { peer } = connected((method, params) => ({ method, echoed: params }));
  expect(peer.requestSync("session.subscribe", { file: true })).toEqual({ method: "session.subscribe", echoed: { file: true } });
});

test("requestSync of an answer the host gives later fails at once instead of waiting out its timeout", () => {
  const { peer } = connected(() => new Promise(() => {}));
  const started = performance.now();
  expect(() => peer.requestSync("ui.getEditorText", {}, 60_000)).toThrow("no answer from pig to ui.getEditorText");
  expect(performance.now() - started).toBeLessThan(5_000);
});

test("requests, notifications and answers flow both ways in order, and closing reaches both sides", async () => {
  const seen: string[] = [];
  const { peer, conn, host } = connected((method) => {
    seen.push(method);
    return { ok: method };
  });
  peer.onRequest("tool.execute", (params) => ({ ran: params.name }));
  const answers = await Promise.all([peer.request("first"), peer.request("second")]);
  expect(answers).toEqual([{ ok: "first" }, { ok: "second" }]);
  expect(seen).toEqual(["first", "second"]);
  expect(await conn.request("tool.execute", { name: "greet" })).toEqual({ ran: "greet" });
  const hostClosed = new Promise<void>((resolve) => host.onClose(resolve));
  const runnerClosed = new Promise<void>((resolve) => peer.onClose(() => resolve()));
  peer.close();
  await Promise.all([hostClosed, runnerClosed]);
  await expect(peer.request("late")).rejects.toThrow("pig closed the extension connection");
});
