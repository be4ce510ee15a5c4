// What Pi 0.87.1 sends to GitHub Copilot over each API it speaks there (Chat Completions,
// Anthropic Messages, Responses), recorded against the fake LLM server: the Copilot headers.
//
//   node_modules/.bin/bun scripts/compat/wire/github-copilot.ts
//
// Writes test/fixtures/pi-0.87.1-wire/github-copilot/<api>/ (test/ai/github-copilot-requests.test.ts reads them).
// Pi takes the token from COPILOT_GITHUB_TOKEN here: a token in auth.json would send Pi to the
// https host its proxy-ep names, which the fake server is not.
import { IMAGE_SCRIPT, record, TOOL_SCRIPT } from "./pi-wire-record.ts";

const TOKEN = "tid=fake;exp=4102444800;sku=copilot_individual;copilot-secret-7f3a9c";

const MODELS = [
  { api: "openai-completions", modelId: "gemini-3.5-flash" },
  { api: "anthropic-messages", modelId: "claude-sonnet-4.6" },
  { api: "openai-responses", modelId: "gpt-5-mini" },
] as const;

for (const { api, modelId } of MODELS) {
  await record({
    dir: `github-copilot/${api}`,
    provider: "github-copilot",
    modelId,
    thinking: "high",
    modelsJson: (url) => ({ providers: { "github-copilot": { baseUrl: url } } }),
    env: () => ({ COPILOT_GITHUB_TOKEN: TOKEN }),
    secrets: [TOKEN],
    runs: [
      { name: "tool-call", args: ["Read notes.txt and tell me what it says."], script: TOOL_SCRIPT },
      { name: "image", args: ["@pic.png", "What is in this picture?"], script: IMAGE_SCRIPT },
    ],
    readme: `# Pi 0.87.1 → GitHub Copilot over ${api}

Recorded by \`node_modules/.bin/bun scripts/compat/wire/github-copilot.ts\`: Pi 0.87.1 ran
\`pi --model github-copilot/${modelId} --thinking high -p …\` against the fake LLM server, with the
token in \`COPILOT_GITHUB_TOKEN\` and models.json pointing the provider's \`baseUrl\` at the server.

- \`tool-call\`: the model thinks, calls \`read\` on \`notes.txt\`, then answers (two requests:
  \`X-Initiator: user\`, then \`agent\`).
- \`image\`: the prompt carries \`@pic.png\`; one request with \`Copilot-Vision-Request\`.

Per run: \`NAME.requests.jsonl\`, \`NAME.session.jsonl\`, \`NAME.stdout.txt\`; \`model.json\` is the
model's catalogue entry (with Copilot's editor headers). Machine paths, the port (\`PORT\`) and
the token (\`[credential]\`) were replaced.
`,
  });
}
