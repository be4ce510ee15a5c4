/**
 * A log file that cannot fill the disk: what a chatty process writes is appended until the file
 * reaches its cap (10 MiB), then the file is moved to `<file>.1` (replacing an older one) and a
 * new one started; when that one is full too it is emptied, so the start of the run (in `.1`) and
 * its latest output stay and the middle is dropped — each time with a line in the log saying so.
 * At most twice the cap is ever on disk.
 *
 * Writing a log never fails its caller: a write that fails (the disk is full, the folder is gone)
 * loses that output, and the next write that works says how much was lost.
 */
import { closeSync, ftruncateSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";

export const LOG_CAP_BYTES = 10 * 1024 * 1024;

const MIB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`);

export class CappedLog {
  private fd: number | undefined;
  private size = 0;
  private rotated = false;
  private lost = 0;
  private lostReason = "";

  constructor(
    readonly path: string,
    private readonly capBytes: number = LOG_CAP_BYTES,
  ) {}

  write(data: string | Uint8Array): void {
    let bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (bytes.length === 0) return;
    try {
      this.open();
      const note = this.lost > 0 ? `[pig: ${this.lost} bytes of output could not be written to this log: ${this.lostReason}]\n` : "";
      if (note) this.append(Buffer.from(note));
      this.lost = 0;
      if (this.size + bytes.length > this.capBytes) this.makeRoom();
      // A single write bigger than the whole cap keeps its end.
      const room = this.capBytes - this.size;
      if (bytes.length > room) bytes = bytes.subarray(bytes.length - Math.max(room, 0));
      this.append(bytes);
    } catch (error) {
      this.lost += bytes.length;
      this.lostReason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.closeFd();
    }
  }

  close(): void {
    this.closeFd();
  }

  private open(): void {
    if (this.fd !== undefined) return;
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, "a", 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private append(bytes: Buffer): void {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd!, bytes, offset);
    this.size += bytes.length;
  }

  /** The file is full: the first time, it becomes `.1` and a new one starts; after that, it is emptied. */
  private makeRoom(): void {
    const cap = sizeText(this.capBytes);
    if (!this.rotated) {
      this.rotated = true;
      this.closeFd();
      renameSync(this.path, `${this.path}.1`);
      this.open();
      this.append(Buffer.from(`[pig: the log reached ${cap}; what came before is in ${basename(this.path)}.1]\n`));
      return;
    }
    const dropped = this.size;
    ftruncateSync(this.fd!, 0);
    this.size = 0;
    this.append(Buffer.from(`[pig: ${dropped} bytes of output dropped here to keep the log under ${cap}; the start is in ${basename(this.path)}.1]\n`));
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closing a descriptor that failed a write can fail too; it is closed either way.
    }
    this.fd = undefined;
  }
}
