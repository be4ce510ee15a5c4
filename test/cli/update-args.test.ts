import { expect, test } from "bun:test";
import { UsageError } from "../../src/cli/errors.ts";
import { runUpdate } from "../../src/cli/update.ts";

async function usageError(argv: string[]): Promise<string> {
  const error = await runUpdate(argv).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).help).toBe("pig update --help");
  return (error as UsageError).message;
}

test("pig update's mistakes are usage errors naming the flag, found before anything is fetched", async () => {
  expect(await usageError(["--to", "latest"])).toBe('update: --to "latest": not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)');
  expect(await usageError(["--extensions", "--check"])).toBe("update: --check applies to pig itself, not to packages");
  expect(await usageError(["npm:foo", "--to", "1.0.0"])).toBe("update: --to applies to pig itself, not to packages");
  expect(await usageError(["--all", "--to", "1.0.0"])).toBe("update: --to applies to pig itself; leave out --all");
  expect(await usageError(["self", "--extensions"])).toBe("update: pig itself and packages in one command is --all");
  expect(await usageError(["--self", "npm:foo"])).toBe("update: pig itself and packages in one command is --all");
  expect(await usageError(["npm:a", "npm:b"])).toBe('update: takes one target (got also "npm:b")');
  expect(await usageError(["--extension", "npm:a", "npm:b"])).toBe('update: --extension npm:a and "npm:b" both name a target');
  expect(await usageError(["--trust"])).toBe("update: --trust applies to packages (pig update --extensions --trust)");
  expect(await usageError(["--model"])).toStartWith("update: Unknown option '--model'");
});
