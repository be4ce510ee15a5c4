/**
 * `/copy`: the last answer's text to the system clipboard through the platform's tool. Tools
 * are tried in order; one that is installed but fails (wl-copy outside Wayland, xclip without
 * a display) passes to the next. When none takes it (over ssh, in a container) the text goes to
 * the terminal as an OSC 52 sequence, which the terminal puts on its own clipboard.
 */
import type { SlashCommand } from "../host.ts";

export const CLIPBOARD_TOOLS: readonly (readonly string[])[] = [
  ["pbcopy"],
  ["wl-copy"],
  ["xclip", "-selection", "clipboard"],
  ["xsel", "--clipboard", "--input"],
  ["clip.exe"],
];

export interface ClipboardDeps {
  which(command: string): string | null;
  /** Runs `argv` with `input` on stdin; resolves to the exit code. */
  run(argv: string[], input: string): Promise<number>;
  /** The terminal pig runs in, for OSC 52; none when output is not a terminal. */
  terminal?: { write(sequence: string): void; env: NodeJS.ProcessEnv };
}

/**
 * The OSC 52 sequence that sets the clipboard to `text`. Inside tmux it is sent a second time
 * wrapped for tmux's passthrough: tmux takes the plain one itself when `set-clipboard` is on,
 * and hands the wrapped one to the outer terminal when `allow-passthrough` is on (the other is
 * dropped, and both setting the same text does no harm).
 */
/** Text up to this size goes through OSC 52 (encoded about 100 KB, which most terminals accept). */
const OSC52_MAX_BYTES = 74_000;

export function osc52Sequence(text: string, env: NodeJS.ProcessEnv): string {
  const plain = `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
  if (!env.TMUX) return plain;
  return `${plain}\x1bPtmux;${plain.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;
}

const TIMEOUT_MS = 5000;

const defaultDeps: ClipboardDeps = {
  which: (command) => Bun.which(command),
  async run(argv, input) {
    // Output is ignored, not piped: xclip leaves a child serving the selection, which would
    // keep a pipe open and this call waiting.
    const proc = Bun.spawn(argv, { stdin: "pipe", stdout: "ignore", stderr: "ignore", timeout: TIMEOUT_MS });
    proc.stdin.write(input);
    await proc.stdin.end();
    return proc.exited;
  },
  ...(process.stdout.isTTY ? { terminal: { write: (sequence: string) => void process.stdout.write(sequence), env: process.env } } : {}),
};

/** Copies `text`; the tool that took it, or undefined with the tools tried (none when empty). */
export async function copyToClipboard(text: string, deps: ClipboardDeps = defaultDeps): Promise<{ tool?: string; tried: string[] }> {
  const tried: string[] = [];
  for (const [command, ...args] of CLIPBOARD_TOOLS) {
    const path = deps.which(command!);
    if (!path) continue;
    tried.push(command!);
    if ((await deps.run([path, ...args], text)) === 0) return { tool: command!, tried };
  }
  return { tried };
}

export function createCopyCommand(deps: ClipboardDeps = defaultDeps): SlashCommand {
  return {
    name: "copy",
    description: "Copy the last answer to the clipboard",
    async run(host) {
      const text = host.controller.lastAssistantText();
      if (!text) {
        host.warn("There is no answer to copy yet.");
        return;
      }
      const { tool, tried } = await copyToClipboard(text, deps);
      const size = `${text.length} characters`;
      if (tool) {
        host.info(`Copied the last answer to the clipboard (${size}).`);
      } else if (deps.terminal && Buffer.byteLength(text) > OSC52_MAX_BYTES) {
        host.error(
          `${tried.length > 0 ? `${tried.join(", ")} failed, and the` : "No clipboard tool found, and the"} answer (${size}) is too long to send through the terminal (OSC 52 carries up to ${OSC52_MAX_BYTES / 1000} KB in most terminals).`,
        );
      } else if (deps.terminal) {
        // OSC 52 is invisible and does not move the cursor: it can go straight to the terminal.
        // Whether the terminal puts it on the clipboard cannot be known (some ignore it).
        deps.terminal.write(osc52Sequence(text, deps.terminal.env));
        const sent = `the last answer (${size}) to the terminal's clipboard (OSC 52; terminals that do not support it ignore it).`;
        host.info(tried.length > 0 ? `${tried.join(", ")} failed; sent ${sent}` : `Sent ${sent}`);
      } else if (tried.length > 0) {
        host.error(`Copying failed with ${tried.join(", ")}.`);
      } else {
        host.error("No clipboard tool found: install one of pbcopy, wl-copy, xclip or xsel (clip.exe on Windows).");
      }
    },
  };
}

export const copyCommand = createCopyCommand();
