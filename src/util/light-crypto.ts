/**
 * Random names and a SHA-256 without importing `node:crypto`: in the compiled binary that import
 * alone costs ~10 ms of CPU and ~7 MB of memory at start, which `pig -p` would pay for a few
 * random bytes. Web Crypto's `getRandomValues` is built in (Bun and Node ≥ 20).
 */

/** `bytes` random bytes as lower-case hex (what `randomBytes(bytes).toString("hex")` gives). */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/** SHA-256 of `text` (UTF-8) in hex; loads the hash on first use (Bun's own, else Node's module). */
export function sha256Hex(text: string): string {
  if (typeof Bun !== "undefined") return new Bun.CryptoHasher("sha256").update(text).digest("hex");
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex");
}
