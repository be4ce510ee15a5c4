/**
 * Records Pi 0.87.1's requests to Anthropic (`anthropic-messages`), see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/anthropic-messages.ts
 *
 * With an API key (`ANTHROPIC_API_KEY`): `anthropic-thinking-tool` — Claude Opus 4.8 (adaptive
 * thinking) thinks, reads notes.txt, answers; `anthropic-image` — Claude Sonnet 4.5 (a thinking
 * budget) gets `@pic.png`. With a Claude Pro/Max login in auth.json (an OAuth access token that
 * does not expire, so Pi never refreshes it; the requests identify as Claude Code): the same two
 * runs as `anthropic-oauth-thinking-tool` and `anthropic-oauth-image`.
 */
import { imageRun, namedOnCommandLine, recordWire, thinkingToolRun, type WireRun } from "./pi-recording.ts";

/** A Claude subscription access token as Anthropic issues them (the `sk-ant-oat` prefix marks OAuth). */
export const FAKE_OAUTH_TOKEN = "sk-ant-oat01-fake-wire-token-0123456789";

function runs(prefix: string): WireRun[] {
  return [thinkingToolRun(`${prefix}-thinking-tool`, "claude-opus-4-8", "high"), imageRun(`${prefix}-image`, "claude-sonnet-4-5", "medium")];
}

await recordWire({
  api: "anthropic-messages",
  provider: "anthropic",
  keyVariable: "ANTHROPIC_API_KEY",
  baseUrl: (url) => url,
  runs: namedOnCommandLine(runs("anthropic")),
});
await recordWire({
  api: "anthropic-messages",
  provider: "anthropic",
  authJson: { anthropic: { type: "oauth", access: FAKE_OAUTH_TOKEN, refresh: "fake-wire-refresh-token", expires: Date.UTC(2100, 0, 1) } },
  credential: FAKE_OAUTH_TOKEN,
  baseUrl: (url) => url,
  runs: namedOnCommandLine(runs("anthropic-oauth")),
});
