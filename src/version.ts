import pkg from "../package.json" with { type: "json" };

/** Set by `scripts/release.ts --version` at build time; absent in a plain build. */
declare const PIG_RELEASE_VERSION: string | undefined;

/**
 * pig's version: the one a release was built as, else package.json's (inlined into the binary at
 * build time either way).
 */
export const VERSION: string = typeof PIG_RELEASE_VERSION === "string" ? PIG_RELEASE_VERSION : pkg.version;
