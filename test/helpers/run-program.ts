/**
 * Runs a program (go, pip, a built example) to its end without blocking this process, where a
 * fake server the program talks to may have to answer it.
 */
export interface ProgramRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runProgram(argv: string[], cwd: string, env: Record<string, string>): Promise<ProgramRun> {
  const proc = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** runProgram for a step that must succeed: a failure throws with the program's output. */
export async function runProgramOk(argv: string[], cwd: string, env: Record<string, string>): Promise<ProgramRun> {
  const ran = await runProgram(argv, cwd, env);
  if (ran.code !== 0) throw new Error(`${argv.join(" ")} in ${cwd} exited ${ran.code}:\n${ran.stderr}${ran.stdout}`);
  return ran;
}
