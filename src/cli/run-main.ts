/** `pig [options]`: the top-level flags. */
import { parseArgs } from "node:util";
import { VERSION } from "../version.ts";
import { tidyParseError, UsageError } from "./errors.ts";
import { MAIN_HELP } from "./help.ts";

export async function runMain(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    throw new UsageError(tidyParseError(error));
  }
  if (parsed.values.help) {
    process.stdout.write(MAIN_HELP);
    return 0;
  }
  if (parsed.values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (parsed.positionals.length > 0) {
    throw new UsageError(`unknown command '${parsed.positionals[0]}'`);
  }
  throw new UsageError("nothing to do: give a command");
}
