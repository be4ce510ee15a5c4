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

/**
 * A failure the user should see as one clear line (no stack), exit code 1. `warnings` are
 * printed before it: what went wrong earlier and may explain it (a models.json pig could not use
 * before "model not found").
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly warnings: readonly string[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** node:util's parseArgs messages, without the advice about `--` that does not apply to pig. */
export function tidyParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(". To specify a positional argument")[0]!;
}
