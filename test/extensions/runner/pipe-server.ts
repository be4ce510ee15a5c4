/**
 * A server for socket-pipe.test.ts, in a process of its own (the test's thread blocks in
 * `takeSync`, so nothing in its process could answer). For every line it gets it answers, 30 ms
 * later, `got <bytes of that line>`; the line `bye` closes the connection instead. Each line it
 * gets is also printed (`line <text>`; a long one by its length), for a test whose client exits before any answer.
 */
import { unlinkSync } from "node:fs";

const path = process.argv[2]!;
try {
  unlinkSync(path);
} catch {
  // None yet.
}
let pending = "";
Bun.listen({
  unix: path,
  socket: {
    data(socket, chunk) {
      pending += chunk.toString();
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        console.log(line.length <= 80 ? `line ${line}` : `line of ${line.length} bytes`);
        if (line === "bye") setTimeout(() => socket.end(), 30);
        else setTimeout(() => socket.write(`got ${line.length}\n`), 30);
      }
    },
  },
});
console.log("listening");
