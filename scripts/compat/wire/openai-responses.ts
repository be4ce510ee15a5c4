/**
 * Records Pi 0.87.1's requests to OpenAI's Responses API (`openai-responses`, provider `openai`),
 * see pi-recording.ts:
 *
 *   node_modules/.bin/bun scripts/compat/wire/openai-responses.ts [run names…]
 *
 * GPT-5.5 at `--thinking high`: `openai-thinking-tool` thinks, reads notes.txt, answers;
 * `openai-image` gets `@pic.png`; `openai-tool-image` reads pic.png with `read`, so a tool result
 * carries the image.
 */
import { recordWire, type WireRun } from "./pi-recording.ts";

const RUNS: WireRun[] = [
  {
    name: "openai-thinking-tool",
    model: "gpt-5.5",
    thinking: "high",
    prompt: ["What does notes.txt say? Use the read tool."],
    script: [
      { thinking: "The user wants the notes. I will read the file.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { thinking: "The file names the launch code.", text: "notes.txt says the launch code is PIG-42." },
    ],
  },
  {
    name: "openai-image",
    model: "gpt-5.5",
    thinking: "high",
    prompt: ["@pic.png", "What colour is this picture?"],
    script: [{ thinking: "Two by two pixels, all red.", text: "It is red." }],
  },
  {
    name: "openai-tool-image",
    model: "gpt-5.5",
    thinking: "high",
    prompt: ["Read pic.png and tell me what it shows."],
    script: [
      { thinking: "I will look at the picture.", toolCalls: [{ name: "read", arguments: { path: "pic.png" } }] },
      { text: "It shows a red square." },
    ],
  },
];

const only = process.argv.slice(2);
await recordWire({
  api: "openai-responses",
  provider: "openai",
  keyVariable: "OPENAI_API_KEY",
  baseUrl: (url) => `${url}/v1`,
  runs: RUNS.filter((run) => only.length === 0 || only.includes(run.name)),
});
