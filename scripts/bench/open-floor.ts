// The floors of opening a 50 MB session, as programs compiled like pig (build-floor.ts) that
// answer as rpc-open.ts expects once they are done: spawn → answer is then start-up plus the work.
//   - read: the file through pig's own line scanner (src/session/lines.ts: 1 MiB reads, lines
//     found, UTF-8 checked a read at a time): the bytes read, the least any check of the file pays;
//   - check: the same, and pig's own check that every line is one JSON object (src/session/
//     json-check.ts, what pig's open does for each message line it does not parse): the bytes
//     read and checked, without pig's start-up, index and tree;
//   - parse: the same read, and `JSON.parse` of every line: what reading every entry costs.
import { join } from "node:path";
import { buildFloor } from "./build-floor.ts";

export type OpenFloor = "read" | "check" | "parse";

const LINES_MODULE = join(import.meta.dir, "..", "..", "src", "session", "lines.ts");
const CHECK_MODULE = join(import.meta.dir, "..", "..", "src", "session", "json-check.ts");

function source(work: OpenFloor): string {
  const perLine = {
    read: "",
    check: "if (!checkObjectLine(line.buf, line.start, line.start + line.length, line.utf8).valid) throw new Error(`line ${line.lineNo} is not one JSON object`);",
    parse: "JSON.parse(decodeUtf8(line.buf, line.start, line.start + line.length));",
  }[work];
  return `import { closeSync, openSync } from "node:fs";
import { decodeUtf8, scanLines } from ${JSON.stringify(LINES_MODULE)};
${work === "check" ? `import { checkObjectLine } from ${JSON.stringify(CHECK_MODULE)};` : ""}
const fd = openSync(process.argv[process.argv.length - 1]!, "r");
let lines = 0;
let utf8 = 0;
scanLines(fd, (line) => {
  lines++;
  if (line.utf8) utf8++;
  ${perLine}
}, 0, undefined, true);
closeSync(fd);
process.stdout.write(JSON.stringify({ id: "bench-open", type: "response", command: "get_state", success: true, data: { lines, utf8 } }) + "\\n");
`;
}

/** Builds the floor programs in `dir`. */
export function buildOpenFloors(dir: string): Record<OpenFloor, string> {
  return { read: buildFloor(dir, "open-floor-read", source("read")), check: buildFloor(dir, "open-floor-check", source("check")), parse: buildFloor(dir, "open-floor-parse", source("parse")) };
}
