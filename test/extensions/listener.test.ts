/** The listener's handshake, spoken to over a real socket by the test itself. */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExtensionListener } from "../../src/extensions/host/listener.ts";
import { ErrorCode, HOST_METHODS, PROTOCOL } from "../../src/extensions/protocol.ts";
import { describeAsOtherUser, runAsOtherUser } from "../helpers/other-user.ts";

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function listen() {
  const dir = mkdtempSync(join(tmpdir(), "pig-listener-"));
  const socketPath = join(dir, "host.sock");
  const listener = new ExtensionListener({ socketPath, incoming: HOST_METHODS, maxFrameBytes: 1 << 20, handshakeTimeoutMs: 10_000, onProtocolError: () => {} });
  listener.listen();
  cleanup = () => {
    listener.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { listener, socketPath };
}

/** Sends one `initialize` on a fresh connection; resolves with the first frame that comes back. */
async function initialize(socketPath: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  let buffer = "";
  let answer!: (frame: { result?: unknown; error?: { code: number; message: string } }) => void;
  const got = new Promise<{ result?: unknown; error?: { code: number; message: string } }>((r) => (answer = r));
  const socket = await Bun.connect({
    unix: socketPath,
    socket: {
      data(_s, bytes) {
        buffer += new TextDecoder().decode(bytes);
        const nl = buffer.indexOf("\n");
        if (nl >= 0) answer(JSON.parse(buffer.slice(0, nl)));
      },
    },
  });
  socket.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }) + "\n");
  const frame = await got;
  socket.end();
  return frame;
}

const base = { client: { name: "test", version: "1" }, pid: process.pid };

describe("handshake", () => {
  test("a token refused for its protocol cannot be used again", async () => {
    const { listener, socketPath } = listen();
    let accepted = 0;
    listener.expect("tok", {
      pgid: () => undefined,
      accept: () => {
        accepted++;
        return { result: {} as never, handlers: { onRequest: () => null, onNotification: () => {}, onClose: () => {} } };
      },
    });
    const first = await initialize(socketPath, { ...base, token: "tok", protocols: ["pig-ext/9"] });
    expect(first.error?.code).toBe(ErrorCode.UnsupportedProtocol);
    const second = await initialize(socketPath, { ...base, token: "tok", protocols: [PROTOCOL] });
    expect(second.error).toEqual({ code: ErrorCode.Unauthorized, message: "unknown or already used token" });
    expect(accepted).toBe(0);
  });

  test("initialize without pid is refused with -32001 naming the field, and the token is spent", async () => {
    const { listener, socketPath } = listen();
    let accepted = 0;
    listener.expect("tok", {
      pgid: () => undefined,
      accept: () => {
        accepted++;
        return { result: {} as never, handlers: { onRequest: () => null, onNotification: () => {}, onClose: () => {} } };
      },
    });
    const refused = await initialize(socketPath, { client: base.client, token: "tok", protocols: [PROTOCOL] });
    expect(refused.error?.code).toBe(ErrorCode.Unauthorized);
    expect(refused.error?.message).toContain("pid");
    expect(accepted).toBe(0);
  });

  test("a linked (in-process) token is good only on an in-process connection, and a socket's only on a socket", async () => {
    const { listener, socketPath } = listen();
    const accepted: string[] = [];
    const launch = (name: string, inProcess: boolean) => ({
      pgid: () => undefined,
      inProcess,
      accept: () => {
        accepted.push(name);
        return { result: { ok: name } as never, handlers: { onRequest: () => null, onNotification: () => {}, onClose: () => {} } };
      },
    });
    listener.expect("linked-tok", launch("linked", true));
    const refused = await initialize(socketPath, { ...base, token: "linked-tok", protocols: [PROTOCOL] });
    expect(refused.error).toEqual({ code: ErrorCode.Unauthorized, message: "unknown or already used token" });

    listener.expect("socket-tok", launch("socket", false));
    listener.expect("linked-tok-2", launch("linked", true));
    const { Peer } = await import("../../src/extensions/runner/peer.ts");
    const wrong = new Peer(listener.connectInProcess());
    await expect(wrong.request("initialize", { ...base, token: "socket-tok", protocols: [PROTOCOL] })).rejects.toThrow("unknown or already used token");
    const right = new Peer(listener.connectInProcess());
    expect(await right.request("initialize", { ...base, token: "linked-tok-2", protocols: [PROTOCOL] })).toEqual({ ok: "linked" });
    expect(accepted).toEqual(["linked"]);
  });
});

describeAsOtherUser("handshake with another user's process", (user) => {
  test("a peer of another uid is refused on the kernel's word, even when it states the pid of one of ours", async () => {
    const { listener, socketPath } = listen();
    // Opened up so the other user can reach the socket at all (pig's own directory is 0700).
    chmodSync(join(socketPath, ".."), 0o755);
    chmodSync(socketPath, 0o666);
    let accepted = 0;
    listener.expect("tok", {
      pgid: () => undefined,
      accept: () => {
        accepted++;
        return { result: {} as never, handlers: { onRequest: () => null, onNotification: () => {}, onClose: () => {} } };
      },
    });
    const params = JSON.stringify({ ...base, token: "tok", protocols: [PROTOCOL] });
    const run = await runAsOtherUser(user, [process.execPath, join(import.meta.dir, "helpers", "initialize-client.ts"), socketPath, params]);
    const frame = JSON.parse(run.stdout.trim()) as { error?: { code: number; message: string } };
    expect(frame.error).toEqual({ code: ErrorCode.Unauthorized, message: `peer runs as uid ${user.uid}, not 0` });
    expect(accepted).toBe(0);
  });
});
