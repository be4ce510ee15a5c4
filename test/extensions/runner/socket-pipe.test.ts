import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openSocketPipe, type PipeEvent, type SocketPipe } from "../../../src/extensions/runner/socket-pipe.ts";
import { tempDir } from "../../helpers/tmp.ts";

let server: ReturnType<typeof Bun.spawn> | undefined;
afterEach(() => {
  server?.kill();
  server = undefined;
});

/** Starts the server; resolves once it listens, with its socket's path and its later output. */
async function startServer(): Promise<{ path: string; output: { read(): Promise<{ value?: Uint8Array; done: boolean }> } }> {
  const path = join(tempDir("pig-pipe-"), "s.sock");
  server = Bun.spawn([process.execPath, join(import.meta.dir, "pipe-server.ts"), path], { stdout: "pipe", stderr: "inherit" });
  const output = (server.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("listening\n")) {
    const { value, done } = await output.read();
    if (done) throw new Error("the pipe server ended");
    text += new TextDecoder().decode(value);
  }
  return { path, output };
}

async function connect(): Promise<SocketPipe> {
  const { path } = await startServer();
  const pipe = openSocketPipe(path);
  const opened = Promise.withResolvers<void>();
  pipe.onEvent((event) => {
    if (event.t === "open") opened.resolve();
  });
  await opened.promise;
  return pipe;
}

/** What arrives within `ms` without returning to the event loop, as text (and whether it closed). */
function takeText(pipe: SocketPipe, until: (text: string) => boolean, ms = 5_000): { text: string; closed: boolean } {
  const deadline = performance.now() + ms;
  let text = "";
  let closed = false;
  while (!until(text) && !closed && performance.now() < deadline) {
    for (const event of pipe.takeSync(deadline - performance.now()) as PipeEvent[]) {
      if (event.t === "data") text += new TextDecoder().decode(event.bytes);
      if (event.t === "closed") closed = true;
    }
  }
  return { text, closed };
}

describe("the runner's socket pipe", () => {
  test("takeSync blocks the thread until the answer is read from the socket", async () => {
    const pipe = await connect();
    pipe.write(new TextEncoder().encode("hello\n"));
    const started = performance.now();
    const { text } = takeText(pipe, (t) => t.includes("\n"));
    expect(text).toBe("got 5\n");
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  test("a write larger than the socket takes at once is sent while takeSync blocks", async () => {
    const pipe = await connect();
    const big = new Uint8Array(16 * 1024 * 1024 + 1).fill(120);
    big[big.length - 1] = 10;
    pipe.write(big);
    pipe.write(new TextEncoder().encode("after\n"));
    const { text } = takeText(pipe, (t) => t.split("\n").length > 2, 20_000);
    expect(text).toBe(`got ${16 * 1024 * 1024}\ngot 5\n`);
  });

  test("the other side closing ends takeSync with a closed event", async () => {
    const pipe = await connect();
    pipe.write(new TextEncoder().encode("bye\n"));
    expect(takeText(pipe, () => false).closed).toBe(true);
    expect(pipe.takeSync(10)).toEqual([]);
  });

  test("data that arrives between synchronous reads reaches the event handler", async () => {
    const pipe = await connect();
    const seen: string[] = [];
    const arrived = Promise.withResolvers<void>();
    pipe.onEvent((event) => {
      if (event.t !== "data") return;
      seen.push(new TextDecoder().decode(event.bytes));
      if (seen.join("").includes("\n")) arrived.resolve();
    });
    pipe.write(new TextEncoder().encode("abc\n"));
    await arrived.promise;
    expect(seen.join("")).toBe("got 3\n");
  });

  test("what one turn writes arrives in order, also when the process exits in that same turn", async () => {
    const { path, output } = await startServer();
    const client = `
      import { openSocketPipe } from ${JSON.stringify(join(import.meta.dir, "../../../src/extensions/runner/socket-pipe.ts"))};
      const pipe = openSocketPipe(${JSON.stringify(path)});
      pipe.onEvent((event) => {
        if (event.t !== "open") return;
        for (const word of ["one", "two", "three"]) pipe.write(new TextEncoder().encode(word + "\\n"));
        process.exit(0);
      });
    `;
    const child = Bun.spawn([process.execPath, "-e", client], { stdout: "ignore", stderr: "inherit" });
    expect(await child.exited).toBe(0);
    let text = "";
    while (!text.includes("line three\n")) {
      const { value, done } = await output.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toBe("line one\nline two\nline three\n");
  });
});
