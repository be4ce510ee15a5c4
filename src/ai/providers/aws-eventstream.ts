/**
 * The AWS event-stream binary framing (`application/vnd.amazon.eventstream`), as Bedrock's
 * ConverseStream answers: each message is
 *
 *   total length (u32 BE) · headers length (u32 BE) · prelude CRC32 (of the 8 bytes before it)
 *   headers · payload · message CRC32 (of everything before it)
 *
 * A header is a name (u8 length + UTF-8), a type byte and a value (bool true/false, i8, i16,
 * i32, i64, bytes or string with a u16 length, timestamp i64 ms, uuid 16 bytes). Both CRCs are
 * checked: a corrupt frame is an `EventStreamError` naming what is wrong, never a guess.
 */

export type HeaderValue = string | number | boolean | bigint | Uint8Array | Date;

export interface EventStreamMessage {
  headers: Record<string, HeaderValue>;
  payload: Uint8Array;
}

export class EventStreamError extends Error {
  override name = "EventStreamError";
}

const PRELUDE = 12;
const MIN_MESSAGE = 16;
/** Bedrock's frames are small; a length beyond this is a corrupt prelude, not a message to wait for. */
export const MAX_MESSAGE_BYTES = 24 * 1024 * 1024;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, the zlib one). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

function parseHeaders(bytes: Uint8Array, view: DataView, start: number, end: number): Record<string, HeaderValue> {
  const headers: Record<string, HeaderValue> = {};
  let at = start;
  const need = (n: number) => {
    if (at + n > end) throw new EventStreamError("event-stream header runs past the headers section");
  };
  while (at < end) {
    need(1);
    const nameLength = bytes[at]!;
    at += 1;
    need(nameLength + 1);
    const name = utf8.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const type = bytes[at]!;
    at += 1;
    let value: HeaderValue;
    switch (type) {
      case 0:
        value = true;
        break;
      case 1:
        value = false;
        break;
      case 2:
        need(1);
        value = view.getInt8(at);
        at += 1;
        break;
      case 3:
        need(2);
        value = view.getInt16(at);
        at += 2;
        break;
      case 4:
        need(4);
        value = view.getInt32(at);
        at += 4;
        break;
      case 5:
        need(8);
        value = view.getBigInt64(at);
        at += 8;
        break;
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(at);
        at += 2;
        need(length);
        const raw = bytes.slice(at, at + length);
        value = type === 7 ? utf8.decode(raw) : raw;
        at += length;
        break;
      }
      case 8:
        need(8);
        value = new Date(Number(view.getBigInt64(at)));
        at += 8;
        break;
      case 9:
        need(16);
        value = bytes.slice(at, at + 16);
        at += 16;
        break;
      default:
        throw new EventStreamError(`event-stream header "${name}" has an unknown type ${type}`);
    }
    headers[name] = value;
  }
  return headers;
}

/** Decodes one whole message (exactly `total length` bytes), checking both CRCs. */
export function decodeMessage(bytes: Uint8Array): EventStreamMessage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = view.getUint32(0);
  const headersLength = view.getUint32(4);
  if (crc32(bytes, 0, 8) !== view.getUint32(8)) throw new EventStreamError("event-stream prelude CRC mismatch (a corrupt frame)");
  if (total !== bytes.length) throw new EventStreamError(`event-stream message is ${bytes.length} bytes, its prelude says ${total}`);
  if (crc32(bytes, 0, total - 4) !== view.getUint32(total - 4)) {
    throw new EventStreamError("event-stream message CRC mismatch (a corrupt frame)");
  }
  if (PRELUDE + headersLength > total - 4) throw new EventStreamError("event-stream headers length exceeds the message");
  const headers = parseHeaders(bytes, view, PRELUDE, PRELUDE + headersLength);
  return { headers, payload: bytes.slice(PRELUDE + headersLength, total - 4) };
}

/**
 * Splits a byte stream into messages, whatever the chunking: a frame may arrive in pieces or
 * several in one chunk. A stream that ends inside a frame is an error.
 */
export async function* iterateEventStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<EventStreamMessage> {
  let buffer: Uint8Array = new Uint8Array(0);
  for await (const chunk of body) {
    if (buffer.length === 0) buffer = chunk;
    else {
      const joined = new Uint8Array(buffer.length + chunk.length);
      joined.set(buffer);
      joined.set(chunk, buffer.length);
      buffer = joined;
    }
    let at = 0;
    while (buffer.length - at >= PRELUDE) {
      const view = new DataView(buffer.buffer, buffer.byteOffset + at, PRELUDE);
      const total = view.getUint32(0);
      // The prelude is checked before its length is trusted: a corrupt length must not make us wait for bytes forever.
      if (crc32(buffer, at, at + 8) !== view.getUint32(8)) {
        throw new EventStreamError("event-stream prelude CRC mismatch (a corrupt frame)");
      }
      if (total < MIN_MESSAGE || total > MAX_MESSAGE_BYTES) throw new EventStreamError(`event-stream message length ${total} is out of range`);
      if (buffer.length - at < total) break;
      yield decodeMessage(buffer.subarray(at, at + total));
      at += total;
    }
    buffer = at === 0 ? buffer : buffer.slice(at);
  }
  if (buffer.length > 0) throw new EventStreamError(`event-stream ended inside a message (${buffer.length} bytes left over)`);
}
