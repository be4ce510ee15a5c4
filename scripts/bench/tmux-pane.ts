// A program in a real terminal for the benchmarks: one tmux server per pane (a private socket, no
// user config, a long scrollback), a fixed size, a chosen environment; keys typed, the screen and
// the scrollback read back, and the program's process id for /proc.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TMUX = Bun.which("tmux") ?? "/usr/bin/tmux";

export interface PaneOptions {
  command: readonly string[];
  env: Record<string, string>;
  cwd: string;
  width: number;
  height: number;
  /** Rows of scrollback kept (tmux's default, 2,000, is less than a long answer). */
  historyLimit: number;
}

export class TmuxPane {
  private constructor(private readonly dir: string) {}

  static start(options: PaneOptions): TmuxPane {
    const dir = mkdtempSync(join(tmpdir(), "pig-bench-tmux-"));
    writeFileSync(join(dir, "tmux.conf"), `set -g history-limit ${options.historyLimit}\nset -g status off\nset -sg escape-time 0\nset -g remain-on-exit on\n`);
    const pane = new TmuxPane(dir);
    const env = Object.entries(options.env).map(([key, value]) => `${key}=${value}`);
    // `env -i`: the program sees only what it is given, as a fresh login would.
    pane.tmux(["-f", join(dir, "tmux.conf"), "new-session", "-d", "-s", "main", "-x", String(options.width), "-y", String(options.height), "-c", options.cwd, "--", "env", "-i", ...env, ...options.command]);
    return pane;
  }

  private tmux(args: readonly string[]): string {
    const proc = Bun.spawnSync([TMUX, "-S", join(this.dir, "socket"), ...args], { stdout: "pipe", stderr: "pipe" });
    if (proc.exitCode !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${proc.stderr.toString()}`);
    return proc.stdout.toString();
  }

  /** Text typed as is. */
  type(text: string): void {
    this.tmux(["send-keys", "-t", "main", "-l", "--", text]);
  }

  /** Keys by tmux name ("Enter", "C-d"). */
  keys(...keys: string[]): void {
    this.tmux(["send-keys", "-t", "main", ...keys]);
  }

  /** The visible screen. */
  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", "main"]);
  }

  /** The scrollback and the screen, long lines joined back (`-J`). */
  history(): string {
    return this.tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "main"]);
  }

  /** The process id of the pane's program. */
  pid(): number {
    return Number(this.tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"]).trim());
  }

  exited(): boolean {
    return this.tmux(["display-message", "-p", "-t", "main", "#{pane_dead}"]).trim() === "1";
  }

  /** Waits for `check` on the screen; the screen, or an error showing it after `timeoutMs`. */
  async waitFor(check: (screen: string) => boolean, timeoutMs: number, what: string): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (check(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
      await Bun.sleep(100);
    }
  }

  kill(): void {
    Bun.spawnSync([TMUX, "-S", join(this.dir, "socket"), "kill-server"], { stdout: "ignore", stderr: "ignore" });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
