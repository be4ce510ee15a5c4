/**
 * A failure the user should see as one clear line (no stack), exit code 1. `warnings` are
 * printed before it: what went wrong earlier and may explain it (a models.json pig could not use
 * before "model not found"). The command line reports it; the SDK passes it to its caller.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly warnings: readonly string[] = [],
  ) {
    super(message);
    this.name = "UserError";
  }
}

/**
 * `models.json` cannot be used: the run does not start, since running on other models than the
 * ones the person wrote down (or setting one up over their file) would hide the mistake.
 */
export class ModelsFileUnusable extends UserError {
  constructor(fault: string) {
    super(`${fault}\nFix models.json and start pig again; pig has not changed the file.`);
    this.name = "ModelsFileUnusable";
  }
}
