// Runs an extension host with one TypeScript extension, prints the runner's pid, then waits to be killed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startExtensionHost } from "../../../src/extensions/host/host.ts";
import { HEADLESS_UI } from "../../../src/extensions/ui.ts";
import { FakePort } from "./host-fixture.ts";

const extension = process.argv[2]!;
const dir = mkdtempSync(join(tmpdir(), "pig-orphan-"));
const host = await startExtensionHost({
  sources: [
    {
      id: extension,
      entry: extension,
      runtime: "typescript",
      command: [],
      ownProcess: false,
      env: [],
      activation: ["onStartup"],
      tools: [],
      commands: [],
      name: "echo",
      origin: "cli",
    },
  ],
  port: new FakePort(),
  ui: HEADLESS_UI,
  cwd: dir,
  agentDir: join(dir, "agent"),
  mode: "print",
  socketBaseDir: dir,
});
console.log(JSON.stringify({ pid: host.list()[0]!.pid, errors: host.loadErrors }));
setInterval(() => {}, 1 << 30);
