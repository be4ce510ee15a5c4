import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CappedLog } from "../../src/util/capped-log.ts";
import { tempDir } from "../helpers/tmp.ts";

const line = (n: number) => `line ${String(n).padStart(3, "0")}\n`; // 9 bytes

describe("CappedLog", () => {
  test("appends below the cap, creating the file 0600 with its folder", () => {
    const path = join(tempDir(), "logs", "ext.log");
    const log = new CappedLog(path, 200);
    log.write(line(1));
    log.write(new TextEncoder().encode(line(2)));
    log.close();
    expect(readFileSync(path, "utf8")).toBe(line(1) + line(2));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("at the cap the file becomes .1 and a new one starts with a note; later it is emptied, keeping .1", () => {
    const path = join(tempDir(), "ext.log");
    const log = new CappedLog(path, 200);
    for (let n = 1; n <= 60; n++) log.write(line(n));
    log.close();
    const first = readFileSync(`${path}.1`, "utf8");
    const last = readFileSync(path, "utf8");
    // The start of the run stays in .1, the end in the log; neither is over the cap.
    expect(first.startsWith(line(1))).toBe(true);
    expect(last.endsWith(line(60))).toBe(true);
    expect(statSync(path).size).toBeLessThanOrEqual(200);
    expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(200);
    expect(last).toMatch(/^\[pig: \d+ bytes of output dropped here to keep the log under 200 bytes; the start is in ext\.log\.1\]\n/);
    // Nothing is lost but the dropped middle: every line is whole in one file or the other.
    const kept = `${first}${last}`.split("\n").filter((l) => l.startsWith("line "));
    expect(kept.every((l) => /^line \d{3}$/.test(l))).toBe(true);
  });

  test("the first rotation says where the earlier part went", () => {
    const path = join(tempDir(), "ext.log");
    const log = new CappedLog(path, 100);
    for (let n = 1; n <= 12; n++) log.write(line(n));
    log.close();
    expect(readFileSync(path, "utf8").startsWith("[pig: the log reached 100 bytes; what came before is in ext.log.1]\n")).toBe(true);
  });

  test("a log left full by an earlier run is moved to .1 at the first write that does not fit", () => {
    const path = join(tempDir(), "ext.log");
    writeFileSync(path, "x".repeat(95));
    const log = new CappedLog(path, 100);
    log.write(line(1));
    log.close();
    expect(readFileSync(`${path}.1`, "utf8")).toBe("x".repeat(95));
    expect(readFileSync(path, "utf8").endsWith(line(1))).toBe(true);
  });

  test("one write larger than the cap keeps its end", () => {
    const path = join(tempDir(), "ext.log");
    const log = new CappedLog(path, 150);
    log.write(`${"a".repeat(1000)}END\n`);
    log.close();
    expect(statSync(path).size).toBeLessThanOrEqual(150);
    expect(readFileSync(path, "utf8").endsWith("aEND\n")).toBe(true);
  });

  test("a write that fails is lost without an error, and the next one that works says how much", () => {
    const base = tempDir();
    const blocker = join(base, "logs");
    // A file where the log's folder should be: every write fails until it is gone.
    writeFileSync(blocker, "");
    const path = join(blocker, "ext.log");
    const log = new CappedLog(path, 1000);
    expect(() => log.write(line(1))).not.toThrow();
    expect(() => log.write(line(2))).not.toThrow();
    rmSync(blocker);
    log.write(line(3));
    log.close();
    expect(readFileSync(path, "utf8")).toBe(`[pig: 18 bytes of output could not be written to this log: EEXIST]\n${line(3)}`);
  });

  test.skipIf(!existsSync("/dev/full"))("a full disk (every write ENOSPC) costs nothing but the output", () => {
    const log = new CappedLog("/dev/full", 1000);
    for (let n = 0; n < 5; n++) expect(() => log.write(line(n))).not.toThrow();
    log.close();
  });
});
