/**
 * `pig update`, as upstream Pi 1.6.0 has it: without a target it updates pig itself
 * (self-update.ts); `<source>` (or `--extension <source>`) updates that package, `--extensions`
 * all of them (packages.ts), `--all` pig and then the packages. pig adds `--to X.Y.Z` (a given
 * version, also older) and `--check` (only say whether a newer one exists).
 */
import { parseArgs } from "node:util";
import { VERSION_PATTERN } from "../util/release-files.ts";
import { writeStderr, writeStdout } from "../util/stdio.ts";
import { CliError, tidyParseError, UsageError } from "./errors.ts";
import { PACKAGE_OPTIONS, runPackages } from "./packages.ts";
import { selfUpdate } from "./self-update.ts";

export const UPDATE_HELP = `Usage:
  pig update                    Update pig itself to the newest release (also: update self, --self)
  pig update --to X.Y.Z         Install that version of pig (newer or older)
  pig update --check            Only say whether a newer pig is released
  pig update <source>           Update one package (also: --extension <source>)
  pig update --extensions       Update all unpinned packages
  pig update --all              Update pig, then all unpinned packages

Options:
  --force           reinstall pig even when it is the version asked for
  --trust, --no-trust, --ignore-scripts
                    for packages, as in pig install --help
  -h, --help        this help

pig updates itself when pig's installer (install.sh, install.ps1) or npm installed it; releases
come from PIG_RELEASE_URL (default https://github.com/pig-coding-agent/pig/releases). A pig built
from source, installed by another package manager, or a Piglet Binary is updated the way it came.
`;

const SELF_WORDS = new Set(["self", "pi", "pig"]);

export async function runUpdate(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        self: { type: "boolean" },
        all: { type: "boolean" },
        extensions: { type: "boolean" },
        extension: { type: "string" },
        to: { type: "string" },
        check: { type: "boolean" },
        force: { type: "boolean" },
        ...PACKAGE_OPTIONS,
      },
    });
  } catch (error) {
    throw new UsageError(`update: ${tidyParseError(error)}`, "pig update --help");
  }
  const { values, positionals } = parsed;
  if (values.help) {
    writeStdout(UPDATE_HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`update: takes one target (got also ${JSON.stringify(positionals[1])})`, "pig update --help");
  const named = positionals[0];
  const selfNamed = values.self === true || (named !== undefined && SELF_WORDS.has(named));
  const source = values.extension ?? (named !== undefined && !SELF_WORDS.has(named) ? named : undefined);
  if (values.extension !== undefined && named !== undefined) throw new UsageError(`update: --extension ${values.extension} and ${JSON.stringify(named)} both name a target`, "pig update --help");
  const packages = values.all === true || values.extensions === true || source !== undefined;
  const self = values.all === true || selfNamed || !packages;
  if (selfNamed && packages) throw new UsageError("update: pig itself and packages in one command is --all", "pig update --help");
  if (source !== undefined && values.extensions) throw new UsageError(`update: --extensions updates every package; name one (${source}) or use --extensions`, "pig update --help");
  const selfOnly = values.to !== undefined ? "--to" : values.check ? "--check" : values.force ? "--force" : undefined;
  if (selfOnly && !self) throw new UsageError(`update: ${selfOnly} applies to pig itself, not to packages`, "pig update --help");
  if ((values.to !== undefined || values.check) && packages) throw new UsageError(`update: ${selfOnly} applies to pig itself; leave out --all`, "pig update --help");
  const packageFlag = values.local ? "-l" : values.trust ? "--trust" : values["no-trust"] ? "--no-trust" : values["ignore-scripts"] ? "--ignore-scripts" : undefined;
  if (packageFlag && !packages) throw new UsageError(`update: ${packageFlag} applies to packages (pig update --extensions ${packageFlag})`, "pig update --help");
  const to = values.to?.replace(/^v/, "");
  if (to !== undefined && !VERSION_PATTERN.test(to)) throw new UsageError(`update: --to ${JSON.stringify(values.to)}: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)`, "pig update --help");

  let code = 0;
  if (self) {
    const updating = selfUpdate({ ...(to !== undefined ? { to } : {}), check: values.check === true, force: values.force === true }, (line) => writeStdout(`${line}\n`));
    if (!packages) return updating;
    // --all: pig's own failure is said, and the packages are still updated.
    code = await updating.catch((error: unknown) => {
      if (!(error instanceof CliError)) throw error;
      writeStderr(`pig: ${error.message}\n`);
      return error.exitCode;
    });
  }
  if (packages) {
    const rest = [
      ...(source !== undefined ? [source] : []),
      ...(values.local ? ["-l"] : []),
      ...(values.trust ? ["--trust"] : []),
      ...(values["no-trust"] ? ["--no-trust"] : []),
      ...(values["ignore-scripts"] ? ["--ignore-scripts"] : []),
    ];
    code = Math.max(code, await runPackages("update", rest));
  }
  return code;
}
