/**
 * PKCE (RFC 7636, S256) and the random `state` a browser login carries: the verifier stays in
 * pig, the challenge goes in the authorize URL, the token request proves pig sent both.
 */

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh verifier (32 random bytes, 43 characters) and its SHA-256 challenge. */
export function createPkce(): Pkce {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: challengeOf(verifier) };
}

export function challengeOf(verifier: string): string {
  return base64url(new Bun.CryptoHasher("sha256").update(verifier).digest());
}

/** A random `state`: 16 bytes as hex, as the providers' own clients send it. */
export function randomState(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}
