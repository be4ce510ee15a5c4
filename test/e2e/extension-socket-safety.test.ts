/**
 * What another local user cannot do to root's pig through the extension socket: pig does not put
 * its socket in a directory that user controls (root keeps their XDG_RUNTIME_DIR after `su` or
 * `sudo -E`), and an extension process pointed at a socket that user serves — pig's runner, the
 * Go and Python SDKs, the Rust example — checks the peer's uid and refuses before it sends or
 * loads anything; pig then says the process refused its socket.
 */
import { beforeAll, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildRustExample, cargoPath, haveDebianCrates, RUST_EXAMPLE_BINARY } from "../../examples/extensions/rust/build.ts";
import { pigBinary } from "../helpers/binary.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { asOtherUser, describeAsOtherUser, type OtherUser, otherUserEnv } from "../helpers/other-user.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const HOSTILE_HOST = join(ROOT, "test", "extensions", "helpers", "hostile-host.ts");
const GO = Bun.which("go");
const GO_EXAMPLES = join(ROOT, "examples", "extensions", "go");
const PYTHON_EXAMPLE = join(ROOT, "examples", "extensions", "python", "prompt-counter.py");
/** The exit status of an extension process that refused the host socket (docs/extension-protocol.md §2). */
const REFUSED = 77;

const { world } = extensionWorlds();

/** A TypeScript extension that, once loaded, writes the socket it was given to `marker`. */
function markerExtension(dir: string, marker: string): string {
  const path = join(dir, "marker.ts");
  writeFileSync(path, `import { writeFileSync } from "node:fs";\nexport default function () {\n  writeFileSync(${JSON.stringify(marker)}, process.env.PIG_EXT_SOCKET ?? "");\n}\n`);
  return path;
}

interface Hostile {
  socket: string;
  /** Everything the process sent to the hostile host ("" when nothing). */
  received(): string;
  stop(): void;
}

/** The other user serving a socket in their own home, asking whoever connects to load `module`. */
async function hostileHost(user: OtherUser, module: string): Promise<Hostile> {
  const dir = join(user.home, `h-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { mode: 0o700 });
  chownSync(dir, user.uid, user.gid);
  const socket = join(dir, "host.sock");
  const record = join(dir, "record");
  const proc = Bun.spawn(asOtherUser(user, [process.execPath, HOSTILE_HOST, socket, record, module]), {
    cwd: dir,
    env: otherUserEnv(user),
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain("listening");
  return {
    socket,
    received: () => (existsSync(record) ? readFileSync(record, "utf8") : ""),
    stop: () => proc.kill(),
  };
}

/** Runs `argv` as root pointed at `socket`, to completion. */
async function runPointedAt(argv: string[], socket: string, extra: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  const home = tempDir("pig-peer-home-");
  const proc = Bun.spawn(argv, {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PIG_EXT_SOCKET: socket, PIG_EXT_TOKEN: "0123456789abcdef", PIG_EXT_PROTOCOL: "pig-ext/1", ...extra },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr };
}

describeAsOtherUser("the extension socket and another local user", (user) => {
  test("root with the other user's XDG_RUNTIME_DIR: pig puts its socket elsewhere, and the extension still loads", async () => {
    const theirs = join(user.home, "runtime");
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, user.uid, user.gid);
    const dir = tempDir("pig-xdg-ext-");
    const marker = join(dir, "socket-path");
    const w = await world();
    const run = await w.run(["-p", "-e", markerExtension(dir, marker), "hi"], { env: { XDG_RUNTIME_DIR: theirs } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const socket = readFileSync(marker, "utf8");
    expect(socket).toEndWith("/host.sock");
    expect(socket.startsWith(theirs)).toBe(false);
    expect(readdirSync(theirs)).toEqual([]);
  });

  test("pig's runner pointed at the other user's socket refuses before it sends or loads anything", async () => {
    const dir = tempDir("pig-hijack-ts-");
    chmodSync(dir, 0o755);
    const marker = join(dir, "loaded");
    const hostile = await hostileHost(user, markerExtension(dir, marker));
    try {
      const run = await runPointedAt([pigBinary(), "__extension-runner"], hostile.socket);
      expect(run.stderr).toContain(`refused the host socket: its peer runs as uid ${user.uid}, not 0`);
      expect(run.code).toBe(REFUSED);
      expect(existsSync(marker)).toBe(false);
      expect(hostile.received()).toBe("");
    } finally {
      hostile.stop();
    }
  });

  test("the Python SDK pointed at the other user's socket refuses before it sends anything", async () => {
    const hostile = await hostileHost(user, "/nonexistent");
    try {
      const run = await runPointedAt(["python3", PYTHON_EXAMPLE], hostile.socket);
      expect(run.stderr).toContain(`refused the host socket: its peer runs as uid ${user.uid}, not 0`);
      expect(run.code).toBe(REFUSED);
      expect(hostile.received()).toBe("");
    } finally {
      hostile.stop();
    }
  });

  test("pig reports an extension that refused its socket as such", async () => {
    const hostile = await hostileHost(user, "/nonexistent");
    try {
      const dir = tempDir("pig-refusing-ext-");
      // The extension is started by pig as usual, but told to connect to the other user's socket.
      writeFileSync(
        join(dir, "pig-extension.json"),
        JSON.stringify({ name: "refusing", protocol: "pig-ext/1", command: ["env", `PIG_EXT_SOCKET=${hostile.socket}`, "python3", PYTHON_EXAMPLE] }),
      );
      const w = await world();
      const run = await w.run(["-p", "-e", join(dir, "pig-extension.json"), "hi"]);
      expect(run.stderr).toContain(`Failed to load extension "${join(dir, "pig-extension.json")}": refused the host socket:`);
      expect(run.stderr).toContain(`its peer runs as uid ${user.uid}, not 0`);
      expect(run.stderr).not.toContain("did not start");
      expect(hostile.received()).toBe("");
    } finally {
      hostile.stop();
    }
  });

  describeNeeding("go", GO !== null, "Go", () => {
    beforeAll(() => {
      const built = Bun.spawnSync([GO!, "build", "-o", "bin/", "./..."], { cwd: GO_EXAMPLES, stdout: "pipe", stderr: "pipe" });
      if (built.exitCode !== 0) throw new Error(`go build failed:\n${built.stderr.toString()}`);
    }, 300_000);

    test("the Go SDK pointed at the other user's socket refuses before it sends anything", async () => {
      const hostile = await hostileHost(user, "/nonexistent");
      try {
        const run = await runPointedAt([join(GO_EXAMPLES, "bin", "prompt-counter")], hostile.socket);
        expect(run.stderr).toContain(`refused the host socket: its peer runs as uid ${user.uid}, not 0`);
        expect(run.code).toBe(REFUSED);
        expect(hostile.received()).toBe("");
      } finally {
        hostile.stop();
      }
    });
  });

  describeNeeding("cargo and librust-serde-json-dev", cargoPath() !== undefined && haveDebianCrates(), "Rust", () => {
    beforeAll(() => void buildRustExample(), 300_000);

    test("the Rust example pointed at the other user's socket refuses before it sends anything", async () => {
      const hostile = await hostileHost(user, "/nonexistent");
      try {
        const run = await runPointedAt([RUST_EXAMPLE_BINARY], hostile.socket);
        expect(run.stderr).toContain(`refused the host socket: its peer runs as uid ${user.uid}, not 0`);
        expect(run.code).toBe(REFUSED);
        expect(hostile.received()).toBe("");
      } finally {
        hostile.stop();
      }
    });
  });
});
