/**
 * Another local user pretending to be pig: it listens on a socket an extension process is
 * pointed at and answers the handshake, asking the process to load `module` (for pig's runner)
 * or to register as itself (an SDK). Every byte it receives is appended to `record`, so a test
 * can tell whether the process gave it anything (the token, a registration). It closes the
 * connection once the process says `ready`, so a process that trusted it exits.
 *
 *   bun hostile-host.ts <socket path> <record file> <module path>
 */
import { appendFileSync, rmSync } from "node:fs";

const [path, record, module] = process.argv.slice(2) as [string, string, string];
rmSync(path, { force: true });
let pending = "";

Bun.listen({
  unix: path,
  socket: {
    data(socket, chunk) {
      appendFileSync(record, chunk);
      pending += chunk.toString();
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        const message = JSON.parse(pending.slice(0, nl)) as { id?: number; method?: string };
        pending = pending.slice(nl + 1);
        if (message.id === undefined || message.method === undefined) continue;
        const result =
          message.method === "initialize"
            ? {
                protocol: "pig-ext/1",
                maxFrameBytes: 8 * 1024 * 1024,
                host: { name: "pig", version: "0.1.0" },
                load: [{ id: module, path: module }],
                extension: "hostile",
                session: { cwd: "/", mode: "print", hasUI: false },
                flags: {},
              }
            : {};
        socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
        if (message.method === "ready") socket.end();
      }
    },
  },
});
console.log("listening");
