// Pi 0.87.1 against the fake Vertex AI: node_modules/.bin/bun scripts/compat/wire/google-vertex.ts
// (needs the npm registry once, to install Pi). Writes test/fixtures/pi-0.87.1-wire/google-vertex/.
// Pi reaches Google's token endpoint itself for Application Default Credentials, which no
// configuration points elsewhere; the runs use an API key, and the body is the same either way.
import { recordGoogleWire } from "./google-record.ts";

await recordGoogleWire({
  api: "google-vertex",
  provider: "google-vertex",
  model: "gemini-3-flash-preview",
  thinking: "low",
  baseUrl: (url) => url,
  env: { GOOGLE_CLOUD_API_KEY: "fake-vertex-key", GOOGLE_CLOUD_PROJECT: "fake-project", GOOGLE_CLOUD_LOCATION: "us-central1" },
});
