/**
 * Runs the fake LLM server as a process (for benchmarks and manual runs):
 *
 *   bun test/helpers/fake-llm/main.ts [--port N] [--log requests.jsonl] [--text | script.json]
 *
 * Prints the base URL (`http://127.0.0.1:PORT`) as the only stdout line, then serves until
 * SIGINT/SIGTERM. Without a script every request gets the fallback text "ok"; `--text` is the
 * stateless text mode. `--log` appends each request as one JSON line, like `*.requests.jsonl`.
 */
import { appendFileSync } from "node:fs";
import { type FakeLlmOptions, startFakeLlm } from "./server.ts";

const USAGE = "usage: bun test/helpers/fake-llm/main.ts [--port N] [--log FILE] [--text | script.json]";

function parseArgs(args: string[]): FakeLlmOptions {
  const options: FakeLlmOptions = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--text") options.mode = "text";
    else if (arg === "--port") {
      const port = Number(args[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port needs a port number\n${USAGE}`);
      options.port = port;
    } else if (arg === "--log") {
      const file = args[++i];
      if (file === undefined) throw new Error(`--log needs a file\n${USAGE}`);
      options.onRequest = (request) => appendFileSync(file, `${JSON.stringify(request)}\n`);
    } else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg !== undefined && !arg.startsWith("-") && options.script === undefined) options.script = arg;
    else throw new Error(`unexpected argument ${arg}\n${USAGE}`);
  }
  return options;
}

try {
  const llm = await startFakeLlm(parseArgs(process.argv.slice(2)));
  const stop = () => {
    void llm.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  console.log(llm.url);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
