import { expect, spyOn, test } from "bun:test";
import { LocalBus } from "../../../src/extensions/runner/bus.ts";

test("emit calls this process's listeners before it returns, in order, then forwards the payload as they left it", () => {
  const forwarded: unknown[] = [];
  const bus = new LocalBus((channel, data) => forwarded.push([channel, structuredClone(data)]));
  const events = bus.api();
  const seen: string[] = [];
  events.on("ask", (data) => {
    seen.push("first");
    events.emit("answer", { to: (data as { id: number }).id });
  });
  events.on("ask", (data) => {
    seen.push("second");
    (data as { filled?: boolean }).filled = true;
  });
  const answers: unknown[] = [];
  events.on("answer", (data) => answers.push(data));
  const request: { id: number; filled?: boolean } = { id: 4 };
  events.emit("ask", request);
  expect(seen).toEqual(["first", "second"]);
  expect(answers).toEqual([{ to: 4 }]);
  expect(request.filled).toBe(true);
  expect(forwarded).toEqual([
    ["answer", { to: 4 }],
    ["ask", { id: 4, filled: true }],
  ]);
});

test("a listener that throws or rejects is logged and stops neither emit nor the others; off removes only its own", async () => {
  const stderr = spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    const events = new LocalBus(() => {}).api();
    const calls: string[] = [];
    const handler = () => calls.push("shared");
    const offFirst = events.on("c", handler);
    events.on("c", () => {
      throw new Error("sync boom");
    });
    events.on("c", async () => {
      throw new Error("async boom");
    });
    events.on("c", handler);
    expect(() => events.emit("c", 1)).not.toThrow();
    expect(calls).toEqual(["shared", "shared"]);
    offFirst();
    events.emit("c", 2);
    expect(calls).toEqual(["shared", "shared", "shared"]);
    await Promise.resolve();
    const logged = stderr.mock.calls.map((c) => String(c[0]));
    expect(logged).toContain("Event handler error (c): sync boom\n");
    expect(logged).toContain("Event handler error (c): async boom\n");
  } finally {
    stderr.mockRestore();
  }
});
