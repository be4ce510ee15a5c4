/**
 * The group guard (src/util/group-guard.ts) in a process of its own that the test kills with
 * SIGKILL: every group it registered and did not release dies with it, a busy one too; a
 * released group lives on; a guard that dies is replaced and told the groups still registered.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { processAlive } from "../helpers/process-state.ts";

const OWNER = join(import.meta.dir, "..", "helpers", "group-guard-owner.ts");
const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // Gone, as it should be (or not a group's leader).
      }
    }
  }
});

class Owner {
  private readonly proc = Bun.spawn([process.execPath, OWNER], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  private readonly lines = this.proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  private buffered = "";

  constructor() {
    leftovers.push(this.proc.pid);
  }

  async ask(line: string): Promise<string> {
    this.proc.stdin.write(`${line}\n`);
    await this.proc.stdin.flush();
    while (!this.buffered.includes("\n")) {
      const { value, done } = await this.lines.read();
      if (done) throw new Error(`the owner ended before answering ${line}`);
      this.buffered += value;
    }
    const end = this.buffered.indexOf("\n");
    const answer = this.buffered.slice(0, end);
    this.buffered = this.buffered.slice(end + 1);
    return answer;
  }

  async group(kind: "busy" | "sleep" | "background"): Promise<number> {
    const pid = Number(await this.ask(kind));
    expect(pid).toBeGreaterThan(1);
    leftovers.push(pid);
    return pid;
  }

  async kill(): Promise<void> {
    this.proc.kill("SIGKILL");
    await this.proc.exited;
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await Bun.sleep(20);
  }
}

describe.skipIf(process.platform === "win32")("the group guard", () => {
  test("kills the registered groups when its owner is killed, a busy one too, and leaves a released one's job", async () => {
    const owner = new Owner();
    const busy = await owner.group("busy");
    const sleeping = await owner.group("sleep");
    // A group whose leader has ended, its background job left running: released.
    const released = await owner.group("background");
    const guard = Number(await owner.ask("guard"));
    expect(processAlive(guard)).toBe(true);

    await owner.kill();
    await until(() => !processAlive(busy) && !processAlive(sleeping), "the registered groups still run after their owner was killed");
    await until(() => !processAlive(guard), "the guard outlived its owner");
    expect(processAlive(released)).toBe(true);
  }, 60_000);

  test("a guard that dies is replaced, and the new one knows the groups", async () => {
    const owner = new Owner();
    const sleeping = await owner.group("sleep");
    const first = Number(await owner.ask("guard"));
    expect(first).toBeGreaterThan(1);
    process.kill(first, "SIGKILL");
    let second = 0;
    await until(async () => {
      second = Number(await owner.ask("guard"));
      return second !== 0 && second !== first;
    }, "no new guard was started");
    expect(processAlive(second)).toBe(true);

    await owner.kill();
    await until(() => !processAlive(sleeping), "the group outlived its owner after the guard was replaced");
    await until(() => !processAlive(second), "the new guard outlived its owner");
  }, 60_000);
});
