/**
 * What a user pastes when the browser that finished the login cannot reach pig's loopback server
 * (it runs on another machine): the whole redirect URL, its query (`code=…&state=…`), the
 * `code#state` Anthropic's page shows, or the bare code.
 */

export interface PastedCode {
  code?: string;
  state?: string;
  /** The authorization server's `iss` in a pasted redirect URL (RFC 9207). */
  iss?: string;
}

export function parsePastedCode(input: string): PastedCode {
  const value = input.trim();
  if (!value) return {};
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      return fromParams(new URL(value).searchParams);
    } catch {
      // Not a URL after all: read it as one of the other forms.
    }
  }
  if (value.includes("code=")) return fromParams(new URLSearchParams(value.replace(/^\?/, "")));
  const hash = value.indexOf("#");
  if (hash >= 0) return { ...(hash > 0 ? { code: value.slice(0, hash) } : {}), ...(hash < value.length - 1 ? { state: value.slice(hash + 1) } : {}) };
  return { code: value };
}

function fromParams(params: URLSearchParams): PastedCode {
  const code = params.get("code");
  const state = params.get("state");
  const iss = params.get("iss");
  return { ...(code ? { code } : {}), ...(state ? { state } : {}), ...(iss ? { iss } : {}) };
}
