/**
 * A process that guards process groups as pig does (src/util/group-guard.ts), driven by lines on
 * stdin, for test/util/group-guard.test.ts to kill: `busy` starts a group whose leader never
 * yields, `sleep` one that sleeps, `background` one whose leader leaves a sleeping job behind and
 * exits (released then, as pig releases a command's group), `guard` asks for the guard's pid.
 * Each line is answered with one line on stdout.
 */
import { guardedArgv, guardedStdio, guardPid, noteGroup, releaseGroup } from "../../src/util/group-guard.ts";

function startGroup(argv: string[]): number {
  const child = Bun.spawn(guardedArgv(argv), { stdio: guardedStdio<["ignore", "ignore", "ignore"]>(["ignore", "ignore", "ignore"]), detached: true });
  noteGroup(child.pid);
  return child.pid;
}

for await (const line of console) {
  const word = line.trim();
  if (word === "busy") console.log(startGroup(["/bin/sh", "-c", "while :; do :; done"]));
  else if (word === "sleep") console.log(startGroup(["sleep", "1000"]));
  else if (word === "background") {
    const leader = Bun.spawn(guardedArgv(["/bin/sh", "-c", "sleep 1000 >/dev/null 2>&1 & echo $!"]), {
      stdio: guardedStdio<["ignore", "pipe", "ignore"]>(["ignore", "pipe", "ignore"]),
      detached: true,
    });
    noteGroup(leader.pid);
    const job = (await new Response(leader.stdout).text()).trim();
    await leader.exited;
    releaseGroup(leader.pid);
    console.log(job);
  } else if (word === "guard") console.log(guardPid() ?? 0);
}
