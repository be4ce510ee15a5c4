/**
 * The runtime owns what it acquires: the session file's write lock and the extension processes
 * are let go by `close()`, and by a failure part way through `createRuntime` as well.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntime } from "../../src/runtime/create.ts";
import type { RuntimeConfig } from "../../src/runtime/config.ts";
import { UserError } from "../../src/runtime/errors.ts";
import { processAlive } from "../helpers/process-state.ts";
import { HEADER, msg, user, writeSession } from "../helpers/sessions.ts";
import { tempDir } from "../helpers/tmp.ts";

/** A world with one session file and one extension that writes its process's pid when it loads. */
function world() {
  const root = tempDir("pig-runtime-close-");
  const agentDir = join(root, "agent");
  const cwd = join(root, "work");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const pidFile = join(root, "extension-pid.txt");
  const extension = join(root, "pid-writer.ts");
  writeFileSync(
    extension,
    `import { writeFileSync } from "node:fs";\nexport default function () {\n  writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n}\n`,
  );
  const session = writeSession([{ ...HEADER, cwd }, msg("a1", null, user("hello"))], { dir: root });
  const config: RuntimeConfig = {
    cwd,
    env: { ...process.env, PIG_CODING_AGENT_DIR: agentDir },
    interactive: false,
    session: { kind: "open", pathOrId: session },
    trust: false,
    extensions: { paths: [extension], noExtensions: true, mode: "print" },
  };
  return { config, session, extensionPid: () => Number(readFileSync(pidFile, "utf8")), pidFile };
}


/** Whether another process can take the session's write lock; the holder lets go at once. */
async function takeLock(path: string): Promise<string> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "..", "helpers", "hold-lock.ts"), path], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  child.stdin.end();
  const stderr = await new Response(child.stderr).text();
  await child.exited;
  return value ? new TextDecoder().decode(value) : stderr;
}

/** The extension process is stopped once the caller's await returns; a zombie is not alive. */
async function stopped(pid: number): Promise<boolean> {
  const until = Date.now() + 10_000;
  while (processAlive(pid) && Date.now() < until) await Bun.sleep(20);
  return !processAlive(pid);
}

describe("createRuntime", () => {
  test("a failure after the session is opened and the extensions started lets go of the lock and stops them", async () => {
    const w = world();
    // The model is named nowhere: it is looked for again once the extensions have registered theirs, and still missing.
    const failure = await createRuntime({ ...w.config, model: "nowhere/no-such-model" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UserError);
    expect(existsSync(w.pidFile)).toBe(true);
    expect(await stopped(w.extensionPid())).toBe(true);
    expect(await takeLock(w.session)).toBe("locked\n");
  });

  test("a command-line value no extension takes, found once they have registered, lets go of the lock and stops them", async () => {
    const w = world();
    const refused = new Error("unknown option --no-such-flag");
    const extensions = {
      ...w.config.extensions,
      flagValues: () => {
        throw refused;
      },
    };
    const failure = await createRuntime({ ...w.config, extensions }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBe(refused);
    expect(await stopped(w.extensionPid())).toBe(true);
    expect(await takeLock(w.session)).toBe("locked\n");
  });

  test("close() stops the extensions and lets go of the lock, once however often it is called", async () => {
    const w = world();
    const runtime = await createRuntime({ ...w.config, model: undefined });
    const pid = w.extensionPid();
    expect(processAlive(pid)).toBe(true);
    expect(await takeLock(w.session)).toContain("in use by pig process");
    const first = runtime.close();
    expect(runtime.close()).toBe(first);
    await first;
    expect(await stopped(pid)).toBe(true);
    expect(await takeLock(w.session)).toBe("locked\n");
  });

  test("await using closes the runtime at the end of its block", async () => {
    const w = world();
    let pid = 0;
    {
      await using runtime = await createRuntime(w.config);
      pid = w.extensionPid();
      expect(runtime.extensions.host).toBeDefined();
    }
    expect(await stopped(pid)).toBe(true);
    expect(await takeLock(w.session)).toBe("locked\n");
  });
});
