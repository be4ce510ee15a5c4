/**
 * A small program around InputEditor for the tmux tests (and for trying the editor by hand):
 * `bun test/interactive/input/demo.ts`. Submissions are echoed as `submit[kind]: "<json>"`.
 *
 * Environment:
 *   DEMO_AGENT_DIR  where prompt-history.jsonl lives (default: a fresh temp dir)
 *   DEMO_CWD        the project for @file completion (default: the current directory)
 *   DEMO_MODE       "stream": a numbered line every 100 ms; "partial": words without newlines,
 *                   a newline after every fifth
 * Submitting "/busy" or "/idle" switches what Alt+Enter does; "/status" shows two status lines.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { combineProviders } from "../../../src/modes/interactive/input/completion.ts";
import { InputEditor } from "../../../src/modes/interactive/input/editor.ts";
import { fileMentionProvider } from "../../../src/modes/interactive/input/file-mentions.ts";
import { PromptHistory } from "../../../src/modes/interactive/input/history.ts";
import { slashCommandProvider } from "../../../src/modes/interactive/input/slash-commands.ts";

const agentDir = process.env.DEMO_AGENT_DIR || mkdtempSync(join(tmpdir(), "pig-demo-"));
const cwd = process.env.DEMO_CWD || process.cwd();
const mode = process.env.DEMO_MODE ?? "";

const commands = [
  { name: "help", description: "Show help" },
  { name: "model", description: "Select a model" },
  { name: "quit", description: "Exit" },
  { name: "session", description: "Show session info" },
  { name: "settings", description: "Open settings" },
];

let timer: ReturnType<typeof setInterval> | undefined;

const editor: InputEditor = new InputEditor({
  history: PromptHistory.forAgentDir(agentDir),
  completion: combineProviders(slashCommandProvider(commands), fileMentionProvider({ cwd })),
  onSubmit(text, kind) {
    editor.print(`submit[${kind}]: ${JSON.stringify(text)}\n`);
    if (text === "/busy") editor.setBusy(true);
    if (text === "/idle") editor.setBusy(false);
    if (text === "/status") editor.setStatus(["2 queued: steer this | follow up that", "⠋ Working…"]);
    if (text === "/quit") exit();
  },
  onEscape: () => editor.print("escape\n"),
  onClear: () => editor.print("cleared\n"),
  onKey: (key) => editor.print(`key: ${key.id}\n`),
  onExit: exit,
});

function exit(): void {
  if (timer) clearInterval(timer);
  editor.print("bye\n");
  editor.stop();
  process.exit(0);
}

editor.print("demo ready\n");
editor.start();

if (mode === "stream") {
  let n = 0;
  timer = setInterval(() => editor.print(`stream line ${++n}\n`), 100);
}
if (mode === "partial") {
  let n = 0;
  timer = setInterval(() => {
    n++;
    editor.print(`word${n}${n % 5 === 0 ? "\n" : " "}`);
  }, 100);
}
