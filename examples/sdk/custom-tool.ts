/**
 * Give the model a tool of your own. Parameters can be a valibot schema (checked before the
 * tool runs) or plain JSON Schema.
 * Run: bun examples/sdk/custom-tool.ts
 */
import * as v from "valibot";
import { createAgentSession, defineTool } from "pig-coding-agent";

const weather = defineTool({
  name: "weather",
  description: "The current weather in a city.",
  parameters: v.object({ city: v.pipe(v.string(), v.description("City name")) }),
  async execute({ city }) {
    return `It is sunny in ${city}, 21 °C.`;
  },
});

const session = await createAgentSession({ session: "memory", tools: [], customTools: [weather] });
await session.prompt("What is the weather in Lisbon?");
const answer = session.getMessages().at(-1);
if (answer?.role === "assistant") {
  for (const block of answer.content as { type: string; text?: string }[]) if (block.type === "text") console.log(block.text);
}
const results = session.getMessages().filter((m) => m.role === "toolResult");
console.log(`tool calls: ${results.length}`);
session.dispose();
