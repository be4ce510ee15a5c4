/**
 * Where the events of an event stream end, and how many bytes the one now arriving has taken so
 * far: every line since the blank line that ended the previous event (comments included), counted
 * on the raw bytes before any parser buffers them. A parser joins an event's `data:` lines into
 * one string, so a cap on each line alone lets one event of many lines grow without bound.
 */

/** What one chunk held. */
export interface EventScan {
  /** The size of the largest event seen in the chunk, the one still open included. */
  largest: number;
  /** The index just after the blank line that ended the chunk's last complete event; -1 for none. */
  lastEventEnd: number;
}

const LF = 10;
const CR = 13;

export class EventSizeMeter {
  /** Bytes of the current event, line breaks included. */
  private bytes = 0;
  /** Bytes on the current line so far. */
  private lineBytes = 0;
  /** The last byte seen was a CR (an LF right after it belongs to the same line break). */
  private afterCr = false;
  /** That CR ended a line of the current event (not the blank line that ended one). */
  private crInEvent = false;

  /** Bytes of the event still open. */
  get openBytes(): number {
    return this.bytes;
  }

  /** The open event is still on its first line (no line break yet). */
  get openIsOneLine(): boolean {
    return this.bytes === this.lineBytes;
  }

  add(chunk: Uint8Array): EventScan {
    let largest = 0;
    let lastEventEnd = -1;
    let at = 0;
    if (this.afterCr && chunk[0] === LF) {
      at = 1;
      if (this.crInEvent) this.bytes++;
    }
    this.afterCr = false;
    // Found once and reused: searching for a CR a stream never sends at every line would scan the rest each time.
    let nextLf = chunk.indexOf(LF, at);
    let nextCr = chunk.indexOf(CR, at);
    while (at < chunk.length) {
      if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = chunk.indexOf(CR, at);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (end === -1) {
        this.lineBytes += chunk.length - at;
        this.bytes += chunk.length - at;
        break;
      }
      this.lineBytes += end - at;
      this.bytes += end - at;
      const blank = this.lineBytes === 0;
      if (blank) {
        // A blank line dispatches the event: the next one starts from nothing.
        largest = Math.max(largest, this.bytes);
        this.bytes = 0;
      } else {
        this.lineBytes = 0;
        this.bytes++;
      }
      at = end + 1;
      if (chunk[end] === CR) {
        if (at === chunk.length) {
          this.afterCr = true;
          this.crInEvent = !blank;
        } else if (chunk[at] === LF) {
          at++;
          if (!blank) this.bytes++;
        }
      }
      if (blank) lastEventEnd = at;
    }
    return { largest: Math.max(largest, this.bytes), lastEventEnd };
  }
}
