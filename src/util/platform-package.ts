/**
 * Which npm package holds the pig binary for a machine. `pig-coding-agent` on the npm registry
 * carries a launcher and the SDK; each release target's binary is in a package of its own, named
 * `pig-coding-agent-<target>`, listed as an optional dependency so npm installs only the one whose
 * `os`, `cpu` and `libc` fields match the machine. Pure: the caller says what machine it is on.
 */

/** The package users install. */
export const MAIN_PACKAGE = "pig-coding-agent";

/** The release targets that have a binary package: pig's target id with its `os`, `cpu` and `libc` for npm. */
export const NPM_TARGETS = [
  { id: "linux-x64", os: "linux", cpu: "x64", libc: "glibc" },
  { id: "linux-arm64", os: "linux", cpu: "arm64", libc: "glibc" },
  { id: "linux-x64-musl", os: "linux", cpu: "x64", libc: "musl" },
  { id: "linux-arm64-musl", os: "linux", cpu: "arm64", libc: "musl" },
  { id: "darwin-x64", os: "darwin", cpu: "x64", libc: undefined },
  { id: "darwin-arm64", os: "darwin", cpu: "arm64", libc: undefined },
  { id: "windows-x64", os: "win32", cpu: "x64", libc: undefined },
] as const;

export type NpmTarget = (typeof NPM_TARGETS)[number];

/** The binary package of a target: `pig-coding-agent-linux-x64`. */
export function platformPackageName(targetId: string): string {
  return `${MAIN_PACKAGE}-${targetId}`;
}

/** The binary's path inside its package. */
export function binaryPathInPackage(targetId: string): string {
  return targetId.startsWith("windows-") ? "bin/pig.exe" : "bin/pig";
}

/**
 * The target for a machine, from Node's `process.platform` and `process.arch` and whether its C
 * library is musl; undefined when pig is not released for it.
 */
export function targetForMachine(platform: string, arch: string, musl: boolean): NpmTarget | undefined {
  return NPM_TARGETS.find((t) => t.os === platform && t.cpu === arch && (t.os !== "linux" || (t.libc === "musl") === musl));
}

/** A one-line description of a machine for messages: `linux arm64 (musl)`. */
export function describeMachine(platform: string, arch: string, musl: boolean): string {
  return `${platform} ${arch}${platform === "linux" ? (musl ? " (musl)" : " (glibc)") : ""}`;
}
