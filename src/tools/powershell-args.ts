/**
 * How the `powershell` tool starts PowerShell: which executable, and the exact argument vector.
 *
 * The script travels as one argv element after `-Command`, never through a shell. On Windows
 * Bun (libuv) turns the vector into a command line with the C runtime's quoting rules, which
 * both pwsh (.NET) and powershell.exe (CommandLineToArgvW) undo exactly, so quotes, backslashes,
 * `$`, `;` and newlines in the script reach PowerShell as written. Nothing here quotes anything.
 */

/** Arguments before the script: no profile (a user's profile can print or prompt), no prompts. */
export const POWERSHELL_FLAGS: readonly string[] = ["-NoProfile", "-NonInteractive", "-Command"];

/**
 * Put before every script: UTF-8 output (Windows PowerShell writes the OEM code page to a pipe
 * otherwise, and the tool decodes UTF-8; without a byte-order mark) and no progress bars in the
 * output. The exit code is PowerShell's own: `exit N`, else the last native
 * command's, else 1 when the last statement failed.
 */
export const POWERSHELL_PRELUDE =
  "$pigUtf8 = New-Object System.Text.UTF8Encoding $false; try { [Console]::OutputEncoding = $pigUtf8 } catch {}; $OutputEncoding = $pigUtf8; $ProgressPreference = 'SilentlyContinue'";

/** The whole `-Command` text for `script`: the prelude on its own line, then the script. */
export function powershellScript(script: string): string {
  return `${POWERSHELL_PRELUDE}\n${script}`;
}

/** The argument vector that runs `script` with `executable`. */
export function powershellArgv(executable: string, script: string): string[] {
  return [executable, ...POWERSHELL_FLAGS, powershellScript(script)];
}

export interface PowerShellLookup {
  /** Setting `shellPath` when it names a PowerShell, or an explicit path. */
  customPath?: string;
  /** Finds a program on PATH (Bun.which with the command's PATH). */
  which: (name: string) => string | null;
  exists: (path: string) => boolean;
  platform?: string;
}

/** PowerShell 7 (`pwsh`) first; on Windows, Windows PowerShell (`powershell.exe`) after it. */
export function resolvePowerShell(lookup: PowerShellLookup): string {
  if (lookup.customPath) {
    if (!lookup.exists(lookup.customPath)) throw new Error(`PowerShell not found at ${lookup.customPath} (the shellPath setting)`);
    return lookup.customPath;
  }
  const names = (lookup.platform ?? process.platform) === "win32" ? ["pwsh.exe", "pwsh", "powershell.exe"] : ["pwsh"];
  for (const name of names) {
    const found = lookup.which(name);
    if (found) return found;
  }
  throw new Error(
    `powershell tool: none of ${names.join(", ")} is on PATH; install PowerShell 7 (https://aka.ms/powershell) or use the bash tool (--tools bash)`,
  );
}

/** Whether a `shellPath` setting names a PowerShell (then the powershell tool uses it too). */
export function isPowerShellPath(path: string): boolean {
  return /(^|[\\/])(pwsh|powershell)(\.exe)?$/i.test(path);
}
