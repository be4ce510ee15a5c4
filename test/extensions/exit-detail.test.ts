import { describe, expect, test } from "bun:test";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exitDetail, logSize, refusalReason } from "../../src/extensions/host/exit-detail.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("what pig says about an extension process that ended", () => {
  test("an exit with the refusal status gives the reason the process wrote last, since it started", () => {
    const log = join(tempDir("pig-exit-detail-"), "ext.log");
    writeFileSync(log, "an older run: refused the host socket: its peer runs as uid 5, not 0\n");
    const startedAt = logSize(log);
    appendFileSync(log, "starting\nmy-ext: refused the host socket: its peer runs as uid 1001, not 0\n\n");
    expect(exitDetail(77, { path: log, startedAt })).toBe("refused the host socket: its peer runs as uid 1001, not 0");
  });

  test("a refusal with nothing written still says what the status means", () => {
    const log = join(tempDir("pig-exit-detail-"), "ext.log");
    writeFileSync(log, "an older run's last words\n");
    expect(exitDetail(77, { path: log, startedAt: logSize(log) })).toBe("refused the host socket: exit status 77, its peer was not of pig's user");
    expect(exitDetail(77, { path: join(log, "missing"), startedAt: 0 })).toBe("refused the host socket: exit status 77, its peer was not of pig's user");
  });

  test("other endings are named as before", () => {
    expect(exitDetail(3, { path: "/nonexistent", startedAt: 0 })).toBe("exited (code 3)");
    expect(exitDetail(null, { path: "/nonexistent", startedAt: 0 })).toBe("was killed");
  });

  test("a line without the usual words is the reason as a whole, cut to a readable length", () => {
    expect(refusalReason("peer is uid 7")).toBe("peer is uid 7");
    expect(refusalReason("x".repeat(1000))).toHaveLength(300);
    expect(refusalReason(undefined)).toBeUndefined();
  });
});
