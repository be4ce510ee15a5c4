/**
 * The same runner inside the compiled `pig` executable: host modules, synchronous socket reads,
 * `pi.exec` and upstream's examples must work without the sources or node_modules next to them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { pigBinary } from "../../helpers/binary.ts";
import { fixture, RunnerHarness } from "./harness.ts";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

describe("extension runner in the compiled binary", () => {
  test("loads extensions, runs a tool, reads the session synchronously and exits with its socket", async () => {
    const kinds = fixture("ts", "kinds.ts");
    const reader = fixture("ts", "session-reader.ts");
    const hello = fixture("pi-examples", "hello.ts");
    const snapshot = { header: '{"type":"session","id":"bin-1"}', entries: ['{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}'], leafId: "a" };
    harness = new RunnerHarness({ load: [kinds, reader, hello, fixture("ts", "throws.ts")], binary: pigBinary(), snapshot: () => snapshot });
    const h = harness;
    await h.start();
    await h.ready();
    expect(h.all("ready").filter((r) => r.params.error).map((r) => r.params.extension)).toEqual([fixture("ts", "throws.ts")]);
    expect(await h.request("tool.execute", { extension: hello, name: "hello", toolCallId: "1", args: { name: "bin" } })).toEqual({
      content: [{ type: "text", text: "Hello, bin!" }],
      details: { greeted: "bin" },
    });
    await h.request("command.run", { extension: reader, name: "count", args: "" });
    const entry = await h.waitFor(() => h.find("session.appendEntry"), "appendEntry");
    expect(entry.params.data).toMatchObject({ leaf: "a", entries: 1, header: "bin-1" });
    await h.request("command.run", { extension: kinds, name: "run", args: "" });
    const exec = await h.waitFor(() => h.all("session.appendEntry").find((e) => e.params.customType === "exec"), "exec entry");
    expect(exec.params.data).toMatchObject({ result: { stdout: "out\n", stderr: "err\n", code: 3, killed: false }, missing: { code: 1 } });
    h.dropSocket();
    expect(await h.proc!.exited).toBe(0);
  }, 60_000);
});
