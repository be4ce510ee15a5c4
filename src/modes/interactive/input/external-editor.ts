/**
 * Editing the prompt in the user's editor (Ctrl+G): the buffer goes to a temp file, `$VISUAL` /
 * `$EDITOR` (else `vi`) runs on it with the terminal's stdio, and the file's text comes back.
 * The caller hands the terminal over first (raw mode off, prompt erased) and takes it back after.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * Runs the editor on `text`; the edited text (one trailing newline, which editors add, dropped),
 * or undefined when the editor failed (e.g. vim's `:cq`), in which case the buffer stays as it was.
 */
export async function editExternally(text: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "pig-prompt-"));
  const file = join(dir, "prompt.md");
  try {
    writeFileSync(file, text);
    // Through the shell, so an editor given with arguments ("code --wait") works.
    const proc = Bun.spawn(["/bin/sh", "-c", `${editorCommand(env)} "$1"`, "sh", file], {
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
      env,
    });
    const code = await proc.exited;
    if (code !== 0) return undefined;
    return readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
