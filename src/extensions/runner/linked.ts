/**
 * The runner inside pig's own process, for a Piglet Binary's linked extensions: the same
 * runtime as `pig __extension-runner` (main.ts bootRunner — loader, dispatch, Pi API, session
 * mirror), over an in-process pipe instead of a socket. The extensions' modules were bundled
 * into the binary; their imports of pig's host modules (`pig/extension`, TypeBox, the Pi
 * packages) were bound at build time to `HOST_MODULE_HOOK`, answered here with the very exports
 * the out-of-process runner serves.
 */
import { HOST_MODULE_HOOK, linkedExtensions } from "../linked.ts";
import { RpcError } from "../rpc-error.ts";
import { ErrorCode } from "../protocol-constants.ts";
import type { MemoryScopes } from "../memory-pipe.ts";
import { inExtensionScope, outsideExtensionScope } from "./linked-output.ts";
import { bootRunner } from "./main.ts";
import { HostModules } from "./modules.ts";
import { describe, Peer } from "./peer.ts";
import type { SocketPipe } from "./socket-pipe.ts";

let hostModules: HostModules | undefined;

function installHostModules(): void {
  if (hostModules) return;
  const modules = (hostModules = new HostModules());
  (globalThis as Record<string, unknown>)[HOST_MODULE_HOOK] = (specifier: string) => modules.load(specifier);
}

/**
 * The scopes of the in-process pipe: the runner's side (the extensions' code) writes stray
 * output where an out-of-process runner's would go — stdout nowhere, stderr to `logPath`.
 */
export function linkedScopes(logPath: string): MemoryScopes {
  return { runner: (fn) => inExtensionScope(logPath, fn), host: outsideExtensionScope };
}

/** Starts the linked extensions' runner on `pipe`; resolves once each has loaded (or failed to). */
export function startLinkedRunner(pipe: SocketPipe, token: string, logPath: string): Promise<void> {
  return inExtensionScope(logPath, () => runLinked(pipe, token));
}

async function runLinked(pipe: SocketPipe, token: string): Promise<void> {
  installHostModules();
  const peer = new Peer(pipe);
  const byId = new Map(linkedExtensions().map((l) => [l.id, l]));
  try {
    await bootRunner(peer, token, {
      onShutdown: () => peer.close(),
      importModule: async (item) => {
        const linked = byId.get(item.id);
        if (!linked) throw new RpcError(ErrorCode.InvalidParams, `${item.id} is not linked into this binary`);
        return linked.load();
      },
    });
  } catch (error) {
    outsideExtensionScope(() => process.stderr.write(`pig: linked extensions: ${describe(error)}\n`));
    peer.close();
  }
}
