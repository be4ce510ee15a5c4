/**
 * The diff `edit` reports in its details: changed lines with a little context, in upstream's
 * compact format (`+<n> text`, `-<n> text`, ` <n> text`, right-aligned numbers, ` ... ` gaps).
 * The line diff is a plain Myers shortest edit script over lines that keep their "\n".
 */

export type Op = "equal" | "removed" | "added";

export interface Part {
  op: Op;
  lines: string[];
}

/** Lines with their line break, the last one without (so "a" and "a\n" differ, as they should). */
function tokenize(text: string): string[] {
  if (text === "") return [];
  return text.split(/(?<=\n)/);
}

/** Past this many differences the middle is reported as one replaced block (bounded memory). */
const MAX_EDIT_DISTANCE = 2000;

/** Myers' algorithm; returns one op per token of a (equal/removed) and b (added). */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // Round d only reads diagonals -d-1..d+1; keep just those for the way back.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
    v = next;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const at = (k: number) => v[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push("equal");
      x--;
      y--;
    }
    ops.push(down ? "added" : "removed");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push("equal");
    x--;
    y--;
  }
  return ops.reverse();
}

/** Equal runs and change blocks (each block: its removed lines, then its added lines). */
export function diffParts(oldText: string, newText: string): Part[] {
  const a = tokenize(oldText);
  const b = tokenize(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) {
    suffix++;
  }
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const ops = myers(midA, midB) ?? [...midA.map((): Op => "removed"), ...midB.map((): Op => "added")];

  const parts: Part[] = [];
  const push = (op: Op, line: string) => {
    const lastPart = parts[parts.length - 1];
    if (lastPart && lastPart.op === op) lastPart.lines.push(line);
    else parts.push({ op, lines: [line] });
  };
  for (const line of a.slice(0, prefix)) push("equal", line);
  let i = 0;
  let j = 0;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (const line of removed) push("removed", line);
    for (const line of added) push("added", line);
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op === "equal") {
      flush();
      push("equal", midA[i] ?? "");
      i++;
      j++;
    } else if (op === "removed") {
      removed.push(midA[i] ?? "");
      i++;
    } else {
      added.push(midB[j] ?? "");
      j++;
    }
  }
  flush();
  for (const line of a.slice(a.length - suffix)) push("equal", line);
  return parts;
}

export interface EditDiff {
  diff: string;
  /** Line number (in the new text) of the first change. */
  firstChangedLine: number | undefined;
}

/** The compact diff of two texts with `context` unchanged lines around each change. */
export function generateDiffString(oldText: string, newText: string, context = 4): EditDiff {
  const parts = diffParts(oldText, newText);
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const num = (n: number) => String(n).padStart(width, " ");
  const gap = ` ${" ".repeat(width)} ...`;
  const out: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let firstChangedLine: number | undefined;

  parts.forEach((part, index) => {
    const lines = part.lines.map((line) => (line.endsWith("\n") ? line.slice(0, -1) : line));
    if (part.op !== "equal") {
      firstChangedLine ??= newLine;
      for (const line of lines) {
        if (part.op === "added") out.push(`+${num(newLine++)} ${line}`);
        else out.push(`-${num(oldLine++)} ${line}`);
      }
      return;
    }
    const afterChange = index > 0;
    const beforeChange = index < parts.length - 1;
    const show = (from: number, to: number) => {
      for (let k = from; k < to; k++) out.push(` ${num(oldLine + k)} ${lines[k]}`);
    };
    const count = lines.length;
    if (afterChange && beforeChange) {
      if (count <= context * 2) show(0, count);
      else {
        show(0, context);
        out.push(gap);
        show(count - context, count);
      }
    } else if (afterChange) {
      show(0, Math.min(context, count));
      if (count > context) out.push(gap);
    } else if (beforeChange) {
      if (count > context) out.push(gap);
      show(Math.max(0, count - context), count);
    }
    oldLine += count;
    newLine += count;
  });
  return { diff: out.join("\n"), firstChangedLine };
}
