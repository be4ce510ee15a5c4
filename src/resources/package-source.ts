/**
 * Package sources as users write them (`pig install <source>`, settings `packages`, `-e`):
 *
 * - `npm:<name>[@<version>]` — a version pins it;
 * - `git:<host>/<path>[@<ref>]`, `git:git@<host>:<path>[@<ref>]`, and `https://`, `http://`,
 *   `ssh://`, `git://`, `file://` URLs `[@<ref>]` — a ref pins it;
 * - anything else: a local path, relative to the directory of the settings file that names it
 *   (or the working directory, on the command line).
 *
 * Pure: parsing and naming only.
 */
import { isAbsolute, join, resolve } from "node:path";

export type PackageSource =
  | { kind: "npm"; raw: string; name: string; version?: string; pinned: boolean }
  | {
      kind: "git";
      raw: string;
      /** What `git clone` is given. */
      url: string;
      /** Where it is checked out, under `git/`: `<host>/<path>` (`file/<path>` for file:// URLs). */
      dir: string;
      ref?: string;
      pinned: boolean;
    }
  | { kind: "local"; raw: string; path: string };

/** A source that cannot be read: what is wrong with it. */
export class PackageSourceError extends Error {
  constructor(
    readonly source: string,
    reason: string,
  ) {
    super(`package source ${JSON.stringify(source)}: ${reason}`);
    this.name = "PackageSourceError";
  }
}

const NPM_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;
const URL_SCHEMES = /^(https?|ssh|git|file):\/\//;

/** Whether `text` names a package to fetch (npm, git, a URL), not a local path. */
export function isRemoteSource(text: string): boolean {
  const t = text.trim();
  return t.startsWith("npm:") || t.startsWith("git:") || URL_SCHEMES.test(t);
}

/** `base`: the directory a local path is relative to. */
export function parsePackageSource(raw: string, base: string): PackageSource {
  const text = raw.trim();
  if (text === "") throw new PackageSourceError(raw, "is empty");
  if (text.startsWith("npm:")) return npmSource(raw, text.slice(4));
  if (text.startsWith("git:")) return gitShorthand(raw, text.slice(4));
  if (URL_SCHEMES.test(text)) return gitUrl(raw, text);
  const path = text.startsWith("~/") ? join(process.env.HOME ?? "", text.slice(2)) : text;
  return { kind: "local", raw, path: isAbsolute(path) ? path : resolve(base, path) };
}

function npmSource(raw: string, spec: string): PackageSource {
  // The version follows the last `@` that does not start a scope.
  const at = spec.lastIndexOf("@");
  const name = at > 0 ? spec.slice(0, at) : spec;
  const version = at > 0 ? spec.slice(at + 1) : undefined;
  if (!NPM_NAME.test(name)) throw new PackageSourceError(raw, `"${name}" is not an npm package name`);
  if (version !== undefined && version.trim() === "") throw new PackageSourceError(raw, "has an empty version after '@'");
  return { kind: "npm", raw, name, ...(version !== undefined ? { version } : {}), pinned: version !== undefined };
}

/** `path@ref` → the two; a ref is what follows the last `@` of the path part. */
function splitRef(raw: string, path: string): { path: string; ref?: string } {
  const at = path.lastIndexOf("@");
  if (at < 0) return { path };
  const ref = path.slice(at + 1);
  if (ref === "") throw new PackageSourceError(raw, "has an empty ref after '@'");
  return { path: path.slice(0, at), ref };
}

const tidy = (path: string) => path.replace(/^\/+/, "").replace(/\/+$/, "").replace(/\.git$/, "");

function checkedDir(raw: string, host: string, path: string): string {
  const dir = `${host}/${tidy(path)}`;
  if (!host || tidy(path) === "" || dir.split("/").some((part) => part === ".." || part === ".")) {
    throw new PackageSourceError(raw, "does not name a repository (host and path)");
  }
  return dir;
}

function gitShorthand(raw: string, spec: string): PackageSource {
  // git:git@host:path[@ref] (scp-like), or git:host/path[@ref] (cloned over https).
  const scp = /^([\w.-]+)@([\w.-]+):(.+)$/.exec(spec);
  if (scp) {
    const [, user, host, rest] = scp as unknown as [string, string, string, string];
    const { path, ref } = splitRef(raw, rest);
    return git(raw, `${user}@${host}:${path}`, checkedDir(raw, host, path), ref);
  }
  const { path, ref } = splitRef(raw, spec);
  const slash = path.indexOf("/");
  if (slash <= 0) throw new PackageSourceError(raw, "must be git:<host>/<path> or git:git@<host>:<path>");
  const host = path.slice(0, slash);
  return git(raw, `https://${path}`, checkedDir(raw, host, path.slice(slash + 1)), ref);
}

function gitUrl(raw: string, text: string): PackageSource {
  const scheme = text.slice(0, text.indexOf("://"));
  const afterScheme = text.slice(scheme.length + 3);
  // The authority (user@host:port) ends at the first `/`; a ref's `@` is after it.
  const slash = afterScheme.indexOf("/");
  const authority = slash < 0 ? afterScheme : afterScheme.slice(0, slash);
  const { path, ref } = splitRef(raw, slash < 0 ? "" : afterScheme.slice(slash));
  if (scheme === "file") {
    if (authority !== "" && authority !== "localhost") throw new PackageSourceError(raw, "a file:// URL names a path on this machine (file:///path)");
    return git(raw, `file://${path}`, checkedDir(raw, "file", path), ref);
  }
  const host = authority.replace(/^[^@]*@/, "").replace(/:\d+$/, "");
  return git(raw, `${scheme}://${authority}${path}`, checkedDir(raw, host, path), ref);
}

function git(raw: string, url: string, dir: string, ref: string | undefined): PackageSource {
  return { kind: "git", raw, url, dir, ...(ref !== undefined ? { ref } : {}), pinned: ref !== undefined };
}

/** Two sources are the same package when they name the same thing, whatever the pin. */
export function samePackage(a: PackageSource, b: PackageSource): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "npm" && b.kind === "npm") return a.name === b.name;
  if (a.kind === "git" && b.kind === "git") return a.dir === b.dir;
  return a.kind === "local" && b.kind === "local" && a.path === b.path;
}
