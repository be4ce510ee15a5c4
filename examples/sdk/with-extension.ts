/**
 * Load an extension into a session made from code: the extension runs in its own process, as it
 * does for `pig -e`, and its tool is offered to the model like a built-in.
 * Run: bun examples/sdk/with-extension.ts [file …]
 */
import { join } from "node:path";
import { createAgentSession } from "pig-coding-agent";

const extension = join(import.meta.dir, "..", "extensions", "progress-tool.ts");
const session = await createAgentSession({ session: "memory", extensions: [extension], noExtensions: true });
session.subscribe((event) => {
  if (event.type !== "tool_execution_update") return;
  const first = event.partialResult.content[0];
  console.log(`progress: ${first?.type === "text" ? first.text : ""}`);
});
const files = process.argv.slice(2);
await session.prompt(`Count the lines of ${files.join(", ") || "README.md"}.`);
const answer = session.getMessages().at(-1);
if (answer?.role === "assistant") {
  for (const block of answer.content as { type: string; text?: string }[]) if (block.type === "text") console.log(block.text);
}
await session.dispose();
