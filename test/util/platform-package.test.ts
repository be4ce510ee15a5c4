import { describe, expect, test } from "bun:test";
import { NPM_TARGETS, binaryPathInPackage, describeMachine, platformPackageName, targetForMachine } from "../../src/util/platform-package.ts";

describe("platform packages", () => {
  test("every machine pig is released for finds its own package, glibc and musl apart", () => {
    expect(targetForMachine("linux", "x64", false)?.id).toBe("linux-x64");
    expect(targetForMachine("linux", "x64", true)?.id).toBe("linux-x64-musl");
    expect(targetForMachine("linux", "arm64", true)?.id).toBe("linux-arm64-musl");
    expect(targetForMachine("darwin", "arm64", false)?.id).toBe("darwin-arm64");
    expect(targetForMachine("win32", "x64", false)?.id).toBe("windows-x64");
    expect(platformPackageName("linux-arm64")).toBe("pig-coding-agent-linux-arm64");
    expect(binaryPathInPackage("windows-x64")).toBe("bin/pig.exe");
    expect(binaryPathInPackage("darwin-x64")).toBe("bin/pig");
    expect(new Set(NPM_TARGETS.map((t) => t.id)).size).toBe(7);
  });

  test("a machine with no release has no target, and is described for the message", () => {
    expect(targetForMachine("win32", "arm64", false)).toBeUndefined();
    expect(targetForMachine("freebsd", "x64", false)).toBeUndefined();
    expect(describeMachine("linux", "riscv64", false)).toBe("linux riscv64 (glibc)");
    expect(describeMachine("win32", "arm64", false)).toBe("win32 arm64");
  });
});
