/**
 * Connects to a host socket, sends one `initialize` with the params given as JSON, and prints the
 * first frame that comes back (or `closed` when the connection ends first). For the listener
 * tests that speak to pig's socket as another user.
 *
 *   bun initialize-client.ts <socket path> '<params JSON>'
 */
export {};

const [path, params] = process.argv.slice(2) as [string, string];
let buffer = "";
let done = false;
const finish = (line: string) => {
  if (done) return;
  done = true;
  console.log(line);
  process.exit(0);
};
const socket = await Bun.connect({
  unix: path,
  socket: {
    data(_s, bytes) {
      buffer += new TextDecoder().decode(bytes);
      const nl = buffer.indexOf("\n");
      if (nl >= 0) finish(buffer.slice(0, nl));
    },
    close() {
      finish("closed");
    },
  },
});
socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: JSON.parse(params) })}\n`);
