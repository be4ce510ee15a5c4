/**
 * The release's zip writer (deflate, no directory entries, fixed timestamps): the Go module zip
 * (a few dozen files) and the Windows binary's archive (one). The whole archive is built in
 * memory; the dates are given, never the clock's, so the same files give the same bytes.
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntry {
  /** The path inside the archive, `/`-separated. */
  name: string;
  data: Uint8Array;
  /** Its Unix permission bits (default 0644). */
  mode?: number;
  /** Its date in seconds since 1970, stored in UTC (default 1980-01-01 00:00, the earliest DOS date). */
  mtime?: number;
}

/** 1980-01-01 00:00, the earliest DOS date: what reproducible zips use. */
const DOS_EPOCH = { time: 0, day: (0 << 9) | (1 << 5) | 1 };

function dosDateTime(seconds: number): { time: number; day: number } {
  const date = new Date(seconds * 1000);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}
const UTF8_NAMES = 1 << 11;
const DEFLATE = 8;

export function zipArchive(entries: readonly ZipEntry[]): Uint8Array {
  if (entries.length > 0xffff) throw new Error(`zip: ${entries.length} files are too many for a zip without ZIP64`);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const compressed = deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data);
    const { time, day } = entry.mtime === undefined ? DOS_EPOCH : dosDateTime(entry.mtime);
    if (entry.data.length >= 0xffffffff || offset >= 0xffffffff) throw new Error(`zip: ${entry.name} is too large for a zip without ZIP64`);
    // The fields the local header and the central directory entry share, in the same order.
    const shared = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed: 2.0, deflate
      header.writeUInt16LE(UTF8_NAMES, at + 2);
      header.writeUInt16LE(DEFLATE, at + 4);
      header.writeUInt16LE(time, at + 6);
      header.writeUInt16LE(day, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(compressed.length, at + 14);
      header.writeUInt32LE(entry.data.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below is read
    shared(central, 6);
    central.writeUInt32LE(((0o100000 | (entry.mode ?? 0o644)) << 16) >>> 0, 38); // a regular file with its mode
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
