/**
 * The receipt pig's installer (install.sh, install.ps1) leaves beside the binary it installs:
 * `.pig-install.json` in the same directory, saying which installer put which file there, for
 * which release target and from which release URL. `pig update` updates a binary in place only
 * when such a receipt names it (D84); one directory, one receipt, so installs under several
 * prefixes each know themselves.
 */
import * as v from "valibot";
import { VERSION_PATTERN } from "../util/release-files.ts";

export const RECEIPT_FILE = ".pig-install.json";

export const InstallReceiptSchema = v.object({
  installedBy: v.picklist(["install.sh", "install.ps1"]),
  /** The binary's file name in the receipt's directory: `pig`, `pig.exe`. */
  binary: v.pipe(v.string(), v.regex(/^[^/\\]+$/, "a file name, not a path")),
  target: v.pipe(v.string(), v.regex(/^[a-z0-9]+-[a-z0-9]+(-[a-z0-9]+)?$/, "not a release target such as linux-x64")),
  version: v.pipe(v.string(), v.regex(VERSION_PATTERN, "not a version (MAJOR.MINOR.PATCH)")),
  releaseUrl: v.pipe(v.string(), v.url("not a URL")),
});

export type InstallReceipt = v.InferOutput<typeof InstallReceiptSchema>;

/** A receipt's text checked; a mistake throws naming the file and the field. */
export function parseInstallReceipt(text: string, path: string): InstallReceipt {
  let json: unknown;
  try {
    // PowerShell's Set-Content may start the file with a byte-order mark.
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new Error(`${path}: not JSON (${(error as Error).message})`);
  }
  const result = v.safeParse(InstallReceiptSchema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const key = issue.path?.map((p) => String(p.key)).join(".");
    throw new Error(`${path}: ${key ? `${key}: ` : ""}${issue.message}`);
  }
  return result.output;
}

/** The receipt with its version changed, as the file's text. */
export function formatInstallReceipt(receipt: InstallReceipt): string {
  return `${JSON.stringify(receipt, null, 2)}\n`;
}
