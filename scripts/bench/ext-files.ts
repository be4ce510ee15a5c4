// The generated TypeScript extensions the extension benchmarks load, and where they are written.
import { accessSync, constants, mkdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Extension `i`: one tool `tool_<i>` (two parameters; it answers `ok`) and a `tool_call` handler
 * that returns nothing. With `stamped`, the tool's description also carries, as
 * `@<origin> <evaluated> <factory>`, when the process began, when the module was evaluated and
 * when its factory ran (ms since the epoch): the first request to the model brings them back
 * without the extension doing any I/O of its own.
 */
export function extensionSource(i: number, stamped = false): string {
  const evaluated = stamped ? "const evaluatedAt = performance.timeOrigin + performance.now();\n" : "";
  const description = stamped
    ? `\`Benchmark tool ${i}: answers ok @\${performance.timeOrigin} \${evaluatedAt} \${performance.timeOrigin + performance.now()}\``
    : `"Benchmark tool ${i}: answers ok"`;
  return `import { Type } from "typebox";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
${evaluated}
export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "tool_${i}",
    label: "Tool ${i}",
    description: ${description},
    parameters: Type.Object({
      path: Type.String({ description: "A path" }),
      count: Type.Optional(Type.Number({ description: "How many" })),
    }),
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
  });
  pi.on("tool_call", () => undefined);
}
`;
}

/** ~/.cache when it can be written to, else the temp dir. */
export function smallBase(): string {
  const dir = join(homedir(), ".cache");
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    return tmpdir();
  }
}
