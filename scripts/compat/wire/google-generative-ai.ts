// Pi 0.87.1 against the fake Gemini API: node_modules/.bin/bun scripts/compat/wire/google-generative-ai.ts
// (needs the npm registry once, to install Pi). Writes test/fixtures/pi-0.87.1-wire/google-generative-ai/.
import { recordGoogleWire } from "./google-record.ts";

await recordGoogleWire({
  api: "google-generative-ai",
  provider: "google",
  model: "gemini-2.5-flash",
  thinking: "high",
  baseUrl: (url) => `${url}/v1beta`,
  env: { GEMINI_API_KEY: "fake-gemini-key" },
});
