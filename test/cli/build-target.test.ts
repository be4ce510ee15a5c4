import { describe, expect, test } from "bun:test";
import { checkExecutable, hostTargetId, inspectExecutable, parseTarget, readHead, RELEASE_TARGET_IDS, targetBuildFlags } from "../../src/cli/build-target.ts";

/** The first bytes of an executable of each kind, with just the fields the check reads. */
function elf(machine: number): Uint8Array {
  const b = new Uint8Array(64);
  b.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  new DataView(b.buffer).setUint16(18, machine, true);
  return b;
}
function macho(cpu: number): Uint8Array {
  const b = new Uint8Array(32);
  const view = new DataView(b.buffer);
  view.setUint32(0, 0xfeedfacf, true);
  view.setUint32(4, cpu, true);
  return b;
}
function pe(machine: number, magic = 0x20b): Uint8Array {
  const b = new Uint8Array(512);
  const view = new DataView(b.buffer);
  b.set([0x4d, 0x5a]);
  view.setUint32(0x3c, 0x80, true);
  view.setUint32(0x80, 0x00004550, true);
  view.setUint16(0x84, machine, true);
  view.setUint16(0x80 + 24, magic, true);
  return b;
}

describe("parseTarget", () => {
  test("maps each release target to Bun's target and the npm package holding its runtime", () => {
    const got = RELEASE_TARGET_IDS.map((id) => {
      const t = parseTarget(id);
      return [t.id, t.bunTarget, t.npmPackage, t.format, t.suffix];
    });
    expect(got).toEqual([
      ["linux-x64", "bun-linux-x64", "@oven/bun-linux-x64", "elf", ""],
      ["linux-arm64", "bun-linux-arm64", "@oven/bun-linux-aarch64", "elf", ""],
      ["linux-x64-musl", "bun-linux-x64-musl", "@oven/bun-linux-x64-musl", "elf", ""],
      ["linux-arm64-musl", "bun-linux-arm64-musl", "@oven/bun-linux-aarch64-musl", "elf", ""],
      ["darwin-x64", "bun-darwin-x64", "@oven/bun-darwin-x64", "macho", ""],
      ["darwin-arm64", "bun-darwin-arm64", "@oven/bun-darwin-aarch64", "macho", ""],
      ["windows-x64", "bun-windows-x64", "@oven/bun-windows-x64", "pe", ".exe"],
    ]);
    expect(parseTarget("windows-x64").runtimePath).toEndWith("bun.exe");
  });

  test("accepts Bun's names, aarch64, and the musl and baseline variants", () => {
    expect(parseTarget("bun-linux-aarch64-musl").id).toBe("linux-arm64-musl");
    expect(parseTarget("linux-x64-musl-baseline").npmPackage).toBe("@oven/bun-linux-x64-musl-baseline");
    expect(parseTarget("windows-x64-baseline").bunTarget).toBe("bun-windows-x64-baseline");
    expect(parseTarget("macos-arm64").id).toBe("darwin-arm64");
  });

  test("names the flag and the fault for targets Bun does not build", () => {
    expect(() => parseTarget("freebsd-x64")).toThrow('--target "freebsd-x64": unknown operating system "freebsd"');
    expect(() => parseTarget("linux-riscv64", "--targets")).toThrow('--targets "linux-riscv64": unknown architecture "riscv64"');
    expect(() => parseTarget("darwin-arm64-musl")).toThrow("musl builds exist for linux only");
    expect(() => parseTarget("linux-arm64-baseline")).toThrow("baseline builds exist for x64 only");
    expect(() => parseTarget("linux-x64-baseline-musl")).toThrow('unexpected "musl"');
  });

  test("the host target follows the platform and CPU it is given", () => {
    expect(hostTargetId("win32", "x64")).toBe("windows-x64");
    expect(hostTargetId("darwin", "arm64")).toBe("darwin-arm64");
    expect(hostTargetId("freebsd", "x64")).toBeUndefined();
    expect(hostTargetId("linux", "arm64", () => true)).toBe("linux-arm64");
    expect(hostTargetId("linux", "x64", () => false)).toBe("linux-x64-musl");
  });
});

test("the build flags aim at the target and, for a cross build, its runtime", () => {
  expect(targetBuildFlags(parseTarget("darwin-arm64"), "/cache/bun")).toEqual(["--target=bun-darwin-arm64", "--compile-executable-path", "/cache/bun"]);
  expect(targetBuildFlags(parseTarget("linux-x64"), undefined)).toEqual(["--target=bun-linux-x64"]);
});

describe("inspectExecutable", () => {
  test("reads the format and CPU of ELF, Mach-O and PE32+ headers", () => {
    expect(inspectExecutable(elf(0x3e))).toEqual({ format: "elf", arch: "x64", machine: 0x3e });
    expect(inspectExecutable(elf(0xb7))).toEqual({ format: "elf", arch: "arm64", machine: 0xb7 });
    expect(inspectExecutable(macho(0x01000007))).toEqual({ format: "macho", arch: "x64", machine: 0x01000007 });
    expect(inspectExecutable(macho(0x0100000c))).toEqual({ format: "macho", arch: "arm64", machine: 0x0100000c });
    expect(inspectExecutable(pe(0x8664))).toEqual({ format: "pe", arch: "x64", machine: 0x8664 });
  });

  test("says why bytes are not a 64-bit executable", () => {
    expect(inspectExecutable(new TextEncoder().encode("#!/bin/sh\necho hi\n"))).toEqual({ error: "not an ELF, Mach-O 64 or PE executable" });
    expect(inspectExecutable(pe(0x14c, 0x10b))).toEqual({ error: "PE, but not PE32+ (64-bit)" });
    const elf32 = elf(0x3e);
    elf32[4] = 1;
    expect(inspectExecutable(elf32)).toEqual({ error: "ELF, but not 64-bit" });
  });

  test("the runtime running this test is an executable for the host target", () => {
    const host = hostTargetId();
    expect(host).toBeString();
    expect(checkExecutable(readHead(process.execPath), parseTarget(host!))).toBeNull();
  });

  test("a binary for another CPU or platform than its target is reported", () => {
    expect(checkExecutable(elf(0xb7), parseTarget("linux-arm64"))).toBeNull();
    expect(checkExecutable(elf(0x3e), parseTarget("linux-arm64"))).toBe("expected elf arm64, found elf x64");
    expect(checkExecutable(macho(0x0100000c), parseTarget("windows-x64"))).toBe("expected pe x64, found macho arm64");
    expect(checkExecutable(elf(0x28), parseTarget("linux-x64"))).toBe("expected elf x64, found elf machine 0x28");
  });
});
