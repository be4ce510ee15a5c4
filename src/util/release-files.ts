/**
 * The files of a pig release as the installer and `pig update` read them: one archive per target
 * (`pig-<target>.tar.gz`, `pig-<target>.zip` for Windows; no version in the name, so
 * `latest/download/<file>` always names the newest), `SHA256SUMS` over the archives and
 * `release.json`. Pure: names, URLs and parsing; the caller does the I/O.
 */
import * as v from "valibot";

/** Where releases live unless `PIG_RELEASE_URL` says otherwise (GitHub's layout). */
export const DEFAULT_RELEASE_URL = "https://github.com/pig-coding-agent/pig/releases";

export const VERSION_PATTERN = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The archive of a target: `pig-linux-x64.tar.gz`, `pig-windows-x64.zip`. */
export function archiveName(targetId: string): string {
  return targetId.startsWith("windows-") ? `pig-${targetId}.zip` : `pig-${targetId}.tar.gz`;
}

/** The binary's name inside an archive. */
export function binaryNameInArchive(targetId: string): string {
  return targetId.startsWith("windows-") ? "pig.exe" : "pig";
}

/**
 * The URL of a release file: the newest release's (`<base>/latest/download/<file>`) or a given
 * version's (`<base>/download/v<version>/<file>`).
 */
export function releaseFileUrl(base: string, version: string | undefined, file: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return version === undefined ? `${trimmed}/latest/download/${file}` : `${trimmed}/download/v${version}/${file}`;
}

/** `SHA256SUMS` as written by `sha256sum`: `<64 hex>  <name>` (or ` *<name>` in binary mode) per line. */
export function formatSha256Sums(entries: readonly { name: string; sha256: string }[]): string {
  return entries.map((e) => `${e.sha256}  ${e.name}\n`).join("");
}

/**
 * The sums of a `SHA256SUMS` file by file name. A line that is not `<sum>  <name>` throws, naming
 * the line: a damaged sums file must not be read as "no sum for this archive".
 */
export function parseSha256Sums(text: string, source = "SHA256SUMS"): Map<string, string> {
  const sums = new Map<string, string>();
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!match) throw new Error(`${source} line ${index + 1}: not "<sha256>  <file>": ${JSON.stringify(line.slice(0, 120))}`);
    sums.set(match[2]!, match[1]!.toLowerCase());
  });
  return sums;
}

export const ReleaseManifestSchema = v.object({
  version: v.pipe(v.string(), v.regex(VERSION_PATTERN, "not a version (MAJOR.MINOR.PATCH)")),
  files: v.array(
    v.object({
      target: v.pipe(v.string(), v.minLength(1)),
      name: v.pipe(v.string(), v.minLength(1)),
      sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "not a SHA-256 in lowercase hex")),
      bytes: v.pipe(v.number(), v.integer(), v.minValue(1)),
    }),
  ),
});

/** `release.json`: the version and, per target, its archive's name, sum and size. */
export type ReleaseManifest = v.InferOutput<typeof ReleaseManifestSchema>;

/** `release.json`'s text checked; a mistake throws naming the field. */
export function parseReleaseManifest(text: string, source = "release.json"): ReleaseManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
  const result = v.safeParse(ReleaseManifestSchema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    throw new Error(`${source}: ${path ? `${path}: ` : ""}${issue.message}`);
  }
  return result.output;
}

/**
 * Compares two versions as semver does for release numbers: -1, 0 or 1. A pre-release
 * (`1.2.0-rc.1`) comes before its release; pre-release tags compare field by field.
 */
export function compareVersions(a: string, b: string): number {
  const split = (s: string) => {
    const [main, pre] = [s.split("-")[0]!, s.includes("-") ? s.slice(s.indexOf("-") + 1) : undefined];
    return { nums: main.split(".").map(Number), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  const xs = x.pre.split(".");
  const ys = y.pre.split(".");
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const p = xs[i];
    const q = ys[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn && Number(p) !== Number(q)) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
