/**
 * A second, unprivileged local user for the tests of what one user must not be able to do to
 * another's pig: plant files in a shared folder, bind a socket pig would connect to, read a file
 * pig wrote. The user is created (once per machine) when the suite runs as root, as CI does;
 * as any other user these tests cannot switch identity and are reported as not run (skipped).
 */
import { describe, test } from "bun:test";
import { chmodSync, chownSync } from "node:fs";
import { tmpdir } from "node:os";
import { tempDir } from "./tmp.ts";

export const OTHER_USER_NAME = "pig-other";

export interface OtherUser {
  name: string;
  uid: number;
  gid: number;
  /** A private home of the other user's (0700, owned by them), fresh for this test process. */
  home: string;
}

let cached: OtherUser | null | undefined;

function idOf(flag: "-u" | "-g"): number | undefined {
  const out = Bun.spawnSync(["id", flag, OTHER_USER_NAME], { stdout: "pipe", stderr: "pipe" });
  if (out.exitCode !== 0) return undefined;
  const value = Number(out.stdout.toString().trim());
  return Number.isInteger(value) ? value : undefined;
}

/** The second user, created when missing; undefined where the tests do not run as root. */
export function otherUser(): OtherUser | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = null;
  if (process.getuid?.() !== 0) return undefined;
  if (idOf("-u") === undefined) {
    const made = Bun.spawnSync(
      ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", OTHER_USER_NAME],
      { stdout: "pipe", stderr: "pipe" },
    );
    // Another test process may have created it at the same moment; the look-up below decides.
    if (made.exitCode !== 0 && idOf("-u") === undefined) {
      throw new Error(`could not create the second test user ${OTHER_USER_NAME}: ${made.stderr.toString()}`);
    }
  }
  const uid = idOf("-u");
  const gid = idOf("-g");
  if (uid === undefined || gid === undefined) return undefined;
  // Removed with the other temp dirs once the suite has run (root removes any owner's files).
  const home = tempDir("pig-other-home-");
  chownSync(home, uid, gid);
  chmodSync(home, 0o700);
  cached = { name: OTHER_USER_NAME, uid, gid, home };
  return cached;
}

/** `argv` run as the other user: its uid, its group only, no capabilities. */
export function asOtherUser(user: OtherUser, argv: string[]): string[] {
  return ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--inh-caps=-all", "--", ...argv];
}

/** The environment a process of the other user's starts with: its own home, no secrets of ours. */
export function otherUserEnv(user: OtherUser, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: user.home, TMPDIR: tmpdir(), ...extra };
}

/** Runs `argv` as the other user to completion. */
export async function runAsOtherUser(
  user: OtherUser,
  argv: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(asOtherUser(user, argv), {
    cwd: options.cwd ?? user.home,
    env: options.env ?? otherUserEnv(user),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { exitCode, stdout, stderr };
}

/**
 * `describe(name, body)` with the second user available; where the suite does not run as root,
 * one skipped test says these checks were not run.
 */
export function describeAsOtherUser(name: string, body: (user: OtherUser) => void): void {
  const user = otherUser();
  if (user) {
    describe(name, () => body(user));
    return;
  }
  describe(name, () => {
    test.skip(`not run: a second local user can only be made when the tests run as root`, () => {});
  });
}
