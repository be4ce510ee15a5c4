/**
 * Records Pi 0.87.1's requests to Mistral (`mistral-conversations`), see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/mistral-conversations.ts
 *
 * `thinking-tool`: Magistral (reasoning by `prompt_mode`) thinks, reads notes.txt, answers.
 * `image`: Mistral Small (reasoning by `reasoning_effort`, takes images) gets `@pic.png`.
 */
import { imageRun, recordWire, thinkingToolRun } from "./pi-recording.ts";

await recordWire({
  api: "mistral-conversations",
  provider: "mistral",
  keyVariable: "MISTRAL_API_KEY",
  baseUrl: (url) => `${url}/mistral`,
  runs: [thinkingToolRun("thinking-tool", "magistral-medium-latest", "high"), imageRun("image", "mistral-small-latest", "medium")],
});
