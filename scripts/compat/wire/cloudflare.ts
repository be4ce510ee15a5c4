// What Pi 0.87.1 sends to Cloudflare Workers AI and AI Gateway, recorded against the fake LLM
// server: the account and gateway ids in the URL, and the gateway's own key header.
//
//   node_modules/.bin/bun scripts/compat/wire/cloudflare.ts
//
// Writes test/fixtures/pi-0.87.1-wire/cloudflare-workers-ai/ and cloudflare-ai-gateway/anthropic-messages/
// (test/ai/cloudflare-requests.test.ts reads them). models.json keeps the placeholders in the
// base URL it points at the fake server, so Pi fills them in as it does for Cloudflare's hosts.
import { IMAGE_SCRIPT, record, TOOL_SCRIPT } from "./pi-wire-record.ts";

const KEY = "cf-key-5d0e2a7c41";
const RUNS = [
  { name: "tool-call", args: ["Read notes.txt and tell me what it says."], script: TOOL_SCRIPT },
  { name: "image", args: ["@pic.png", "What is in this picture?"], script: IMAGE_SCRIPT },
];
const README = (what: string, how: string) => `# Pi 0.87.1 → ${what}

Recorded by \`node_modules/.bin/bun scripts/compat/wire/cloudflare.ts\`: Pi 0.87.1 ran \`pi --model … --thinking high -p …\`
against the fake LLM server. ${how}

- \`tool-call\`: the model thinks, calls \`read\` on \`notes.txt\`, then answers (two requests).
- \`image\`: the prompt carries \`@pic.png\`; one request.

Per run: \`NAME.requests.jsonl\`, \`NAME.session.jsonl\`, \`NAME.stdout.txt\`; \`model.json\` is the
model's catalogue entry. Machine paths, the port (\`PORT\`) and the key (\`[credential]\`) were replaced.
`;

await record({
  dir: "cloudflare-workers-ai",
  provider: "cloudflare-workers-ai",
  modelId: "@cf/moonshotai/kimi-k2.6",
  thinking: "high",
  modelsJson: (url) => ({ providers: { "cloudflare-workers-ai": { baseUrl: `${url}/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1` } } }),
  env: () => ({ CLOUDFLARE_API_KEY: KEY, CLOUDFLARE_ACCOUNT_ID: "acct-0123" }),
  secrets: [KEY],
  runs: RUNS,
  readme: README(
    "Cloudflare Workers AI",
    "The key and account id came from `CLOUDFLARE_API_KEY` and `CLOUDFLARE_ACCOUNT_ID` (`acct-0123`); models.json set the base URL to `<server>/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1`.",
  ),
});

await record({
  dir: "cloudflare-ai-gateway/anthropic-messages",
  provider: "cloudflare-ai-gateway",
  modelId: "claude-sonnet-4.6",
  thinking: "high",
  modelsJson: (url) => ({ providers: { "cloudflare-ai-gateway": { baseUrl: `${url}/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/anthropic` } } }),
  authJson: { "cloudflare-ai-gateway": { type: "api_key", key: KEY, env: { CLOUDFLARE_ACCOUNT_ID: "acct-0123", CLOUDFLARE_GATEWAY_ID: "gw-main" } } },
  secrets: [KEY],
  runs: RUNS,
  readme: README(
    "Cloudflare AI Gateway (Anthropic)",
    'The key, account id and gateway id came from auth.json (`{"type": "api_key", "key": …, "env": {"CLOUDFLARE_ACCOUNT_ID": "acct-0123", "CLOUDFLARE_GATEWAY_ID": "gw-main"}}`); models.json set the base URL to `<server>/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/anthropic`.',
  ),
});
