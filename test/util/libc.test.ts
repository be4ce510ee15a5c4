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

  test("/dev/null is not a terminal, a pseudo-terminal is", () => {
    const libc = require.resolve("../../src/util/libc.ts");
    const probe = 'const { isTerminal } = await import(process.argv[1]); console.log(`${isTerminal(0)} ${isTerminal(1)}`)';
    const devNull = Bun.spawnSync([process.execPath, "-e", probe, libc], { stdin: Bun.file("/dev/null"), stdout: "pipe" });
    expect(devNull.stdout.toString().trim()).toBe("false false");
    // util-linux's script(1) runs the probe with a pseudo-terminal as its stdin and stdout.
    const quoted = [process.execPath, "-e", probe, libc].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    const inPty = Bun.spawnSync(["script", "-qec", quoted, "/dev/null"], { stdin: "pipe", stdout: "pipe" });
    expect(inPty.stdout.toString().trim()).toBe("true true");
  });
});
