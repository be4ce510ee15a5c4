// The floors of opening a 50 MB session, as programs compiled like pig (build-floor.ts) that
// answer as rpc-open.ts expects once they are done: spawn → answer is then start-up plus the work.
//   - read: the file through pig's own line scanner (src/session/lines.ts: 1 MiB reads, lines
//     found, UTF-8 checked a read at a time): the bytes read, the least any check of the file pays;
//   - parse: the same, and `JSON.parse` of every line: what reading every entry costs.
import { join } from "node:path";
import { buildFloor } from "./build-floor.ts";

export type OpenFloor = "read" | "parse";

const LINES_MODULE = join(import.meta.dir, "..", "..", "src", "session", "lines.ts");

function source(parse: boolean): string {
  return `import { closeSync, openSync } from "node:fs";
import { decodeUtf8, scanLines } from ${JSON.stringify(LINES_MODULE)};
const fd = openSync(process.argv[process.argv.length - 1]!, "r");
let lines = 0;
let utf8 = 0;
scanLines(fd, (line) => {
  lines++;
  if (line.utf8) utf8++;
  ${parse ? "JSON.parse(decodeUtf8(line.buf, line.start, line.start + line.length));" : ""}
}, 0, undefined, true);
closeSync(fd);
process.stdout.write(JSON.stringify({ id: "bench-open", type: "response", command: "get_state", success: true, data: { lines, utf8 } }) + "\\n");
`;
}

/** Builds both floor programs in `dir`. */
export function buildOpenFloors(dir: string): Record<OpenFloor, string> {
  return { read: buildFloor(dir, "open-floor-read", source(false)), parse: buildFloor(dir, "open-floor-parse", source(true)) };
}
