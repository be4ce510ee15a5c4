/**
 * The one-file archives a pig release ships its binary in: a gzipped ustar tarball (Linux, macOS)
 * or a zip (Windows), each holding only the binary. The tarball is written here and the zip by
 * the release's zip writer (scripts/release/zip.ts); both are read here rather than by `tar` or
 * `unzip`, so building a release and `pig update` need no outside program, the entry's mode is
 * exactly 0755, and reading takes only the one named regular file (no links, no paths that climb
 * out of a directory). A damaged archive throws: gzip and zip carry a CRC, tar a header sum.
 */
import { crc32, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function headerSum(header: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

/** A gzipped tarball holding one regular file `name` with `mode`, owned by root, dated `mtime` (seconds). */
export function tarGzOneFile(name: string, data: Uint8Array, mode: number, mtime: number): Uint8Array {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: entry name longer than 100 bytes: ${name}`);
  const header = new Uint8Array(BLOCK);
  const put = (offset: number, text: string) => header.set(Buffer.from(text, "latin1"), offset);
  put(0, name);
  put(100, octal(mode, 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(data.length, 12));
  put(136, octal(mtime, 12));
  put(156, "0");
  put(257, "ustar\u000000");
  put(265, "root");
  put(297, "root");
  put(148, `${headerSum(header).toString(8).padStart(6, "0")}\0 `);
  const padding = (BLOCK - (data.length % BLOCK)) % BLOCK;
  const tar = new Uint8Array(BLOCK + data.length + padding + 2 * BLOCK);
  tar.set(header, 0);
  tar.set(data, BLOCK);
  return gzipSync(tar, { level: 9 });
}

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return Buffer.from(end === -1 ? bytes : bytes.subarray(0, end)).toString("utf8");
}

function octalField(header: Uint8Array, offset: number, length: number, what: string): number {
  const text = field(header, offset, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new Error(`not a tar archive (${what} field ${JSON.stringify(text)})`);
  return parseInt(text, 8);
}

/**
 * The contents and mode of the regular file `name` (`./name` too) in a gzipped tarball. Throws
 * when the data is not gzip, a header's sum is wrong, the archive ends early, or the file is not there.
 */
export function readTarGzEntry(archive: Uint8Array, name: string): { data: Uint8Array; mode: number } {
  let tar: Uint8Array;
  try {
    tar = gunzipSync(archive);
  } catch (error) {
    throw new Error(`not a valid gzip file (${(error as Error).message})`);
  }
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const sum = octalField(header, 148, 8, "checksum");
    if (sum !== headerSum(header)) throw new Error(`damaged tar header at byte ${offset}`);
    const size = octalField(header, 124, 12, "size");
    const type = String.fromCharCode(header[156]!);
    const prefix = field(header, 345, 155);
    const entryName = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    const start = offset + BLOCK;
    if (start + size > tar.length) throw new Error(`tar archive ends inside ${entryName}`);
    const body = tar.subarray(start, start + size);
    // GNU tar's long names come as an entry of their own before the file they name.
    if (type === "L") longName = Buffer.from(body).toString("utf8").replace(/\0+$/, "");
    else if ((type === "0" || type === "\0") && entryName.replace(/^\.\//, "") === name) {
      return { data: body, mode: octalField(header, 100, 8, "mode") & 0o7777 };
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error(`no file ${name} in the archive`);
}

/** The contents of the file `name` in a zip; throws when the zip is damaged or the file is not there. */
export function readZipEntry(archive: Uint8Array, name: string): Uint8Array {
  const buf = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw new Error("not a zip file (no end of central directory)");
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new Error("damaged zip central directory");
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const packedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const entryName = buf.toString("utf8", at + 46, at + 46 + nameLength);
    const localAt = buf.readUInt32LE(at + 42);
    if (entryName === name) {
      if (localAt + 30 > buf.length || buf.readUInt32LE(localAt) !== 0x04034b50) throw new Error("damaged zip entry header");
      const start = localAt + 30 + buf.readUInt16LE(localAt + 26) + buf.readUInt16LE(localAt + 28);
      if (start + packedSize > buf.length) throw new Error(`zip archive ends inside ${name}`);
      const packed = buf.subarray(start, start + packedSize);
      let data: Uint8Array;
      try {
        data = method === 0 ? packed : method === 8 ? inflateRawSync(packed) : (() => { throw new Error(`compression method ${method} not supported`); })();
      } catch (error) {
        throw new Error(`damaged zip entry ${name} (${(error as Error).message})`);
      }
      if (data.length !== size || crc32(data) !== crc) throw new Error(`damaged zip entry ${name} (CRC or size differs)`);
      return data;
    }
    at = next;
  }
  throw new Error(`no file ${name} in the archive`);
}
