import { describe, expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { isTerminal, localDate } from "../../src/util/libc.ts";

describe("libc answers", () => {
  test("a file and a pipe are not terminals", () => {
    const fd = openSync(import.meta.path, "r");
    try {
      expect(isTerminal(fd)).toBe(false);
    } finally {
      closeSync(fd);
    }
    const child = Bun.spawnSync([process.execPath, "-e", 'const { isTerminal } = await import(process.argv[1]); console.log(isTerminal(0), isTerminal(1))', require.resolve("../../src/util/libc.ts")], {
      stdin: "pipe",
      stdout: "pipe",
    });
    expect(child.stdout.toString().trim()).toBe("false false");
  });

  test("the local date agrees with the runtime's own, for instants across a year", () => {
    const pad = (n: number) => String(n).padStart(2, "0");
    for (let day = 0; day < 366; day += 7) {
      const at = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + 13 * 3_600_000 + 17 * 60_000);
      expect(localDate(at)).toBe(`${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`);
    }
  });

  test("an invalid date is not handed to the C library", () => {
    expect(localDate(new Date(Number.NaN))).toBe("NaN-NaN-NaN");
  });
});
