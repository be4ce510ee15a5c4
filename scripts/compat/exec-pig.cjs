// Pi's RpcClient always spawns `node <cliPath> --mode rpc …` and has no option for another
// executable. pi-rpc-client.ts passes this file as cliPath: it runs the pig binary
// ($PIG_COMPAT_BIN, default ../../dist/pig) with the same arguments and the same stdin/stdout/stderr
// (inherited, so pig reads the client's pipe directly), forwards termination signals, and ends the
// way pig ended (same exit code, or the same signal).
"use strict";
const { spawn } = require("node:child_process");
const { resolve } = require("node:path");

const bin = process.env.PIG_COMPAT_BIN || resolve(__dirname, "..", "..", "dist", "pig");
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  process.stderr.write(`exec-pig: cannot run ${bin}: ${error.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
