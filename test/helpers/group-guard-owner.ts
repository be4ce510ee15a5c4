/**
 * A process that guards process groups as pig does (src/util/group-guard.ts), driven by lines on
 * stdin, for test/util/group-guard.test.ts to kill: `busy` starts a group whose leader never
 * yields, `sleep` one that sleeps, `background` one whose leader leaves a sleeping job behind and
 * exits (released then, as pig releases a command's group), `guard` asks for the guard's pid.
 * Each line is answered with one line on stdout.
 */
import { guardedArgv, guardPid, holdGroup } from "../../src/util/group-guard.ts";

function startGroup(argv: string[]): number {
  const stdio: ["ignore", "ignore", "ignore"] = ["ignore", "ignore", "ignore"];
  return holdGroup(stdio, (guarded) => Bun.spawn(guardedArgv(argv), { stdio: guarded, detached: true })).pid;
}

for await (const line of console) {
  const word = line.trim();
  if (word === "busy") console.log(startGroup(["/bin/sh", "-c", "while :; do :; done"]));
  else if (word === "sleep") console.log(startGroup(["sleep", "1000"]));
  else if (word === "background") {
    // Let go once its leader has exited, as pig lets a command's group go.
    const leader = holdGroup<["ignore", "pipe", "ignore"], Bun.Subprocess<"ignore", "pipe", "ignore">>(["ignore", "pipe", "ignore"], (stdio) =>
      Bun.spawn(guardedArgv(["/bin/sh", "-c", "sleep 1000 >/dev/null 2>&1 & echo $!"]), { stdio, detached: true }),
    );
    const job = (await new Response(leader.stdout).text()).trim();
    await leader.exited;
    console.log(job);
  } else if (word === "guard") console.log(guardPid() ?? 0);
}
