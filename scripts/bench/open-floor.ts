// The floors of opening a 50 MB session, as programs compiled like pig (build-floor.ts) that
// answer as rpc-open.ts expects once they are done: spawn → answer is then start-up plus the work.
//   - read: the file in 1 MiB reads, as pig reads it, its lines found and checked for UTF-8 a
//     read at a time: the bytes read, the least any check of the file pays;
//   - parse: the same, and `JSON.parse` of every line: what reading every entry costs.
import { buildFloor } from "./build-floor.ts";

export type OpenFloor = "read" | "parse";

function source(parse: boolean): string {
  return `import { closeSync, openSync, readSync } from "node:fs";
import { isUtf8 } from "node:buffer";
const path = process.argv[process.argv.length - 1]!;
const fd = openSync(path, "r");
let buf = Buffer.allocUnsafe(1 << 20);
let carry = 0;
let position = 0;
let lines = 0;
let valid = true;
for (;;) {
  if (carry === buf.length) {
    const bigger = Buffer.allocUnsafe(buf.length * 2);
    buf.copy(bigger, 0, 0, carry);
    buf = bigger;
  }
  const got = readSync(fd, buf, carry, buf.length - carry, position);
  position += got;
  const filled = carry + got;
  const last = buf.lastIndexOf(10, filled - 1);
  if (last >= 0) valid &&= isUtf8(buf.subarray(0, last));
  let start = 0;
  for (let nl = buf.indexOf(10, start); nl >= 0 && nl < filled; nl = buf.indexOf(10, start)) {
    ${parse ? "JSON.parse(buf.toString(\"utf8\", start, nl));" : ""}
    lines++;
    start = nl + 1;
  }
  if (got === 0) break;
  buf.copy(buf, 0, start, filled);
  carry = filled - start;
}
closeSync(fd);
process.stdout.write(JSON.stringify({ id: "bench-open", type: "response", command: "get_state", success: true, data: { lines, valid } }) + "\\n");
`;
}

/** Builds both floor programs in `dir`. */
export function buildOpenFloors(dir: string): Record<OpenFloor, string> {
  return { read: buildFloor(dir, "open-floor-read", source(false)), parse: buildFloor(dir, "open-floor-parse", source(true)) };
}
