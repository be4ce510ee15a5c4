/**
 * A Chat Completions body as UTF-8 bytes built from kept pieces: each message element's JSON is
 * encoded once, and the elements a body shares with the one before are not encoded or copied
 * again, so a long run's request writes only its new messages. Used only while the elements are
 * reused unchanged (see `reusesElements` in openai-completions.ts).
 *
 * A request lends its body from one kept buffer (`lendCompletionsBody`): the next request of the
 * conversation writes its new messages and the closing fields after the shared ones, in place.
 * At turn 1,000 of a long run the body is ~3 MB; a fresh buffer per request meant allocating,
 * faulting in and copying those 3 MB every turn. The buffer is written only while no request
 * holds it (fetch copies a body when it is called; the lender holds it through the retries) and
 * grows by half again when it is too small.
 */

import { beginsWithSame } from "../../util/same-start.ts";

type Json = Record<string, unknown>;

/** The UTF-8 JSON of each message element, kept while the element lives (the elements are reused unchanged). */
const elementJson = new WeakMap<object, Uint8Array>();
const utf8 = new TextEncoder();
const COMMA = utf8.encode(",");

/**
 * The latest body: its elements, the buffer holding it, the head it began with (model and the
 * opening of `messages`; `headBytes` its length in bytes) and where the elements' JSON ends in
 * the buffer. `writable`: the buffer is this module's own (lent, never given away), so a later
 * body may be written into it.
 */
let latest: { elements: readonly object[]; buffer: Uint8Array; head: string; headBytes: number; joinedEnd: number; writable: boolean } | undefined;

/** The buffer of a body lent and not yet given back: it is not written until it is. */
let lent: Uint8Array | undefined;

/** How many of `elements` the latest body began with; 0 unless it began with all of its own. */
function sharedWithLatest(elements: readonly object[]): number {
  // A body handed over with its buffer (detached) leaves an empty buffer: nothing to copy then.
  if (!latest || latest.elements.length === 0 || latest.buffer.byteLength === 0 || !beginsWithSame(elements, latest.elements)) return 0;
  return latest.elements.length;
}

/**
 * Writes the body's bytes, exactly those of `JSON.stringify(body)`, into a new buffer or (when
 * `lend` and the kept buffer is free, begins the same way and has room) after the shared
 * elements already in the kept buffer. Returns the buffer and the body's length in it.
 */
function writeBody(body: Json, lend: boolean): { buffer: Uint8Array; size: number } {
  const { model, messages, ...rest } = body;
  const elements = messages as Json[];
  const tail = JSON.stringify(rest);
  const head = `{"model":${JSON.stringify(model)},"messages":[`;
  const end = utf8.encode(tail === "{}" ? "]}" : `],${tail.slice(1)}`);
  const shared = sharedWithLatest(elements);
  const sharedBytes = shared > 0 ? latest!.joinedEnd - latest!.headBytes : 0;

  const pieces: Uint8Array[] = [];
  let newBytes = 0;
  for (let i = shared; i < elements.length; i++) {
    const element = elements[i]!;
    let json = elementJson.get(element);
    if (json === undefined) {
      json = utf8.encode(JSON.stringify(element));
      elementJson.set(element, json);
    }
    if (i > 0) pieces.push(COMMA);
    pieces.push(json);
    newBytes += (i > 0 ? COMMA.length : 0) + json.length;
  }
  const headBytes = utf8.encode(head);
  const joinedEnd = headBytes.length + sharedBytes + newBytes;
  const size = joinedEnd + end.length;

  const inPlace = lend && shared > 0 && latest!.head === head && latest!.writable && lent === undefined && latest!.buffer.length >= size;
  let buffer: Uint8Array;
  if (inPlace) {
    buffer = latest!.buffer;
  } else {
    buffer = new Uint8Array(lend ? Math.ceil(size * 1.5) : size);
    buffer.set(headBytes, 0);
    if (shared > 0) buffer.set(latest!.buffer.subarray(latest!.headBytes, latest!.joinedEnd), headBytes.length);
  }
  let at = headBytes.length + sharedBytes;
  for (const piece of pieces) {
    buffer.set(piece, at);
    at += piece.length;
  }
  buffer.set(end, at);
  latest = { elements: elements.slice(), buffer, head, headBytes: headBytes.length, joinedEnd, writable: lend };
  return { buffer, size };
}

/**
 * The body's UTF-8 bytes, exactly those of `JSON.stringify(body)`, in an array of the caller's
 * own: each message element's JSON is taken from the earlier requests that sent the same element.
 */
export function completionsBodyBytes(body: Json): Uint8Array {
  return writeBody(body, false).buffer;
}

/** A body lent from the kept buffer: `bytes` stay as written until `giveBack` is called. */
export interface LentBody {
  bytes: Uint8Array<ArrayBuffer>;
  giveBack(): void;
}

/**
 * The body's bytes as `completionsBodyBytes` writes them, lent from the buffer this module keeps:
 * the caller gives them back once nothing will send them again (the request has its answer or
 * failed), and the next request then writes only its new messages into the same buffer. While a
 * body is out (another request of this process still sending), the next one gets a buffer of
 * its own.
 */
export function lendCompletionsBody(body: Json): LentBody {
  const { buffer, size } = writeBody(body, true);
  lent = buffer;
  return {
    bytes: buffer.subarray(0, size) as Uint8Array<ArrayBuffer>,
    giveBack: () => {
      if (lent === buffer) lent = undefined;
    },
  };
}
