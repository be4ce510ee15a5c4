// The host with pig's own TypeScript runner at the other end of the socket.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionSource } from "../../src/extensions/discovery.ts";
import { ctx, noUpdate, startTestHost, type TestHost, toolNamed, waitFor } from "./helpers/host-fixture.ts";
import { processAlive } from "../helpers/process-state.ts";

const ECHO = join(import.meta.dir, "../fixtures/extensions/host/echo.ts");
const FAREWELL = join(import.meta.dir, "../fixtures/extensions/host/farewell.ts");
const LAST_WORD = join(import.meta.dir, "../fixtures/extensions/host/last-word.ts");

function tsSource(path: string): ExtensionSource {
  return { id: path, entry: path, runtime: "typescript", command: [], ownProcess: false, env: [], activation: ["onStartup"], tools: [], commands: [], name: "echo", origin: "cli" };
}

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("TypeScript runner", () => {
  test("loads a Pi-style extension: its tool runs and its input handler chains", async () => {
    t = await startTestHost([tsSource(ECHO)]);
    expect(t.host.loadErrors).toEqual([]);
    const r = await toolNamed(t.host, "ts_echo").execute("c", { text: "hi" }, new AbortController().signal, noUpdate, ctx);
    expect(r.content).toEqual([{ type: "text", text: "ts:hi" }]);
    expect(await t.host.hooks().input({ text: "ping", source: "interactive" })).toEqual({ action: "transform", text: "pong" });
  });

  test("shutdown: once it returns the runner's last words are in its log; the runner and what it started then end", async () => {
    t = await startTestHost([{ ...tsSource(FAREWELL), name: "farewell" }]);
    expect(t.host.loadErrors).toEqual([]);
    const runner = t.host.list()[0]!.pid!;
    const r = await toolNamed(t.host, "start_helper").execute("c", {}, new AbortController().signal, noUpdate, ctx);
    const helper = Number((r.content[0] as { text: string }).text);
    expect(helper).toBeGreaterThan(0);
    expect(processAlive(helper)).toBe(true);
    await t.host.shutdown();
    // The runner closes its log when its work is done: pig has every line of it by then, though
    // it does not wait for the process itself to be gone.
    const log = readFileSync(join(t.dir, "agent", "extensions", "logs", "typescript-runner.log"), "utf8");
    expect(log).toContain("farewell: the last line before the runner ends\n");
    expect(t.host.list()[0]!.state).toBe("stopped");
    await waitFor(() => !processAlive(runner));
    await waitFor(() => !processAlive(helper));
  });

  test("shutdown: a handler's error the runner sent before it stopped is reported, not dropped", async () => {
    t = await startTestHost([{ ...tsSource(LAST_WORD), name: "last-word" }]);
    expect(t.host.loadErrors).toEqual([]);
    // The run's last event, and pig's shutdown at once after it (as a client that stops pig on
    // `agent_settled`): the error answering the event is the runner's last message.
    t.host.notify("agent_end", { messages: [] });
    await t.host.shutdown();
    expect(t.errors.map((e) => [e.event, e.error])).toEqual([["agent_end", expect.stringContaining("last-word: agent_end failed")]]);
  });

  test("the runner exits by itself when pig dies without shutting it down", async () => {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "helpers/orphan-host.ts"), ECHO], { stdout: "pipe", stderr: "inherit" });
    const reader = child.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const { pid, errors } = JSON.parse(text) as { pid: number; errors: string[] };
    expect(errors).toEqual([]);
    expect(processAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    await child.exited;
    await waitFor(() => !processAlive(pid));
  });
});
