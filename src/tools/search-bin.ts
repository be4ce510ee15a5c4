/**
 * Which search programs grep/find use. ripgrep and fd are preferred when installed (in
 * `<agentDir>/bin` or on PATH); pig never downloads them and falls back to its built-in search,
 * which `PIG_NO_EXTERNAL_SEARCH=1` (or the tools' `externalSearch: false` option) forces.
 */
import { accessSync, constants } from "node:fs";
import { join } from "node:path";

export const NO_EXTERNAL_SEARCH_ENV = "PIG_NO_EXTERNAL_SEARCH";

/** Whether external programs may be used: the explicit option wins over the environment. */
export function externalSearchAllowed(option: boolean | undefined): boolean {
  if (option !== undefined) return option;
  const env = process.env[NO_EXTERNAL_SEARCH_ENV];
  return !(env === "1" || env === "true");
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of `names` found in `<agentDir>/bin` (first name only) or on PATH. */
function locate(agentDir: string, names: string[]): string | undefined {
  const first = names[0];
  if (first && executable(join(agentDir, "bin", first))) return join(agentDir, "bin", first);
  for (const name of names) {
    const found = Bun.which(name);
    if (found) return found;
  }
  return undefined;
}

export function findRipgrep(agentDir: string): string | undefined {
  return locate(agentDir, ["rg"]);
}

/** fd, or `fdfind` as Debian and Ubuntu name it. */
export function findFd(agentDir: string): string | undefined {
  return locate(agentDir, ["fd", "fdfind"]);
}

const noRequireGit = new Map<string, boolean>();

/**
 * Whether this fd knows `--no-require-git` (honour .gitignore outside git repositories). Older
 * releases (e.g. Debian's 8.6) reject the flag, so it is only passed when `--help` lists it.
 */
export function fdSupportsNoRequireGit(fd: string): boolean {
  let known = noRequireGit.get(fd);
  if (known === undefined) {
    try {
      const help = Bun.spawnSync([fd, "--help"], { stdin: "ignore", stdout: "pipe", stderr: "ignore", timeout: 5000 });
      known = help.stdout.toString().includes("--no-require-git");
    } catch {
      known = false;
    }
    noRequireGit.set(fd, known);
  }
  return known;
}
