/**
 * Seeded damage to session files: the ways a file gets broken in the wild (a crash mid-write,
 * a bad disk, a merge tool, another program, a person with an editor). Pure: bytes in, bytes out.
 */
import { below } from "./figures.ts";

export type MutationKind =
  | "truncate"
  | "flip-bytes"
  | "drop-line"
  | "duplicate-line"
  | "swap-lines"
  | "invalid-utf8"
  | "huge-line"
  | "deep-nesting"
  | "colliding-ids"
  | "parent-cycle"
  | "dangling-parent"
  | "empty"
  | "binary-garbage"
  | "header-damage";

export const MUTATION_KINDS: readonly MutationKind[] = [
  "truncate",
  "flip-bytes",
  "drop-line",
  "duplicate-line",
  "swap-lines",
  "invalid-utf8",
  "huge-line",
  "deep-nesting",
  "colliding-ids",
  "parent-cycle",
  "dangling-parent",
  "empty",
  "binary-garbage",
  "header-damage",
];

type Random = () => number;

function splitLines(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

function joinLines(all: (Uint8Array | undefined)[], trailingNewline = true): Uint8Array {
  // A pick past the end of a short file leaves a hole: there is no line there.
  const lines = all.filter((line): line is Uint8Array => line !== undefined);
  const parts: Uint8Array[] = [];
  lines.forEach((line, i) => {
    parts.push(line);
    if (i < lines.length - 1 || trailingNewline) parts.push(new Uint8Array([0x0a]));
  });
  return Buffer.concat(parts);
}

const text = (s: string) => new TextEncoder().encode(s);

/** Entry lines (after the header) that parse, with their index. */
function entries(lines: Uint8Array[]): { index: number; value: Record<string, unknown> }[] {
  const out: { index: number; value: Record<string, unknown> }[] = [];
  lines.forEach((line, index) => {
    if (index === 0) return;
    try {
      const value = JSON.parse(Buffer.from(line).toString("utf8")) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) out.push({ index, value: value as Record<string, unknown> });
    } catch {
      // Not an entry: skipped.
    }
  });
  return out;
}

/** `bytes` with one seeded mutation of `kind` applied. */
export function mutate(bytes: Uint8Array, kind: MutationKind, random: Random): Uint8Array {
  const lines = splitLines(bytes);
  const pick = () => 1 + below(random, Math.max(1, lines.length - 1));
  switch (kind) {
    case "truncate":
      return bytes.slice(0, below(random, bytes.length));
    case "flip-bytes": {
      const out = bytes.slice();
      const count = 1 + below(random, 8);
      for (let i = 0; i < count && out.length > 0; i++) {
        const at = below(random, out.length);
        out[at] = out[at]! ^ (1 << below(random, 8));
      }
      return out;
    }
    case "drop-line": {
      const at = pick();
      return joinLines(lines.filter((_, i) => i !== at));
    }
    case "duplicate-line": {
      const at = pick();
      const copy = [...lines];
      copy.splice(at + below(random, 3), 0, lines[at]!);
      return joinLines(copy);
    }
    case "swap-lines": {
      const a = below(random, lines.length);
      const b = below(random, lines.length);
      const copy = [...lines];
      [copy[a], copy[b]] = [copy[b]!, copy[a]!];
      return joinLines(copy);
    }
    case "invalid-utf8": {
      const at = pick();
      const line = lines[at] ?? new Uint8Array();
      const cut = below(random, line.length + 1);
      const bad = [new Uint8Array([0xff, 0xfe]), new Uint8Array([0xc3]), new Uint8Array([0xed, 0xa0, 0x80]), new Uint8Array([0xf8, 0x88, 0x80, 0x80, 0x80])][below(random, 4)]!;
      const copy = [...lines];
      copy[at] = Buffer.concat([line.subarray(0, cut), bad, line.subarray(cut)]);
      return joinLines(copy);
    }
    case "huge-line": {
      // A tool result of several MB, valid or torn.
      const size = (1 + below(random, 4)) << 20;
      const entry = { type: "message", id: "ffff0001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "toolResult", toolCallId: "x", toolName: "bash", content: [{ type: "text", text: "y".repeat(size) }], isError: false, timestamp: 0 } };
      const line = text(JSON.stringify(entry));
      const copy = [...lines];
      copy.splice(pick(), 0, random() < 0.5 ? line : line.subarray(0, line.length - below(random, 1000) - 1));
      return joinLines(copy);
    }
    case "deep-nesting": {
      const depth = 10_000 + below(random, 200_000);
      const open = random() < 0.5 ? "[" : '{"a":';
      const close = open === "[" ? "]" : "}";
      const nested = `{"type":"custom","id":"deep0001","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","data":${open.repeat(depth)}1${close.repeat(random() < 0.8 ? depth : depth - 1)}}`;
      const copy = [...lines];
      copy.splice(pick(), 0, text(nested));
      return joinLines(copy);
    }
    case "colliding-ids": {
      const parsed = entries(lines);
      if (parsed.length < 2) return bytes;
      const a = parsed[below(random, parsed.length)]!;
      const b = parsed[below(random, parsed.length)]!;
      const copy = [...lines];
      copy[b.index] = text(JSON.stringify({ ...b.value, id: a.value.id }));
      return joinLines(copy);
    }
    case "parent-cycle": {
      const parsed = entries(lines);
      if (parsed.length < 2) return bytes;
      const a = parsed[below(random, parsed.length)]!;
      const b = parsed[below(random, parsed.length)]!;
      const copy = [...lines];
      copy[a.index] = text(JSON.stringify({ ...a.value, parentId: b.value.id }));
      copy[b.index] = text(JSON.stringify({ ...b.value, parentId: a.value.id }));
      return joinLines(copy);
    }
    case "dangling-parent": {
      const parsed = entries(lines);
      if (parsed.length === 0) return bytes;
      const a = parsed[below(random, parsed.length)]!;
      const copy = [...lines];
      copy[a.index] = text(JSON.stringify({ ...a.value, parentId: "deadbeef" }));
      return joinLines(copy);
    }
    case "empty":
      return random() < 0.5 ? new Uint8Array() : text("\n\n\n");
    case "binary-garbage": {
      const garbage = new Uint8Array(1 + below(random, 4096));
      for (let i = 0; i < garbage.length; i++) garbage[i] = below(random, 256);
      const copy = [...lines];
      copy.splice(below(random, lines.length + 1), 0, garbage);
      return joinLines(copy);
    }
    case "header-damage": {
      const header = Buffer.from(lines[0] ?? new Uint8Array()).toString("utf8");
      const variants = [
        header.replace('"type":"session"', '"type":"sesion"'),
        header.replace(/"id":"[^"]*"/, '"id":42'),
        header.replace('"version":3', '"version":99'),
        header.replace('"version":3', '"version":1'),
        header.slice(0, Math.max(1, header.length - 5)),
        "",
      ];
      const copy = [...lines];
      copy[0] = text(variants[below(random, variants.length)]!);
      return joinLines(copy);
    }
  }
}

/** One to three seeded mutations; returns the bytes and what was done. */
export function damage(bytes: Uint8Array, random: Random): { bytes: Uint8Array; kinds: MutationKind[] } {
  const count = random() < 0.7 ? 1 : 2 + below(random, 2);
  const kinds: MutationKind[] = [];
  let out = bytes;
  for (let i = 0; i < count; i++) {
    const kind = MUTATION_KINDS[below(random, MUTATION_KINDS.length)]!;
    kinds.push(kind);
    out = mutate(out, kind, random);
  }
  return { bytes: out, kinds };
}
