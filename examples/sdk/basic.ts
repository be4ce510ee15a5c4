/**
 * Ask one question and stream the answer to stdout.
 * Run: bun examples/sdk/basic.ts "What is in this directory?"
 */
import { createAgentSession } from "pig-coding-agent";

const session = await createAgentSession({ session: "memory", tools: ["read", "ls"] });
session.subscribe((event) => {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
    process.stdout.write(event.assistantMessageEvent.delta);
  }
});
await session.prompt(process.argv[2] ?? "Say hello.");
process.stdout.write("\n");
session.dispose();
