/**
 * Server-sent events read from a fetch response body (the WHATWG "text/event-stream" format):
 * lines end with CRLF, LF or CR; `field: value` lines (one optional space after the colon);
 * lines starting with `:` are comments; a blank line ends an event. Several `data:` lines join
 * with "\n". Unknown fields are ignored.
 *
 * Two leniencies, as upstream's readers have them: an event is also dispatched when it has an
 * `event:` name but no data, and an event left unterminated when the stream ends is still
 * delivered.
 *
 * One event — every line up to the blank line that ends it, comments included, and an unfinished
 * line — may hold at most `maxEventChars` characters: its `data:` lines are joined into one
 * string, so a limit on each line alone would let an event of many lines grow without bound.
 */

/** The default limit on one event, in characters (a whole Responses answer fits many times over). */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** An event (or an unfinished line) over the limit; the stream cannot go on. */
export class SseLimitError extends Error {
  override name = "SseLimitError";
}

export interface SseEvent {
  /** The `event:` field; null when the event had none (the spec's default type "message"). */
  event: string | null;
  /** The `data:` lines joined with "\n" ("" when there were none). */
  data: string;
  /** The `id:` field, when the event had one. */
  id?: string;
  /** The `retry:` field in ms, when the event had a valid one. */
  retry?: number;
  /** The event's non-blank lines as received (comments included), for error messages. */
  raw: string[];
}

/** Incremental parser: feed it text, take events as they complete. */
export class SseParser {
  private buffer = "";
  private event: string | null = null;
  private data: string[] = [];
  private id: string | undefined;
  private retry: number | undefined;
  private raw: string[] = [];
  private started = false;
  /** Characters of the event being read, its line breaks included. */
  private eventChars = 0;

  constructor(private readonly maxEventChars = MAX_EVENT_CHARS) {}

  /** Adds text; returns the events it completed. */
  push(text: string): SseEvent[] {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    const out: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf("\r", start);
      const lf = this.buffer.indexOf("\n", start);
      let end: number;
      if (cr === -1 && lf === -1) break;
      if (cr === -1 || (lf !== -1 && lf < cr)) end = lf;
      else end = cr;
      let next = end + 1;
      if (this.buffer[end] === "\r") {
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (next >= this.buffer.length) break;
        if (this.buffer[next] === "\n") next++;
      }
      const event = this.line(this.buffer.slice(start, end));
      if (event) out.push(event);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    if (this.eventChars + this.buffer.length > this.maxEventChars) this.tooLong();
    return out;
  }

  private tooLong(): never {
    this.buffer = "";
    this.data = [];
    this.raw = [];
    throw new SseLimitError(`an event longer than ${Math.round(this.maxEventChars / (1024 * 1024))} Mi characters (its lines up to the blank line that ends it)`);
  }

  /** Ends the stream: the last unterminated line and event, if any. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    let rest = this.buffer;
    this.buffer = "";
    if (rest.endsWith("\r")) rest = rest.slice(0, -1);
    if (rest.length > 0) {
      const event = this.line(rest);
      if (event) out.push(event);
    }
    const last = this.flush();
    if (last) out.push(last);
    return out;
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") return this.flush();
    this.eventChars += line.length + 1;
    if (this.eventChars > this.maxEventChars) this.tooLong();
    this.raw.push(line);
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.event = value;
        break;
      case "data":
        this.data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
    }
    return undefined;
  }

  private flush(): SseEvent | undefined {
    this.eventChars = 0;
    if (this.event === null && this.data.length === 0) {
      this.raw = [];
      this.id = undefined;
      this.retry = undefined;
      return undefined;
    }
    const event: SseEvent = { event: this.event, data: this.data.join("\n"), raw: this.raw };
    if (this.id !== undefined) event.id = this.id;
    if (this.retry !== undefined) event.retry = this.retry;
    this.event = null;
    this.data = [];
    this.raw = [];
    this.id = undefined;
    this.retry = undefined;
    return event;
  }
}

/**
 * The events of a response body. Errors of the underlying stream (a dropped connection, an
 * abort) propagate to the caller. Stopping the iteration early cancels the body.
 */
export async function* iterateSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    finished = true;
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
