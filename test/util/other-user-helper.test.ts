import { expect, test } from "bun:test";
import { chmodSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeAsOtherUser, runAsOtherUser } from "../helpers/other-user.ts";
import { tempDir } from "../helpers/tmp.ts";

describeAsOtherUser("the second test user", (user) => {
  test("runs as its own uid, owns its home and cannot read root's private files", async () => {
    const who = await runAsOtherUser(user, ["id", "-u"]);
    expect(who.stdout.trim()).toBe(String(user.uid));
    expect(statSync(user.home).uid).toBe(user.uid);
    const open = tempDir();
    chmodSync(open, 0o755);
    const secret = join(open, "root-only");
    writeFileSync(secret, "secret", { mode: 0o600 });
    const read = await runAsOtherUser(user, ["cat", secret]);
    expect(read.exitCode).not.toBe(0);
    expect(read.stdout).toBe("");
  });
});
