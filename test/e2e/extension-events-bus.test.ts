/**
 * `pi.events` through the built binary. Two extension files in the one TypeScript runner: as in
 * upstream (an EventEmitter), `emit` calls the other's listeners before it returns, so a request
 * over the bus has its reply — emitted on a reply channel, or written into the payload — at once;
 * a listener that throws or rejects is logged and stops nothing. Across processes (a Python
 * extension) the emit is relayed and the reply comes back later: the requester waits for it.
 */
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { extensionWorlds, runReportingTool } from "../helpers/extension-worlds.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { world } = extensionWorlds();

const RESPONDER = `
export default function (pi) {
  pi.events.on("calc:request", (req) => pi.events.emit("calc:reply", { id: req.id, sum: req.a + req.b }));
  pi.events.on("calc:request", (req) => { req.product = req.a * req.b; });
  pi.events.on("calc:request", () => { throw new Error("listener broke"); });
  pi.events.on("calc:request", async () => { throw new Error("async listener broke"); });
  pi.events.on("calc:request", (req) => { req.after = true; });
}
`;

const REQUESTER = `
export default function (pi) {
  pi.registerTool({
    name: "ask_bus",
    label: "Ask the bus",
    description: "Asks over pi.events",
    parameters: { type: "object", properties: { python: { type: "boolean" } } },
    async execute(_id, params) {
      const replies = [];
      const off = pi.events.on("calc:reply", (r) => replies.push(r));
      const request = { id: 1, a: 2, b: 3 };
      let threw = null;
      try { pi.events.emit("calc:request", request); } catch (e) { threw = e.message; }
      const sameProcess = { replies: [...replies], product: request.product, after: request.after, threw };
      off();
      let python = null;
      if (params.python) {
        // Another process answers later: listen for the reply first, then ask, and wait.
        python = await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no reply from python")), 20000);
          const stop = pi.events.on("py:reply", (reply) => {
            if (reply.id !== 7) return;
            clearTimeout(timer);
            stop();
            resolve(reply);
          });
          pi.events.emit("py:request", { id: 7, a: 4, b: 5 });
        });
      }
      return { content: [{ type: "text", text: JSON.stringify({ sameProcess, python }) }], details: {} };
    },
  });
}
`;

const SDK = resolve(import.meta.dir, "..", "..", "sdk", "python");

const PYTHON_RESPONDER = `
import sys
sys.path.insert(0, ${JSON.stringify(SDK)})
from pig_ext import Extension

ext = Extension("py-responder")


@ext.on_bus("py:request")
async def answer(data):
    ext.emit("py:reply", {"id": data["id"], "sum": data["a"] + data["b"], "from": "python"})


ext.run()
`;

test("in one runner, emit returns with the other extension's reply and its changes to the payload; a failing listener stops nothing", async () => {
  const { run, report } = await runReportingTool(world, "ask_bus", {
    files: { "ext/responder.ts": RESPONDER, "ext/requester.ts": REQUESTER },
    pigArgs: ["-e", "ext/responder.ts", "-e", "ext/requester.ts"],
  });
  expect(run.code).toBe(0);
  expect(report.sameProcess).toEqual({ replies: [{ id: 1, sum: 5 }], product: 6, after: true, threw: null });
});

describeNeeding("python3", Bun.which("python3") !== null, "across processes", () => {
  test("a Python extension's reply to a TypeScript extension's request arrives, relayed, once the requester waits for it", async () => {
    const { run, report } = await runReportingTool(world, "ask_bus", {
      args: { python: true },
      files: { "ext/responder.ts": RESPONDER, "ext/requester.ts": REQUESTER, "ext/responder.py": PYTHON_RESPONDER },
      pigArgs: ["-e", "ext/responder.ts", "-e", "ext/requester.ts", "-e", "ext/responder.py"],
    });
    expect(run.code).toBe(0);
    expect(report.sameProcess.replies).toEqual([{ id: 1, sum: 5 }]);
    expect(report.python).toEqual({ id: 7, sum: 9, from: "python" });
  });
});
