/**
 * Watching one provider response as it arrives, underneath the HTTP client (plain fetch), for
 * the faults a server or a proxy in front of it can produce:
 *
 * - no progress: no headers for `idleTimeoutMs`, or no event that moves the answer on (the
 *   provider reports each with `progress()`) for `idleTimeoutMs` of waiting on the server, fails
 *   the attempt. Keep-alive comments, pings or a trickle of bytes that never completes an event
 *   do not count: a stalled stream must never hang a run, whatever it keeps sending;
 * - an error answer is read only up to `ERROR_BODY_LIMIT` bytes, so a huge error page is neither
 *   held in memory nor written to the session;
 * - a successful answer that is an HTML page (a proxy's, a captive portal's) fails at once
 *   instead of being parsed as an event stream with no events;
 * - an event-stream line longer than `MAX_LINE_BYTES`, or one event (all its lines up to the
 *   blank line that ends it) longer than `MAX_EVENT_BYTES`, fails instead of being buffered whole.
 *
 * The SDK wraps whatever fetch throws in its own error types (a stall before the headers becomes
 * "Request timed out."), so the fault pig diagnosed is kept on the watch for the provider to
 * report in its own words.
 */

/** A fault pig diagnosed in a response (its message is what the assistant message stores). */
export class ProviderFault extends Error {
  override name = "ProviderFault";
}

/** Bytes of an error answer's body that are read; the rest is dropped unread. */
export const ERROR_BODY_LIMIT = 16 * 1024;
/** The longest event accepted, all its lines together: far above any real event (a whole Responses answer). */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** The longest line: an event's lines are part of it. */
export const MAX_LINE_BYTES = MAX_EVENT_BYTES;

import { EventSizeMeter } from "./event-size.ts";

const SETTING = "retry.provider.idleTimeoutMs";

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Math.round(s * 10) / 10}s`;
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/** The title of an HTML page, else its first words: what a person needs to recognise it. */
export function htmlSummary(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const text = (title ?? html.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " "))
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;

/** A one-shot timer for "nothing arrived for too long". */
class IdleTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly onIdle: () => void) {}

  arm(ms: number): void {
    this.stop();
    this.timer = setTimeout(this.onIdle, Math.max(0, ms));
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The time spent waiting on the server since the answer last moved on. Only waits count: while
 * pig itself is busy with what arrived (a slow consumer), the server owes it nothing.
 */
class ProgressClock {
  private waited = 0;
  private waitingSince: number | undefined;
  /** Body bytes received since the last progress. */
  bytes = 0;

  constructor(
    private readonly limitMs: number,
    private readonly timer: IdleTimer,
  ) {}

  get enabled(): boolean {
    return this.limitMs > 0;
  }

  startWait(): void {
    this.waitingSince = performance.now();
    if (this.enabled) this.timer.arm(this.limitMs - this.waited);
  }

  endWait(): void {
    if (this.waitingSince !== undefined) this.waited += performance.now() - this.waitingSince;
    this.waitingSince = undefined;
    this.timer.stop();
  }

  progress(): void {
    this.waited = 0;
    this.bytes = 0;
    if (this.waitingSince === undefined) return;
    // A read ahead may be waiting already: its deadline starts again from now.
    this.waitingSince = performance.now();
    if (this.enabled) this.timer.arm(this.limitMs);
  }
}

/** Watches the requests of one model call (the HTTP client may retry: each attempt starts afresh). */
export class ResponseWatch {
  /** What pig found wrong with the latest attempt, if anything. */
  failure: ProviderFault | undefined;
  private clock: ProgressClock | undefined;

  /** `provider`: named in the faults of the stream's form. */
  constructor(
    private readonly idleTimeoutMs: number | undefined,
    private readonly provider = "the provider",
    /** A binary framing (AWS event stream): chunks pass as they come, with no server-sent-event limits. */
    private readonly binary = false,
  ) {}

  /**
   * The provider parsed an event that moves the answer on (a delta with content, a block or a
   * message starting or ending, usage): the idle timeout starts again.
   */
  progress(): void {
    this.clock?.progress();
  }

  /** A `fetch` with the watch in place. */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    this.failure = undefined;
    const controller = new AbortController();
    const outer = init.signal ?? undefined;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener("abort", forward, { once: true });
    let received = 0;
    let phase: "headers" | "body" = "headers";
    const idleMs = this.idleTimeoutMs ?? 0;
    const timer = new IdleTimer(() => {
      const wait = seconds(idleMs);
      let what: string;
      if (phase === "headers") what = `no response from the server within ${wait}`;
      else if (received === 0) what = `the server sent nothing for ${wait} after its headers`;
      else if (clock.bytes === 0) what = `the server sent nothing for ${wait} after ${received} bytes`;
      else what = `the server sent no event with content for ${wait}, only ${clock.bytes} bytes of keep-alives or of an unfinished event, after ${received} bytes`;
      this.fail(controller, `Stream idle timeout: ${what} (${SETTING})`);
    });
    const clock = new ProgressClock(idleMs, timer);
    this.clock = clock;
    const release = () => {
      timer.stop();
      outer?.removeEventListener("abort", forward);
    };

    let response: Response;
    if (clock.enabled) timer.arm(idleMs);
    try {
      response = await fetch(input, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw this.failure ?? error;
    }
    timer.stop();
    phase = "body";
    const body = response.body;
    if (!body) {
      release();
      return response;
    }
    const reader = body.getReader();
    /** One chunk from the server, with the idle timer running only while pig waits for it. */
    const read = async (): Promise<ReadResult> => {
      clock.startWait();
      try {
        const result = await reader.read();
        if (result.value) {
          received += result.value.byteLength;
          clock.bytes += result.value.byteLength;
        }
        return result;
      } catch (error) {
        throw this.failure ?? error;
      } finally {
        clock.endWait();
      }
    };
    const responseInit = { status: response.status, statusText: response.statusText, headers: withoutLength(response.headers) };

    if (!response.ok) {
      try {
        const text = await readLimited(read, ERROR_BODY_LIMIT);
        return new Response(text, responseInit);
      } finally {
        await reader.cancel().catch(() => undefined);
        release();
      }
    }
    if (/\btext\/html\b/i.test(response.headers.get("content-type") ?? "")) {
      try {
        const page = await readLimited(read, ERROR_BODY_LIMIT);
        throw this.fail(controller, `The server answered ${response.status} with an HTML page instead of an event stream: ${htmlSummary(page)}`);
      } finally {
        await reader.cancel().catch(() => undefined);
        release();
      }
    }

    // The unfinished last event is held here, as received, until the blank line that ends it
    // arrives: the parsers above would otherwise copy their growing buffer with every chunk (the
    // OpenAI SDK also searches it from its start for the event's end: 16 MiB in short lines took
    // it most of a minute), and an event that never ends is dropped at the limit instead of being
    // kept whole.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const events = new EventSizeMeter();
    const malformed = (stream: ReadableStreamDefaultController<Uint8Array>, what: string) => {
      pending = [];
      const fault = this.fail(controller, `Malformed event stream from ${this.provider}: ${what}`);
      release();
      void reader.cancel().catch(() => undefined);
      stream.error(fault);
    };
    const watched = new ReadableStream<Uint8Array>({
      pull: async (stream) => {
        for (;;) {
          let result: ReadResult;
          try {
            result = await read();
          } catch (error) {
            release();
            stream.error(error);
            return;
          }
          if (result.done) {
            release();
            if (pendingBytes > 0) stream.enqueue(joined(pending, pendingBytes));
            stream.close();
            return;
          }
          const chunk = result.value;
          if (this.binary) {
            stream.enqueue(chunk);
            return;
          }
          const scan = events.add(chunk);
          if (scan.largest > MAX_EVENT_BYTES) {
            return events.openBytes > MAX_EVENT_BYTES && events.openIsOneLine
              ? malformed(stream, `a line longer than ${mebibytes(MAX_LINE_BYTES)} without a line break`)
              : malformed(stream, `an event longer than ${mebibytes(MAX_EVENT_BYTES)} (its lines up to the blank line that ends it)`);
          }
          if (scan.lastEventEnd < 0) {
            pending.push(chunk);
            pendingBytes += chunk.byteLength;
            continue;
          }
          const complete = chunk.subarray(0, scan.lastEventEnd);
          const out = pendingBytes > 0 ? joined([...pending, complete], pendingBytes + complete.byteLength) : complete;
          const rest = chunk.subarray(scan.lastEventEnd);
          pending = rest.byteLength > 0 ? [rest] : [];
          pendingBytes = rest.byteLength;
          stream.enqueue(out);
          return;
        }
      },
      cancel: async (reason) => {
        release();
        await reader.cancel(reason).catch(() => undefined);
      },
    });
    return new Response(watched, responseInit);
  };

  /** Records the fault and drops the connection (a pending read then fails with the fault). */
  private fail(controller: AbortController, message: string): ProviderFault {
    const fault = new ProviderFault(message);
    this.failure = fault;
    controller.abort(fault);
    return fault;
  }
}

function joined(parts: readonly Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** The body is re-streamed (already decoded): its original length no longer applies. */
function withoutLength(headers: Headers): Headers {
  const out = new Headers(headers);
  out.delete("content-length");
  out.delete("content-encoding");
  return out;
}

/** Up to `limit` bytes of a body as text, marked when the rest was left unread. */
async function readLimited(read: () => Promise<ReadResult>, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { value, done } = await read();
    if (done) return text + decoder.decode();
    const room = limit - bytes;
    if (value.byteLength > room) {
      text += decoder.decode(value.subarray(0, room));
      return `${text}… [the rest of the body was not read: over ${limit / 1024} KiB]`;
    }
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
}
