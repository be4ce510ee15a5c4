/**
 * Driving a program in a real terminal for tests: each session runs on its own tmux server
 * (a private socket, no user config), at a fixed size, with a chosen environment. Keys are sent
 * by tmux name, as literal text, as raw bytes, or as a bracketed paste; the screen is read back
 * as text. Sessions stay around after the program exits (to read its last screen) until killed.
 */
import { expect } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** tmux from PATH (Debian puts it in /usr/bin). */
export const TMUX = Bun.which("tmux") ?? "/usr/bin/tmux";

/** How long a wait for a screen may take before the test fails. */
export const WAIT_MS = 20_000;

let counter = 0;

export interface TmuxOptions {
  command: string[];
  width?: number;
  height?: number;
  cwd?: string;
  /** Added to the environment; EDITOR and VISUAL are removed unless given here. */
  env?: Record<string, string>;
}

export function tmuxAvailable(): boolean {
  try {
    return Bun.spawnSync([TMUX, "-V"]).exitCode === 0;
  } catch {
    return false;
  }
}

/**
 * The rows of `screen` that a line pig printed took: from the first row starting with `start`
 * down to the row where `text` is complete (runs of spaces, and the breaks between rows, counted
 * as one space). Empty when no row starts with `start`.
 */
export function rowsHolding(screen: string, start: string, text: string): string[] {
  const rows = screen.split("\n");
  const first = rows.findIndex((row) => row.startsWith(start));
  if (first < 0) return [];
  const flat = (parts: string[]) => parts.join(" ").replace(/\s+/g, " ");
  const whole = flat([text]);
  let last = first;
  while (last < rows.length - 1 && !flat(rows.slice(first, last + 1)).includes(whole)) last++;
  return rows.slice(first, last + 1);
}

export class TmuxSession {
  private constructor(
    private readonly socket: string,
    private readonly configDir: string,
  ) {}

  static start(options: TmuxOptions): TmuxSession {
    // The server's socket lives in the session's own temp dir, removed with it.
    const configDir = mkdtempSync(join(tmpdir(), `pig-tmux-${process.pid}-${++counter}-`));
    const socket = join(configDir, "socket");
    const config = join(configDir, "tmux.conf");
    // Keep the pane after the program exits so its last screen and exit status can be read.
    writeFileSync(config, "set -g remain-on-exit on\nset -g status off\nset -sg escape-time 0\n");
    const env = Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`);
    const session = new TmuxSession(socket, configDir);
    const args = ["-f", config, "new-session", "-d", "-s", "main", "-x", String(options.width ?? 80), "-y", String(options.height ?? 24)];
    if (options.cwd) args.push("-c", options.cwd);
    args.push("--", "env", "-u", "EDITOR", "-u", "VISUAL", ...env, ...options.command);
    session.tmux(args);
    return session;
  }

  private tmux(args: string[]): string {
    const proc = Bun.spawnSync([TMUX, "-S", this.socket, ...args], { stdout: "pipe", stderr: "pipe" });
    if (proc.exitCode !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${proc.stderr.toString()}`);
    return proc.stdout.toString();
  }

  /** Keys by tmux name: "Enter", "C-c", "Up", "M-Up", "Escape", "Tab". */
  sendKeys(...keys: string[]): void {
    this.tmux(["send-keys", "-t", "main", ...keys]);
  }

  /** Text typed as is. */
  type(text: string): void {
    this.tmux(["send-keys", "-t", "main", "-l", "--", text]);
  }

  /** Bytes written to the program as they are, e.g. an escape sequence ("\x1b[13;2u"); ASCII only. */
  sendRaw(bytes: string): void {
    const hex = [...bytes].map((ch) => ch.charCodeAt(0).toString(16).padStart(2, "0"));
    this.tmux(["send-keys", "-t", "main", "-H", ...hex]);
  }

  /** Pastes `text` the way a terminal does: bracketed when the program asked for it. */
  paste(text: string): void {
    this.tmux(["set-buffer", "-b", "pig-test", "--", text]);
    this.tmux(["paste-buffer", "-p", "-d", "-b", "pig-test", "-t", "main"]);
  }

  /** Changes the terminal's size, as a person dragging the window does (the program gets SIGWINCH). */
  resize(width: number, height: number): void {
    this.tmux(["resize-window", "-t", "main", "-x", String(width), "-y", String(height)]);
  }

  /** The visible screen, one line per row, trailing spaces trimmed. */
  capture(): string {
    return this.tmux(["capture-pane", "-p", "-t", "main"]);
  }

  /** The scrollback and the visible screen, oldest row first (`capture-pane -S -`). */
  captureHistory(): string {
    return this.tmux(["capture-pane", "-p", "-S", "-", "-t", "main"]);
  }

  /** The visible screen with its colours and attributes as escape sequences (`capture-pane -e`). */
  captureStyled(): string {
    return this.tmux(["capture-pane", "-p", "-e", "-t", "main"]);
  }

  /** The visible screen with the rows a long line wrapped onto joined back into that line (`capture-pane -J`). */
  captureJoined(): string {
    return this.tmux(["capture-pane", "-p", "-J", "-t", "main"]);
  }

  /**
   * Every row on the screen is one the program printed: no line was longer than a row and cut at
   * the terminal's edge (joining wrapped rows, `captureJoined`, then changes nothing but the
   * trailing spaces).
   */
  expectNoRowCutByTheTerminal(): void {
    const trimmed = (text: string) => text.replace(/ +$/gm, "");
    expect(trimmed(this.captureJoined())).toBe(trimmed(this.capture()));
  }

  lines(): string[] {
    return this.capture().replace(/\n$/, "").split("\n");
  }

  cursor(): { x: number; y: number } {
    const [x, y] = this.tmux(["display-message", "-p", "-t", "main", "#{cursor_x} #{cursor_y}"]).trim().split(" ").map(Number);
    return { x: x ?? -1, y: y ?? -1 };
  }

  /** The process id of the pane's program (the command the session was started with). */
  panePid(): number {
    return Number(this.tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"]).trim());
  }

  /** Whether the program has exited (tmux 3.3 does not reliably report the exit status). */
  exited(): boolean {
    return this.tmux(["display-message", "-p", "-t", "main", "#{pane_dead}"]).trim() === "1";
  }

  /**
   * Waits until the screen satisfies `check` (text or pattern it contains); the screen, or an
   * error showing it. The timeout only bounds a failure: on a loaded machine a screen can take
   * seconds, so it is generous and tests rarely need to pass one.
   */
  async waitFor(check: string | RegExp | ((screen: string) => boolean), timeoutMs = WAIT_MS): Promise<string> {
    const test = typeof check === "function" ? check : typeof check === "string" ? (s: string) => s.includes(check) : (s: string) => check.test(s);
    const deadline = Date.now() + timeoutMs;
    let screen = this.capture();
    while (!test(screen)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(check)}; screen:\n${screen}`);
      await Bun.sleep(30);
      screen = this.capture();
    }
    // A wait is an assertion about what the screen shows: count it as one.
    expect(test(screen)).toBe(true);
    return screen;
  }

  async waitForExit(timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.exited()) {
      if (Date.now() > deadline) throw new Error(`program did not exit; screen:\n${this.capture()}`);
      await Bun.sleep(30);
    }
    expect(this.exited()).toBe(true);
  }

  /**
   * From now on every byte the program writes is appended to a file (tmux pipe-pane), before the
   * terminal interprets it; the returned function reads what arrived so far.
   */
  recordOutput(): () => string {
    const file = join(this.configDir, "output.raw");
    writeFileSync(file, "");
    this.tmux(["pipe-pane", "-o", "-t", "main", `cat >> '${file}'`]);
    return () => readFileSync(file, "utf8");
  }

  /** The pane's title, as the program set it with OSC 0 or OSC 2 (tmux's host name when none did). */
  paneTitle(): string {
    return this.tmux(["display-message", "-p", "-t", "main", "#{pane_title}"]).replace(/\n$/, "");
  }

  /** Sets a server-wide option, as `set -g` in a tmux.conf would ("set-clipboard", "on"). */
  setGlobalOption(option: string, value: string): void {
    this.tmux(["set-option", "-g", option, value]);
  }

  /** The newest paste buffer's text (what an OSC 52 sequence set under `set-clipboard on`), or undefined when there is none. */
  showBuffer(): string | undefined {
    const proc = Bun.spawnSync([TMUX, "-S", this.socket, "show-buffer"], { stdout: "pipe", stderr: "pipe" });
    return proc.exitCode === 0 ? proc.stdout.toString() : undefined;
  }

  kill(): void {
    Bun.spawnSync([TMUX, "-S", this.socket, "kill-server"], { stdout: "ignore", stderr: "ignore" });
    rmSync(this.configDir, { recursive: true, force: true });
  }
}
