/**
 * What a Piglet Binary says of itself in `--version` and `--help` (binary-identity.ts,
 * extensions/linked.ts). A plain pig says nothing more than its version.
 */
import { binaryIdentity } from "../binary-identity.ts";
import { linkedExtensions } from "../extensions/linked.ts";
import { VERSION } from "../version.ts";

/** The first line of `--version`: the binary's own version, else pig's — bare, for scripts. */
export function versionLine(): string {
  return binaryIdentity().version ?? VERSION;
}

/** One line naming the binary and the pig it was built on; none for a plain pig. */
export function identityLine(): string | undefined {
  const { name, version, defaultPiglet } = binaryIdentity();
  if (name === undefined && version === undefined && defaultPiglet === undefined && linkedExtensions().length === 0) return undefined;
  return `${name ?? "pig"}${version !== undefined ? ` ${version}` : ""}: a Piglet Binary built on pig ${VERSION}`;
}

/** The lines after the first of `--version`. */
export function versionDetails(): string[] {
  const lines: string[] = [];
  const { name, version, defaultPiglet } = binaryIdentity();
  if (name !== undefined || version !== undefined) lines.push(identityLine()!);
  if (defaultPiglet !== undefined) lines.push(`default Piglet: ${defaultPiglet}`);
  const linked = linkedExtensions();
  if (linked.length > 0) lines.push("linked extensions:", ...linked.map((l) => `  ${l.label}`));
  return lines;
}
