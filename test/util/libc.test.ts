import { describe, expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { isTerminal } from "../../src/util/libc.ts";

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
});
