/**
 * Keeping keys out of what pig writes and shows. Providers often quote the key they were sent
 * when they refuse it ("Incorrect API key provided: sk-…"); that text must not reach a session
 * file, an export or the screen.
 */

/** Values shorter than this are not treated as secrets (they would match ordinary text). */
const MIN_SECRET = 8;

export const REDACTED = "[redacted]";

/** A set of secrets in use, and text with every one of them replaced. */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    const trimmed = value?.trim();
    if (!trimmed || trimmed.length < MIN_SECRET) return;
    this.secrets.add(trimmed);
    // "Bearer <key>" and similar: the key alone counts too.
    const last = trimmed.split(/\s+/).at(-1)!;
    if (last !== trimmed && last.length >= MIN_SECRET) this.secrets.add(last);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a key inside a longer header value is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }
}

// scheme://userinfo@ — userinfo up to the first `@` of the authority (no `/`, `?`, `#` or space).
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

/**
 * `text` with the user and password of every URL in it replaced (`https://***@host/…`): a base
 * URL, a package source or a proxy may carry them, and a failure line naming the URL must not.
 */
export function hideUrlCredentials(text: string): string {
  return text.includes("@") ? text.replace(URL_CREDENTIALS, "$1***@") : text;
}
