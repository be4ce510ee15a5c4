/**
 * A Chat Completions body as UTF-8 bytes built from kept pieces: each message element's JSON is
 * encoded once, and the elements a body shares with the one before are copied as one block, so a
 * long run's request encodes only its new messages. Used only while the elements are reused
 * unchanged (see `reusesElements` in openai-completions.ts).
 */

type Json = Record<string, unknown>;

/** The UTF-8 JSON of each message element, kept while the element lives (the elements are reused unchanged). */
const elementJson = new WeakMap<object, Uint8Array>();
const utf8 = new TextEncoder();
const COMMA = utf8.encode(",");

/**
 * The elements of the latest body, and their JSON joined by commas (a view into that body). The
 * next request of the same conversation starts with the same elements: they are copied as one
 * block instead of piece by piece.
 */
let latest: { elements: readonly object[]; joined: Uint8Array } | undefined;

/** How many of `elements` the latest body began with; 0 unless it began with all of its own. */
function sharedWithLatest(elements: readonly object[]): number {
  // A body handed over with its buffer (detached) leaves an empty view: nothing to copy then.
  if (!latest || latest.elements.length > elements.length || latest.elements.length === 0 || latest.joined.byteLength === 0) return 0;
  const before = latest.elements;
  for (let i = 0; i < before.length; i++) if (before[i] !== elements[i]) return 0;
  return before.length;
}

/**
 * The body's UTF-8 bytes, exactly those of `JSON.stringify(body)`, with each message element's
 * JSON taken from the earlier requests that sent the same element: a long run's request encodes
 * only its new messages, and the rest is copied from kept bytes.
 */
export function completionsBodyBytes(body: Json): Uint8Array {
  const { model, messages, ...rest } = body;
  const elements = messages as Json[];
  const tail = JSON.stringify(rest);
  const head = utf8.encode(`{"model":${JSON.stringify(model)},"messages":[`);
  const end = utf8.encode(tail === "{}" ? "]}" : `],${tail.slice(1)}`);
  const shared = sharedWithLatest(elements);
  const pieces: Uint8Array[] = shared > 0 ? [latest!.joined] : [];
  for (let i = shared; i < elements.length; i++) {
    const element = elements[i]!;
    let json = elementJson.get(element);
    if (json === undefined) {
      json = utf8.encode(JSON.stringify(element));
      elementJson.set(element, json);
    }
    if (i > 0) pieces.push(COMMA);
    pieces.push(json);
  }
  let joinedSize = 0;
  for (const piece of pieces) joinedSize += piece.length;
  const out = new Uint8Array(head.length + joinedSize + end.length);
  out.set(head, 0);
  let at = head.length;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  out.set(end, at);
  latest = { elements: elements.slice(), joined: out.subarray(head.length, at) };
  return out;
}
