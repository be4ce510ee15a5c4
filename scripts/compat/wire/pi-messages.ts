/**
 * Records Pi 0.87.1's requests to the Radius gateway (`pi-messages`), see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/pi-messages.ts
 *
 * `thinking-tool`: the `balanced` model thinks, reads notes.txt, answers.
 * `image`: the same model gets `@pic.png`.
 */
import { imageRun, recordWire, thinkingToolRun } from "./pi-recording.ts";

await recordWire({
  api: "pi-messages",
  provider: "radius",
  keyVariable: "RADIUS_API_KEY",
  baseUrl: (url) => `${url}/pi-messages/v1`,
  runs: [thinkingToolRun("thinking-tool", "balanced", "high"), imageRun("image", "balanced", "low")],
});
