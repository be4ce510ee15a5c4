/**
 * Text to the system clipboard through the platform's tool. Tools are tried in order; one that
 * is installed but fails (wl-copy outside Wayland, xclip without a display) passes to the next.
 * When none takes it (over ssh, in a container), a caller that owns the terminal can send the
 * text as an OSC 52 sequence, which the terminal puts on its own clipboard.
 */

export const CLIPBOARD_TOOLS: readonly (readonly string[])[] = [
  ["pbcopy"],
  ["wl-copy"],
  ["xclip", "-selection", "clipboard"],
  ["xsel", "--clipboard", "--input"],
  ["clip.exe"],
];

/** The tools' names, for messages that say what to install. */
export const CLIPBOARD_TOOL_HINT = "install one of pbcopy, wl-copy, xclip or xsel (clip.exe on Windows)";

export interface ClipboardDeps {
  which(command: string): string | null;
  /** Runs `argv` with `input` on stdin; resolves to the exit code. */
  run(argv: string[], input: string): Promise<number>;
  /** The terminal pig runs in, for OSC 52; none when output is not a terminal. */
  terminal?: { write(sequence: string): void; env: NodeJS.ProcessEnv };
}

/** Text up to this size goes through OSC 52 (encoded about 100 KB, which most terminals accept). */
export const OSC52_MAX_BYTES = 74_000;

/**
 * The OSC 52 sequence that sets the clipboard to `text`. Inside tmux it is sent a second time
 * wrapped for tmux's passthrough: tmux takes the plain one itself when `set-clipboard` is on,
 * and hands the wrapped one to the outer terminal when `allow-passthrough` is on (the other is
 * dropped, and both setting the same text does no harm).
 */
export function osc52Sequence(text: string, env: NodeJS.ProcessEnv): string {
  const plain = `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
  if (!env.TMUX) return plain;
  return `${plain}\x1bPtmux;${plain.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;
}

const TIMEOUT_MS = 5000;

/** The tools on this machine's PATH, without a terminal. */
export const clipboardTools: ClipboardDeps = {
  // The PATH of now: without it Bun.which searches the one the process started with.
  which: (command) => Bun.which(command, { PATH: process.env.PATH ?? "" }),
  async run(argv, input) {
    // Output is ignored, not piped: xclip leaves a child serving the selection, which would
    // keep a pipe open and this call waiting.
    const proc = Bun.spawn(argv, { stdin: "pipe", stdout: "ignore", stderr: "ignore", timeout: TIMEOUT_MS });
    try {
      await proc.stdin.write(input);
      await proc.stdin.end();
    } catch {
      // A tool that exits before reading (wl-copy without a Wayland display) closes the pipe
      // first: its exit code tells what happened, and a failure passes to the next tool.
    }
    return proc.exited;
  },
};

/** The tools, and this process's standard output for OSC 52 when it is a terminal. */
export const defaultClipboardDeps: ClipboardDeps = {
  ...clipboardTools,
  ...(process.stdout.isTTY ? { terminal: { write: (sequence: string) => void process.stdout.write(sequence), env: process.env } } : {}),
};

/** Copies `text` with the first tool that takes it: that tool, or undefined with the tools tried (none when none is installed). */
export async function copyToClipboard(text: string, deps: ClipboardDeps = defaultClipboardDeps): Promise<{ tool?: string; tried: string[] }> {
  const tried: string[] = [];
  for (const [command, ...args] of CLIPBOARD_TOOLS) {
    const path = deps.which(command!);
    if (!path) continue;
    tried.push(command!);
    if ((await deps.run([path, ...args], text)) === 0) return { tool: command!, tried };
  }
  return { tried };
}
