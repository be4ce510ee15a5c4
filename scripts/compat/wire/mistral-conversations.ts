/**
 * Records Pi 0.87.1's requests to Mistral (`mistral-conversations`), see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/mistral-conversations.ts
 *
 * `thinking-tool`: Magistral (reasoning by `prompt_mode`) thinks, reads notes.txt, answers.
 * `image`: Mistral Small (reasoning by `reasoning_effort`, takes images) gets `@pic.png`.
 */
import { recordWire } from "./pi-recording.ts";

await recordWire({
  api: "mistral-conversations",
  provider: "mistral",
  keyVariable: "MISTRAL_API_KEY",
  baseUrl: (url) => `${url}/mistral`,
  runs: [
    {
      name: "thinking-tool",
      model: "magistral-medium-latest",
      thinking: "high",
      prompt: ["What does notes.txt say? Use the read tool."],
      script: [
        { thinking: "The user wants the notes. I will read the file.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { thinking: "The file names the launch code.", text: "notes.txt says the launch code is PIG-42." },
      ],
    },
    {
      name: "image",
      model: "mistral-small-latest",
      thinking: "medium",
      prompt: ["@pic.png", "What colour is this picture?"],
      script: [{ thinking: "Two by two pixels, all red.", text: "It is red." }],
    },
  ],
});
