import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { zipArchive } from "../../scripts/release/zip.ts";
import { readTarGzEntry, readZipEntry, tarGzOneFile } from "../../src/util/single-file-archive.ts";
import { tempDir } from "../helpers/tmp.ts";

const payload = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
const MTIME = 946_684_800;

describe("tar.gz with one file", () => {
  test("GNU tar extracts it with mode 0755 and the same bytes", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "pig.tar.gz"), tarGzOneFile("pig", payload, 0o755, MTIME));
    mkdirSync(join(dir, "out"));
    const run = spawnSync("tar", ["-xzf", join(dir, "pig.tar.gz"), "-C", join(dir, "out"), "pig"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(statSync(join(dir, "out", "pig")).mode & 0o777).toBe(0o755);
    expect(new Uint8Array(readFileSync(join(dir, "out", "pig")))).toEqual(payload);
  });

  test("reads back its own archive and one GNU tar made", () => {
    expect(readTarGzEntry(tarGzOneFile("pig", payload, 0o755, MTIME), "pig")).toEqual({ data: payload, mode: 0o755 });
    const dir = tempDir();
    writeFileSync(join(dir, "pig"), payload);
    expect(spawnSync("tar", ["-czf", join(dir, "gnu.tar.gz"), "-C", dir, "./pig"]).status).toBe(0);
    expect(readTarGzEntry(readFileSync(join(dir, "gnu.tar.gz")), "pig").data).toEqual(payload);
  });

  test("the same input makes the same bytes", () => {
    expect(tarGzOneFile("pig", payload, 0o755, MTIME)).toEqual(tarGzOneFile("pig", payload, 0o755, MTIME));
  });

  test("a damaged or foreign archive is refused with the reason", () => {
    const good = tarGzOneFile("pig", payload, 0o755, MTIME);
    const flipped = new Uint8Array(good);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    expect(() => readTarGzEntry(flipped, "pig")).toThrow("not a valid gzip file");
    expect(() => readTarGzEntry(good.subarray(0, good.length - 100), "pig")).toThrow("not a valid gzip file");
    expect(() => readTarGzEntry(new TextEncoder().encode("<html>not found</html>"), "pig")).toThrow("not a valid gzip file");
    expect(() => readTarGzEntry(good, "other")).toThrow("no file other in the archive");
    const tar = new Uint8Array(1536);
    tar.set(new TextEncoder().encode("pig"), 0);
    expect(() => readTarGzEntry(gzipSync(tar), "pig")).toThrow("not a tar archive");
  });
});

describe("zip with one file", () => {
  test("Python's zipfile reads it, CRC checked, with the same bytes", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "pig.zip"), zipArchive([{ name: "pig.exe", data: payload, mode: 0o755, mtime: MTIME }]));
    const python = spawnSync("python3", ["-c", "import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; sys.stdout.buffer.write(z.read('pig.exe'))", join(dir, "pig.zip")]);
    expect(python.stderr.toString()).toBe("");
    expect(new Uint8Array(python.stdout)).toEqual(payload);
  });

  test("reads back its own zip; a damaged one is refused", () => {
    const good = zipArchive([{ name: "pig.exe", data: payload, mode: 0o755, mtime: MTIME }]);
    expect(readZipEntry(good, "pig.exe")).toEqual(payload);
    expect(() => readZipEntry(good, "pig")).toThrow("no file pig in the archive");
    const flipped = new Uint8Array(good);
    flipped[100]! ^= 0xff;
    expect(() => readZipEntry(flipped, "pig.exe")).toThrow("damaged zip entry pig.exe");
    expect(() => readZipEntry(good.subarray(0, 200), "pig.exe")).toThrow("not a zip file");
  });
});
