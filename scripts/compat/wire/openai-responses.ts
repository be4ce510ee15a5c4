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
import { imageRun, namedOnCommandLine, recordWire, thinkingToolRun, type WireRun } from "./pi-recording.ts";

const RUNS: WireRun[] = [
  thinkingToolRun("openai-thinking-tool", "gpt-5.5", "high"),
  imageRun("openai-image", "gpt-5.5", "high"),
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

await recordWire({
  api: "openai-responses",
  provider: "openai",
  keyVariable: "OPENAI_API_KEY",
  baseUrl: (url) => `${url}/v1`,
  runs: namedOnCommandLine(RUNS),
});
