/**
 * The installer's release files: for every binary built, `pig-<target>.tar.gz` holding `pig`
 * (mode 0755) or, for Windows, `pig-<target>.zip` holding `pig.exe`; `SHA256SUMS` over them;
 * `release.json` ({version, files: [{target, name, sha256, bytes}]}); and `install.sh` /
 * `install.ps1`. Written to `<out>/archives/`, the set to upload as a GitHub release's assets.
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { archiveName, binaryNameInArchive, formatSha256Sums, type ReleaseManifest } from "../../src/util/release-files.ts";
import { tarGzOneFile } from "../../src/util/single-file-archive.ts";
import { zipArchive } from "./zip.ts";

const root = join(import.meta.dir, "..", "..");

export interface BuiltBinary {
  target: { id: string };
  path: string;
}

/** Writes the archives, SHA256SUMS, release.json and the install scripts; returns release.json's content. */
export function writeReleaseArchives(binaries: readonly BuiltBinary[], outDir: string, version: string, log: (line: string) => void = () => undefined): ReleaseManifest {
  const dir = join(outDir, "archives");
  mkdirSync(dir, { recursive: true });
  // A fixed date, so the same binary makes the same archive byte for byte.
  const mtime = Math.floor(Date.parse("2000-01-01T00:00:00Z") / 1000);
  const files: ReleaseManifest["files"] = [];
  for (const binary of binaries) {
    const id = binary.target.id;
    const name = archiveName(id);
    const data = readFileSync(binary.path);
    const inner = binaryNameInArchive(id);
    const archive = name.endsWith(".zip") ? zipArchive([{ name: inner, data, mode: 0o755, mtime }]) : tarGzOneFile(inner, data, 0o755, mtime);
    writeFileSync(join(dir, name), archive);
    const sha256 = createHash("sha256").update(archive).digest("hex");
    files.push({ target: id, name, sha256, bytes: archive.length });
    log(`${name.padEnd(30)} ${(archive.length / 1e6).toFixed(1).padStart(6)} MB`);
  }
  const manifest: ReleaseManifest = { version, files };
  writeFileSync(join(dir, "SHA256SUMS"), formatSha256Sums(files));
  writeFileSync(join(dir, "release.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(root, "install.sh"), join(dir, "install.sh"));
  copyFileSync(join(root, "install.ps1"), join(dir, "install.ps1"));
  return manifest;
}
