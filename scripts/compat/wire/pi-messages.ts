/**
 * Records Pi 0.87.1's requests to the Radius gateway (`pi-messages`), see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/pi-messages.ts
 *
 * `thinking-tool`: the `balanced` model thinks, reads notes.txt, answers.
 * `image`: the same model gets `@pic.png`.
 */
import { recordWire } from "./pi-recording.ts";

await recordWire({
  api: "pi-messages",
  provider: "radius",
  keyVariable: "RADIUS_API_KEY",
  baseUrl: (url) => `${url}/pi-messages/v1`,
  runs: [
    {
      name: "thinking-tool",
      model: "balanced",
      thinking: "high",
      prompt: ["What does notes.txt say? Use the read tool."],
      script: [
        { thinking: "The user wants the notes. I will read the file.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { thinking: "The file names the launch code.", text: "notes.txt says the launch code is PIG-42." },
      ],
    },
    {
      name: "image",
      model: "balanced",
      thinking: "low",
      prompt: ["@pic.png", "What colour is this picture?"],
      script: [{ thinking: "Two by two pixels, all red.", text: "It is red." }],
    },
  ],
});
