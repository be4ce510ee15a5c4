/**
 * `pig __extension-runner`: the process that holds pig's TypeScript/JavaScript extensions. It
 * connects to the socket pig gave it (PIG_EXT_SOCKET), proves the launch token (PIG_EXT_TOKEN),
 * learns which extensions to load, serves them the host modules and runs them. It exits when
 * pig says `shutdown` or the socket closes, so a killed pig leaves no runner behind — and, as it
 * leads its own process group, no process its extensions started either.
 */
import { useNormalJitPolicy } from "../../util/jit-policy.ts";
import { VERSION } from "../../version.ts";
import type { ExtensionMode } from "../api/types.ts";
import { ENV_SOCKET, ENV_TOKEN } from "../launch-env.ts";
import { PROTOCOL } from "../protocol-constants.ts";
import type { InitializeResult } from "../protocol.ts";
import { LocalBus } from "./bus.ts";
import { installDispatch } from "./dispatch.ts";
import { type ImportModule, loadExtensions } from "./loader.ts";
import { connectHostModels } from "./host-models.ts";
import { registerHostModules } from "./modules.ts";
import { describe, Peer } from "./peer.ts";
import { ExtensionRecord } from "./record.ts";
import type { Runtime } from "./runtime.ts";
import { SessionMirror, subscribeSession } from "./session-mirror.ts";
import { openLaunchPipe, type SocketPipe } from "./socket-pipe.ts";
import { StateMirror } from "./state.ts";
import { writeStderrThrough } from "./sync-stderr.ts";

const MODES: Record<string, ExtensionMode> = { interactive: "tui", print: "print", json: "json", rpc: "rpc" };

function fail(message: string): never {
  process.stderr.write(`pig extension runner: ${message}\n`);
  process.exit(1);
}

/** `pipe`: the launch socket's pipe, when the caller opened it already (openLaunchPipe). */
export async function runExtensionRunner(pipe?: SocketPipe): Promise<number> {
  const socket = process.env[ENV_SOCKET];
  const token = process.env[ENV_TOKEN];
  if (!socket || !token) fail(`${ENV_SOCKET} and ${ENV_TOKEN} must be set (this mode is started by pig)`);
  // Not for the extensions or their children: the token is single-use and proves nothing later.
  delete process.env[ENV_TOKEN];
  // Bun reads this at start-up: pig puts it in the runner's environment (child-env.ts, pig's
  // cache folder). A runner started some other way writes no cache, and neither do the
  // processes its extensions start.
  process.env.BUN_RUNTIME_TRANSPILER_CACHE_PATH ??= "0";

  writeStderrThrough();
  const peer = new Peer(pipe ?? openLaunchPipe()!);
  // pig is gone (killed, perhaps with -9): the helpers the extensions started go with the runner.
  peer.onClose(() => exitWithGroup());
  try {
    await bootRunner(peer, token, {
      onInitialized(init) {
        // The runner lives as long as pig does: as short as a `-p` run, whose start-up JIT policy it
        // keeps (~1.5 MB less peak RSS), or as long as a session (util/jit-policy.ts).
        if (init.session.mode === "interactive" || init.session.mode === "rpc") useNormalJitPolicy();
        if (init.session.cwd) process.chdir(init.session.cwd);
      },
      onShutdown() {
        // Closing the socket may end the runner already (its close handler, above); if not, this does.
        peer.close();
        exitWithGroup();
      },
    });
  } catch (error) {
    fail(describe(error));
  }
  // The process now lives for its socket: the pipe keeps the event loop alive until it closes.
  return new Promise<number>(() => {});
}

export interface BootOptions {
  /** Right after the handshake (the out-of-process runner adopts pig's mode and cwd). */
  onInitialized?(init: InitializeResult): void;
  /** pig said `shutdown`. */
  onShutdown(): void;
  /** Imports one extension's module (default: `import()` of its path, with the host modules prepared). */
  importModule?: ImportModule;
}

/**
 * The runner's life over `peer`, whatever the transport: the handshake, the runtime every
 * extension shares, the dispatch of what pig asks, then each extension loaded in order. The
 * out-of-process runner (above) and a Piglet Binary's linked extensions (linked.ts) both run it.
 */
export async function bootRunner(peer: Peer, token: string, options: BootOptions): Promise<void> {
  // The connection comes first: while pig answers `initialize`, the runner registers the host
  // modules and loads TypeBox, which nearly every extension imports (the other host modules load
  // when an extension needs them). Linked extensions had theirs resolved when they were built.
  // The request leaves when the connection opens, which takes a turn of the event loop: TypeBox
  // (a few ms of loading) waits for that, so that pig has the request while it loads.
  const initializing = peer.request<InitializeResult>("initialize", { token, protocols: [PROTOCOL], client: { name: "pig-extension-runner", version: VERSION }, pid: process.pid });
  if (!options.importModule) await Promise.race([peer.opened, initializing.catch(() => {})]);
  const hostModules = options.importModule ? undefined : registerHostModules();
  if (hostModules) void hostModules.load("typebox").catch(() => {});

  let init: InitializeResult;
  try {
    init = await initializing;
  } catch (error) {
    throw new Error(`initialize: ${describe(error)}`);
  }
  peer.setMaxFrameBytes(init.maxFrameBytes);
  options.onInitialized?.(init);

  const state = new StateMirror(init.session.cwd);
  const runtime: Runtime = {
    peer,
    state,
    session: new SessionMirror(() => subscribeSession((method, params, timeoutMs, dropEarlier) => peer.requestSync(method, params, timeoutMs, dropEarlier))),
    bus: new LocalBus((channel, data) => peer.notify("bus.emit", { channel, data })),
    mode: MODES[init.session.mode] ?? "print",
    hasUI: init.session.hasUI,
    flags: init.flags ?? {},
    records: new Map<string, ExtensionRecord>(),
    flushRegistrations(record) {
      const params = record.takePending();
      if (!params) return;
      peer.request("register", params).then(
        (result) => {
          const diagnostics = (result as { diagnostics?: { type: string; message: string }[] } | null)?.diagnostics ?? [];
          for (const d of diagnostics) process.stderr.write(`[${record.name}] ${d.type}: ${d.message}\n`);
        },
        (error: unknown) => process.stderr.write(`[${record.name}] register: ${describe(error)}\n`),
      );
    },
  };
  installDispatch(runtime, () => options.onShutdown());
  connectHostModels(peer);
  await loadExtensions(runtime, init.load, hostModules ? (path) => hostModules.prepare(path) : undefined, options.importModule);
}

/**
 * Ends the runner and its process group (pig starts it as the group's leader; anything its
 * extensions started without a group of their own is in it). Not the leader (started by hand):
 * there is no group of that id, and only the runner exits.
 */
function exitWithGroup(): never {
  // Its end of the log first: pig takes the log's end for the sign that the runner is done
  // (host/ext-process.ts), without waiting for the process's own end. /dev/null takes the
  // descriptor's place (the lowest free one: 0 and 1 are open), so that a file opened from now
  // on (Bun writes its profiles as the process ends) does not become stderr.
  try {
    const fs = require("node:fs") as typeof import("node:fs");
    fs.closeSync(2);
    fs.openSync("/dev/null", "w");
  } catch {
    // Closed already, or no /dev/null: nothing more is written to stderr anyway.
  }
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    // No such group.
  }
  process.exit(0);
}
