/** A mistake in how pig was called: reported on stderr with a pointer to the help to read (`help`), exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly help = "pig --help",
  ) {
    super(message);
    this.name = "UsageError";
  }
}

// The runtime and the modes throw it too; the command line knows it by this name.
export { UserError as CliError } from "../runtime/errors.ts";

/** node:util's parseArgs messages, without the advice about `--` that does not apply to pig. */
export function tidyParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(". To specify a positional argument")[0]!;
}
