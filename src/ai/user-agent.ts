/**
 * The user agent pig's own HTTP requests to model APIs carry: `pig (<platform> <release>; <arch>)`,
 * the shape of Pi's `pi (…)`. A model's or caller's `User-Agent` header replaces it.
 */
import { arch, platform, release } from "node:os";

export interface OsFacts {
  platform: string;
  release: string;
  arch: string;
}

export function pigUserAgent(os: OsFacts = { platform: platform(), release: release(), arch: arch() }): string {
  return `pig (${os.platform} ${os.release}; ${os.arch})`;
}
