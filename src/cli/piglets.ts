/** `pig piglets list [--json]`: the Piglets there are (resources/piglets.ts), each read and checked. */
import { parseArgs } from "node:util";
import type { PigletScope } from "../resources/piglet.ts";
import { findPiglets, readPiglet, type PigletFile } from "../resources/piglets.ts";
import { decideTrust } from "../resources/trust.ts";
import { agentDir } from "../session/paths.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { terminalSafe } from "../util/terminal-safe.ts";
import { tidyParseError, UsageError } from "./errors.ts";

export const PIGLETS_HELP = `Usage: pig piglets <command> [options]

Commands:
  list [--json]                 The Piglets there are: name, description, scope and file;
                                a project's (.pig/piglets/) only when it is trusted
Options:
  --trust / --no-trust          Decide the project's trust for this listing
  --json                        One JSON array: {name, description, scope, path, error?}
`;

const HELP = "pig piglets --help";

interface Row {
  name: string;
  description: string;
  scope: PigletScope;
  path: string;
  /** Set when the file cannot be used: what is wrong, naming the line and field. */
  error?: string;
}

function row(file: PigletFile): Row {
  try {
    const { piglet } = readPiglet(file);
    return { name: piglet.name, description: piglet.description, scope: file.scope, path: file.filePath };
  } catch (error) {
    return { name: file.name, description: "", scope: file.scope, path: file.filePath, error: (error as Error).message };
  }
}

export async function runPiglets(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    writeStdout(PIGLETS_HELP);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { json: { type: "boolean" }, trust: { type: "boolean" }, "no-trust": { type: "boolean" } } });
  } catch (error) {
    throw new UsageError(`piglets: ${tidyParseError(error)}`, HELP);
  }
  const [command, ...rest] = parsed.positionals;
  if (command !== "list") throw new UsageError(`piglets: ${command === undefined ? "name a command" : `unknown command "${command}"`} (the one there is: list)`, HELP);
  if (rest.length > 0) throw new UsageError(`piglets list: takes no operands (got ${JSON.stringify(rest[0])})`, HELP);
  const cwd = process.cwd();
  const dir = agentDir();
  const flag = parsed.values.trust ? true : parsed.values["no-trust"] ? false : undefined;
  const trust = await decideTrust({ cwd, agentDir: dir, interactive: false, ...(flag !== undefined ? { flag } : {}) });
  const catalog = findPiglets({ agentDir: dir, cwd, trusted: trust.trusted });
  const rows = catalog.files.map(row);
  for (const problem of catalog.problems) writeStderr(`pig: warning: ${problem}\n`);
  if (catalog.untrusted.length > 0) {
    writeStderr(`pig: ${catalog.untrusted.length} project Piglet(s) not listed: the project is not trusted (--trust lists them)\n`);
  }
  if (parsed.values.json) {
    writeStdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    writeStdout(`No Piglets (put them in ${dir}/piglets/ or a trusted project's .pig/piglets/).\n`);
    return 0;
  }
  const width = Math.max(4, ...rows.map((r) => r.name.length));
  const scopeWidth = Math.max(7, ...rows.map((r) => r.scope.length));
  writeStdout(`${"NAME".padEnd(width)}  ${"SCOPE".padEnd(scopeWidth)}  DESCRIPTION\n`);
  // Names, descriptions and errors come from the Piglets' files.
  for (const r of rows) {
    writeStdout(terminalSafe(`${r.name.padEnd(width)}  ${r.scope.padEnd(scopeWidth)}  ${r.error ? `(unusable: ${r.error})` : r.description}\n`));
    writeStdout(terminalSafe(`${"".padEnd(width)}  ${"".padEnd(scopeWidth)}  ${r.path}\n`));
  }
  return 0;
}
