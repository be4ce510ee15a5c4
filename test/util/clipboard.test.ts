import { describe, expect, test } from "bun:test";
import { clipboardTools } from "../../src/util/clipboard.ts";

describe("clipboard tools", () => {
  test("a tool that exits without reading its input answers with its exit code instead of throwing", async () => {
    // More than a pipe holds, so the write meets a closed pipe.
    const input = "x".repeat(1 << 20);
    expect(await clipboardTools.run(["/bin/sh", "-c", "exit 3"], input)).toBe(3);
  });

  test("a tool that reads its input gets all of it", async () => {
    const input = "ünïcode\n".repeat(20_000);
    expect(await clipboardTools.run(["/bin/sh", "-c", `test "$(wc -c)" -eq ${Buffer.byteLength(input)}`], input)).toBe(0);
  });
});
