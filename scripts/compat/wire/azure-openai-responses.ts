// What Pi 0.87.1 sends to Azure OpenAI's Responses API, recorded against the fake LLM server.
//
//   node_modules/.bin/bun scripts/compat/wire/azure-openai-responses.ts
//
// Writes test/fixtures/pi-0.87.1-wire/azure-openai-responses/ (test/ai/azure-openai-responses-requests.test.ts reads it).
import { IMAGE_SCRIPT, record, TOOL_SCRIPT } from "./pi-wire-record.ts";

const KEY = "azure-key-0c4e7b19d2";

await record({
  dir: "azure-openai-responses",
  provider: "azure-openai-responses",
  modelId: "gpt-5-mini",
  thinking: "high",
  // The fake server is no Azure host: the URL is used as it is, and the SDK adds /responses?api-version=….
  modelsJson: (url) => ({ providers: { "azure-openai-responses": { baseUrl: `${url}/openai/v1` } } }),
  env: () => ({ AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_API_VERSION: "v1" }),
  secrets: [KEY],
  runs: [
    { name: "tool-call", args: ["Read notes.txt and tell me what it says."], script: TOOL_SCRIPT },
    { name: "image", args: ["@pic.png", "What is in this picture?"], script: IMAGE_SCRIPT },
  ],
  readme: `# Pi 0.87.1 → Azure OpenAI Responses

Recorded by \`node_modules/.bin/bun scripts/compat/wire/azure-openai-responses.ts\`: Pi 0.87.1
(\`@earendil-works/pi-coding-agent\`) ran \`pi --model azure-openai-responses/gpt-5-mini --thinking high -p …\`
against the fake LLM server (\`test/helpers/fake-llm\`, its Azure route), with
\`AZURE_OPENAI_API_KEY\` set and models.json pointing the provider's \`baseUrl\` at
\`<server>/openai/v1\`.

- \`tool-call\`: the model thinks, calls \`read\` on \`notes.txt\`, then answers with text (two requests).
- \`image\`: the prompt carries \`@pic.png\` (a 2×2 PNG); one request.

Per run: \`NAME.requests.jsonl\` (method, path, query, headers, body of every request),
\`NAME.session.jsonl\` (Pi's session file) and \`NAME.stdout.txt\`. \`model.json\` is the model's entry
in Pi 0.87.1's catalogue. Only machine paths, the server's port (\`PORT\`) and the key
(\`[credential]\`) were replaced.
`,
});
