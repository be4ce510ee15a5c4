/**
 * `JSON.stringify(value)`, handed out in pieces as it is made. A record holding a long array
 * (RPC's `get_messages` of a large session: ~50 MB of JSON) then never exists as one string:
 * made whole, that string (twice its length in bytes when it holds any character beyond
 * Latin-1) and its UTF-8 copy for the write were most of such an answer's peak memory, and
 * stringifying the elements one at a time is faster than stringifying them together.
 *
 * The text is exactly `JSON.stringify(value)`'s: arrays and plain objects near the top are
 * walked here with its rules (an element without a JSON form is `null`; a property without one
 * is left out), everything else is stringified by it.
 */

/** How deep arrays and plain objects are walked here; below that, JSON.stringify does it all. */
const WALK_DEPTH = 4;
/** Arrays shorter than this are stringified whole (the walk is for the long ones). */
const LONG_ARRAY = 256;
/** About how much text (UTF-16 units) is gathered before it is handed on. */
const PIECE_LENGTH = 1 << 16;

/** Whether `value` holds an array of at least LONG_ARRAY elements that the walk below would reach. */
export function holdsLongArray(value: unknown, depth = 0): boolean {
  if (!walked(value, depth)) return false;
  if (Array.isArray(value)) {
    if (value.length >= LONG_ARRAY) return true;
    return value.some((element) => holdsLongArray(element, depth + 1));
  }
  for (const key of Object.keys(value)) if (holdsLongArray((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/**
 * Hands `JSON.stringify(value)` to `emit` in pieces of about PIECE_LENGTH (more for one large
 * element), in order; returns false, having emitted nothing, when that would be `undefined`.
 */
export function stringifyInPieces(value: unknown, emit: (piece: string) => void): boolean {
  const parts: string[] = [];
  let length = 0;
  const add = (text: string): void => {
    parts.push(text);
    length += text.length;
    if (length >= PIECE_LENGTH) {
      emit(parts.join(""));
      parts.length = 0;
      length = 0;
    }
  };
  if (!walk(value, add, 0)) return false;
  if (parts.length > 0) emit(parts.join(""));
  return true;
}

/** Adds the JSON of `value`; false (nothing added) when it has none, as JSON.stringify's undefined. */
function walk(value: unknown, add: (text: string) => void, depth: number): boolean {
  if (!walked(value, depth)) {
    const json = JSON.stringify(value);
    if (json === undefined) return false;
    add(json);
    return true;
  }
  if (Array.isArray(value)) {
    add("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) add(",");
      if (!walk(value[i], add, depth + 1)) add("null");
    }
    add("]");
    return true;
  }
  add("{");
  let first = true;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    const prefix = `${first ? "" : ","}${JSON.stringify(key)}:`;
    if (walked(member, depth + 1)) {
      add(prefix);
      walk(member, add, depth + 1);
    } else {
      // A property without a JSON form is left out, its key too.
      const json = JSON.stringify(member);
      if (json === undefined) continue;
      add(prefix + json);
    }
    first = false;
  }
  add("}");
  return true;
}

/**
 * Whether `value` at `depth` is walked here rather than stringified whole: an array or an object
 * JSON.stringify treats as a bag of properties (Object's prototype or none), without `toJSON`.
 */
function walked(value: unknown, depth: number): value is object {
  if (depth >= WALK_DEPTH || value === null || typeof value !== "object" || hasToJson(value)) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}
