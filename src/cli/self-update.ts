/**
 * `pig update` for pig itself: finds how the running binary was installed — by pig's installer
 * (a receipt beside it, install-receipt.ts) or by npm (update-npm.ts) — and brings it to the
 * newest release or to `--to X.Y.Z`. Anything else (built from source, a system package, a
 * Piglet Binary) is not pig's to replace: the command says what to do instead and fails.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { binaryIdentity } from "../binary-identity.ts";
import { readTarGzEntry, readZipEntry } from "../util/single-file-archive.ts";
import { binaryNameInArchive, compareVersions, DEFAULT_RELEASE_URL } from "../util/release-files.ts";
import { VERSION } from "../version.ts";
import { CliError } from "./errors.ts";
import { formatInstallReceipt, parseInstallReceipt, RECEIPT_FILE, type InstallReceipt } from "./install-receipt.ts";
import { fetchReleaseManifest, fetchVerifiedArchive } from "./release-download.ts";
import { replaceWithStaged, stageBeside } from "./replace-binary.ts";
import { findNpmInstall, npmReleasedVersion, updateNpmInstall } from "./update-npm.ts";

export interface SelfUpdateOptions {
  /** A version to go to (up or down) instead of the newest. */
  to?: string;
  /** Only say whether a newer release exists. */
  check: boolean;
  /** Install even when the version is the one running. */
  force: boolean;
}

type Install = { kind: "installer"; binary: string; receiptPath: string; receipt: InstallReceipt } | { kind: "npm"; install: NonNullable<ReturnType<typeof findNpmInstall>> };

/** Whether this process is a compiled pig binary (not `bun src/cli/main.ts`). */
function runsCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(Bun.main);
}

/** What the running pig is and how it came, or a CliError saying why pig cannot update it. */
function findInstall(): Install {
  if (!runsCompiled()) {
    throw new CliError(`this pig runs from source (${Bun.main}): update the checkout (git pull, npm ci, npm run build) instead`);
  }
  const identity = binaryIdentity();
  if (identity.name !== undefined || identity.version !== undefined || identity.defaultPiglet !== undefined) {
    throw new CliError(`${process.execPath} is a Piglet Binary (${identity.name ?? "pig"} built on pig ${VERSION}): rebuild it with a newer pig (pig build) instead of updating it`);
  }
  const binary = realpathSync(process.execPath);
  const receiptPath = join(dirname(binary), RECEIPT_FILE);
  if (existsSync(receiptPath)) {
    let receipt: InstallReceipt;
    try {
      receipt = parseInstallReceipt(readFileSync(receiptPath, "utf8"), receiptPath);
    } catch (error) {
      throw new CliError(`${(error as Error).message} (run pig's installer again to repair it)`);
    }
    if (receipt.binary === basename(binary)) return { kind: "installer", binary, receiptPath, receipt };
  }
  let npm: ReturnType<typeof findNpmInstall>;
  try {
    npm = findNpmInstall(binary);
  } catch (error) {
    throw new CliError(`could not tell whether ${binary} came from npm: ${(error as Error).message}`);
  }
  if (npm) return { kind: "npm", install: npm };
  throw new CliError(
    `${binary} was not installed by pig's installer or by npm, so pig update does not replace it. ` +
      "If a package manager installed it, update it with that package manager; if you built it from source, pull and build again; " +
      "or install with the installer (curl -fsSL https://github.com/pig-coding-agent/pig/releases/latest/download/install.sh | sh) and update with pig update from then on.",
  );
}

function describeChange(from: string, to: string): string {
  return compareVersions(to, from) < 0 ? `Downgraded pig ${from} → ${to}` : compareVersions(to, from) > 0 ? `Updated pig ${from} → ${to}` : `Reinstalled pig ${to}`;
}

export async function selfUpdate(options: SelfUpdateOptions, log: (line: string) => void): Promise<number> {
  const install = findInstall();
  const base = process.env.PIG_RELEASE_URL || (install.kind === "installer" ? install.receipt.releaseUrl : DEFAULT_RELEASE_URL);
  // An npm install asks the registry it came from; an installer install, the release files.
  const manifest = install.kind === "installer" ? await fetchReleaseManifest(base, options.to) : undefined;
  let wanted: string;
  try {
    wanted = manifest ? manifest.version : await npmReleasedVersion(options.to ?? "latest");
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const order = compareVersions(wanted, VERSION);
  if (options.check) {
    if (options.to !== undefined) log(order === 0 ? `pig ${VERSION} is the version running` : `pig ${wanted} is released (this is ${VERSION}): pig update --to ${wanted} installs it`);
    else log(order > 0 ? `pig ${wanted} is available (this is ${VERSION}): run pig update` : `pig ${VERSION} is up to date (the newest release is ${wanted})`);
    return 0;
  }
  if (order === 0 && !options.force) {
    log(options.to !== undefined ? `pig is already ${VERSION}` : `pig ${VERSION} is up to date (the newest release)`);
    return 0;
  }
  if (order < 0 && options.to === undefined && !options.force) {
    // A pre-release newer than the newest release: "update" must not mean going back.
    log(`pig ${VERSION} is newer than the newest release (${wanted}); pig update --to ${wanted} goes back to it`);
    return 0;
  }
  if (order < 0) log(`pig ${wanted} is older than this pig (${VERSION}): downgrading`);
  if (install.kind === "npm") {
    await updateNpmInstall(install.install, wanted, log);
    log(`${describeChange(VERSION, wanted)} (npm, ${install.install.prefix})`);
    return 0;
  }
  const { receipt, binary, receiptPath } = install;
  try {
    accessSync(dirname(binary), constants.W_OK);
  } catch {
    throw new CliError(`no write permission on ${dirname(binary)}, so pig cannot replace ${binary} (run pig update as the user who installed it)`);
  }
  const files = manifest?.files ?? [];
  const file = files.find((f) => f.target === receipt.target);
  if (!file) throw new CliError(`pig ${wanted} has no archive for ${receipt.target} (release.json lists ${files.map((f) => f.target).join(", ") || "none"})`);
  log(`Downloading ${file.name} of pig ${wanted} from ${base}`);
  const archive = await fetchVerifiedArchive(base, wanted, receipt.target);
  const inner = binaryNameInArchive(receipt.target);
  let data: Uint8Array;
  try {
    data = archive.name.endsWith(".zip") ? readZipEntry(archive.bytes, inner) : readTarGzEntry(archive.bytes, inner).data;
  } catch (error) {
    throw new CliError(`corrupted archive ${archive.name}: ${(error as Error).message} (pig was not changed)`);
  }
  replaceWithStaged(stageBeside(binary, data), binary, wanted);
  // The receipt follows the binary; written aside and renamed like it.
  const staged = `${receiptPath}.new.${process.pid}`;
  try {
    writeFileSync(staged, formatInstallReceipt({ ...receipt, version: wanted }), { mode: 0o644 });
    renameSync(staged, receiptPath);
  } catch (error) {
    rmSync(staged, { force: true });
    throw new CliError(`${describeChange(VERSION, wanted)} (${binary}), but could not record it in ${receiptPath}: ${(error as Error).message}`);
  }
  log(`${describeChange(VERSION, wanted)} (${binary})`);
  return 0;
}
