/**
 * Fetching a release's files for `pig update`: release.json, SHA256SUMS and an archive, from
 * `PIG_RELEASE_URL` (else where the install came from, else GitHub). Plain `fetch`, which takes
 * HTTP_PROXY, HTTPS_PROXY and NO_PROXY as pig's provider calls do. The archive is checked against
 * SHA256SUMS before anything reads it.
 */
import { createHash } from "node:crypto";
import { archiveName, parseReleaseManifest, parseSha256Sums, releaseFileUrl, type ReleaseManifest } from "../util/release-files.ts";
import { CliError } from "./errors.ts";

async function download(url: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow" });
  } catch (error) {
    throw new CliError(`download failed: ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new CliError(`download failed: ${url} (HTTP ${response.status}${response.status === 404 ? ": no such file" : ""})`);
  }
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new CliError(`download failed: ${url}: ${(error as Error).message}`);
  }
}

/** The release's release.json: the newest (`version` undefined) or the one asked for. */
export async function fetchReleaseManifest(base: string, version: string | undefined): Promise<ReleaseManifest> {
  const url = releaseFileUrl(base, version, "release.json");
  const text = new TextDecoder().decode(await download(url));
  try {
    const manifest = parseReleaseManifest(text, url);
    if (version !== undefined && manifest.version !== version) throw new Error(`${url}: says version ${manifest.version}, not ${version}`);
    return manifest;
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** The archive for `target` of release `version`, its SHA-256 sum checked against that release's SHA256SUMS. */
export async function fetchVerifiedArchive(base: string, version: string, target: string): Promise<{ name: string; bytes: Uint8Array }> {
  const name = archiveName(target);
  const sumsUrl = releaseFileUrl(base, version, "SHA256SUMS");
  let expected: string | undefined;
  try {
    expected = parseSha256Sums(new TextDecoder().decode(await download(sumsUrl)), sumsUrl).get(name);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message);
  }
  if (expected === undefined) throw new CliError(`${sumsUrl} has no sum for ${name}: pig ${version} is not released for ${target}`);
  const url = releaseFileUrl(base, version, name);
  const bytes = await download(url);
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== expected) throw new CliError(`wrong checksum for ${url}: SHA256SUMS says ${expected}, the download is ${actual} (pig was not changed)`);
  return { name, bytes };
}
