// The shared TypeScript runner started before its host (extensions/host/prestart.ts): a host that
// fits takes the process over and answers the `initialize` that waited for it; one that does not
// starts its own, and the prestarted process is stopped.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionSource } from "../../src/extensions/discovery.ts";
import { PrestartedRunner } from "../../src/extensions/host/prestart.ts";
import { ctx, noUpdate, startTestHost, type TestHost, toolNamed, waitFor } from "./helpers/host-fixture.ts";
import { processAlive } from "../helpers/process-state.ts";
import { tempDir } from "../helpers/tmp.ts";

const ECHO = join(import.meta.dir, "../fixtures/extensions/host/echo.ts");

function tsSource(path: string): ExtensionSource {
  return { id: path, entry: path, runtime: "typescript", command: [], ownProcess: false, env: [], activation: ["onStartup"], tools: [], commands: [], name: "echo", origin: "cli" };
}

let t: TestHost | undefined;
let pre: PrestartedRunner | undefined;
afterEach(async () => {
  pre?.stop();
  pre = undefined;
  await t?.close();
  t = undefined;
});

/** A host like startTestHost's, in `cwd`, with the socket where a prestarted runner puts it. */
function hostIn(cwd: string, sources: ExtensionSource[], prestarted: PrestartedRunner): Promise<TestHost> {
  return startTestHost(sources, { cwd, agentDir: join(cwd, "agent"), socketBaseDir: undefined, prestarted });
}

describe("prestarted runner", () => {
  test("a host takes it over once it has called in: the extension loads in that process and its tool runs", async () => {
    const cwd = tempDir("pig-prestart-");
    pre = PrestartedRunner.start({ cwd, agentDir: join(cwd, "agent"), env: process.env });
    expect(pre).toBeDefined();
    const pid = pre!.pid;
    let taken = false;
    void pre!.takenOver.then(() => (taken = true));
    // The runner's `initialize` arrives before there is a host to answer it, and waits.
    await pre!.calledIn;
    expect(taken).toBe(false);
    t = await hostIn(cwd, [tsSource(ECHO)], pre!);
    // Taken over: what the run does beside the extensions' loading may start (runtime/create.ts).
    expect(taken).toBe(true);
    expect(t.host.loadErrors).toEqual([]);
    expect(t.host.list()[0]?.pid).toBe(pid);
    const r = await toolNamed(t.host, "ts_echo").execute("c", { text: "hi" }, new AbortController().signal, noUpdate, ctx);
    expect(r.content).toEqual([{ type: "text", text: "ts:hi" }]);
    // Taken over: stopping the prestart no longer touches it; the host's shutdown ends it.
    pre!.stop();
    expect(processAlive(pid)).toBe(true);
    await t.close();
    t = undefined;
    await waitFor(() => !processAlive(pid), "the runner to exit");
  });

  test("a host that does not fit starts its own runner, and the prestarted one is stopped with its socket", async () => {
    const cwd = tempDir("pig-prestart-");
    const elsewhere = tempDir("pig-prestart-other-");
    pre = PrestartedRunner.start({ cwd, agentDir: join(cwd, "agent"), env: process.env });
    const pid = pre!.pid;
    let taken = false;
    void pre!.takenOver.then(() => (taken = true));
    await pre!.calledIn;
    // Another working directory: not the process the host would have started.
    t = await hostIn(elsewhere, [tsSource(ECHO)], pre!);
    expect(t.host.loadErrors).toEqual([]);
    expect(t.host.list()[0]?.pid).not.toBe(pid);
    // Not taken over: nothing waiting for that may count on it.
    expect(taken).toBe(false);
    const socket = pre!.socketPath;
    expect(existsSync(socket)).toBe(true);
    pre!.stop();
    await waitFor(() => !processAlive(pid), "the prestarted runner to exit");
    expect(existsSync(socket)).toBe(false);
  });
});
