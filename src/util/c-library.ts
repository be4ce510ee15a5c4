/**
 * Which C library this Linux runs on, for picking the glibc or the musl (Alpine) build of pig.
 * Plain Node (no Bun API): the npm launcher, its install script and the SDK's binary search all
 * run it under Node.
 */
import { readdirSync, readFileSync } from "node:fs";

interface ReportHeader {
  glibcVersionRuntime?: string;
}

/**
 * What `/usr/bin/ldd` says the C library is: glibc's is a script naming the GNU C Library, musl's
 * is musl's loader itself. The cheapest test (a file read; Node's report costs ~30 ms of CPU).
 */
function libcOfLdd(): "glibc" | "musl" | undefined {
  try {
    const text = readFileSync("/usr/bin/ldd", "latin1");
    if (text.includes("musl")) return "musl";
    if (text.includes("GNU C Library") || text.includes("GLIBC")) return "glibc";
  } catch {
    // No ldd: ask Node.
  }
  return undefined;
}

/**
 * Whether this Linux runs on musl (Alpine): ldd says so, else Node's diagnostic report, which
 * names the glibc it runs on and none on musl, else a musl loader in /lib.
 */
export function onMusl(): boolean {
  if (process.platform !== "linux") return false;
  const ldd = libcOfLdd();
  if (ldd) return ldd === "musl";
  try {
    const report = process.report as (NodeJS.ProcessReport & { excludeNetwork?: boolean }) | undefined;
    // The report would otherwise list network interfaces, which can be slow to look up.
    if (report) report.excludeNetwork = true;
    const got = report?.getReport() as unknown;
    const header = (typeof got === "string" ? (JSON.parse(got) as { header?: ReportHeader }) : (got as { header?: ReportHeader } | undefined))?.header;
    if (header) return header.glibcVersionRuntime === undefined;
  } catch {
    // No usable report: fall through to the loader.
  }
  try {
    return readdirSync("/lib").some((name) => name.startsWith("ld-musl-"));
  } catch {
    return false;
  }
}
