/** Running git in a test's own repositories, with an identity so commits work on any machine. */
export function git(cwd: string, ...args: string[]): void {
  const proc = Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`);
}
