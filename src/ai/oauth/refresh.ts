/**
 * Keeping a subscription login usable: a token within five minutes of its expiry (upstream's
 * margin) is renewed before the request that would carry it. One renewal at a time across
 * processes: under the auth.json lock the file is read again, and when another process renewed
 * meanwhile its token is used — a refresh token that rotates is never sent twice. The new
 * tokens are written (whole, through a temp file) before the lock is released, so a process
 * killed at any moment leaves the file as it was or with the new login, and its lock is taken
 * over by the next process as soon as it finds the holder gone.
 */
import { AUTH_LOCK_STALE_MS, authTarget, readAuthFile, writeAuthFile } from "../auth.ts";
import { withFileLockAsync } from "../../util/file-lock.ts";
import type { OAuthCredential, RequestAuth } from "./flow.ts";
import { OAuthHttpError } from "./http.ts";
import { loadFlow } from "./logins.ts";

/** Renew when less than this is left (upstream's margin). */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** A renewal that takes longer is given up (upstream's limit). */
const REFRESH_TIMEOUT_MS = 15_000;
/** How long to wait for another process's renewal (it holds the lock at most its own limit, plus writing). */
const LOCK_WAIT_MS = 45_000;

export function needsRefresh(expires: number, now = Date.now()): boolean {
  return now + REFRESH_MARGIN_MS >= expires;
}

function relogin(provider: string): string {
  return `run /login ${provider} (or pig login ${provider}) to sign in again`;
}

/** An auth.json OAuth entry as a credential, or why it cannot be one. */
function asCredential(provider: string, entry: Record<string, unknown> | undefined): OAuthCredential {
  if (!entry || entry.type !== "oauth") throw new Error(`The ${provider} login is no longer in auth.json (removed by /logout or another program); ${relogin(provider)}`);
  if (typeof entry.access !== "string" || typeof entry.refresh !== "string" || typeof entry.expires !== "number") {
    throw new Error(`The ${provider} login in auth.json lacks "access", "refresh" or "expires"; ${relogin(provider)}`);
  }
  return entry as OAuthCredential;
}

function failure(provider: string, error: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error("Request was aborted");
  const message = (error as Error).message;
  // The server refused the refresh token itself: revoked, expired or already used elsewhere.
  if (error instanceof OAuthHttpError && error.status >= 400 && error.status < 500 && error.status !== 429) {
    return new Error(`The ${provider} login has expired or was revoked (${message}); ${relogin(provider)}`);
  }
  if ((error as Error).name === "TimeoutError") return new Error(`Could not renew the ${provider} login: the token endpoint did not answer within ${REFRESH_TIMEOUT_MS / 1000} s; try again`);
  return new Error(`Could not renew the ${provider} login: ${message}; try again (if it keeps failing, ${relogin(provider)})`);
}

const renewing = new Map<string, Promise<OAuthCredential>>();

/**
 * A credential of `provider` good for the next request: `stored` when it has time left,
 * otherwise the one another process just renewed, otherwise renewed now and saved.
 */
export async function usableCredential(
  authPath: string,
  provider: string,
  stored: Record<string, unknown>,
  signal: AbortSignal | undefined,
  env: NodeJS.ProcessEnv,
): Promise<OAuthCredential> {
  // A token with time left (or with no expiry, as a hand-made entry may be) is used as it is.
  const expires = stored.expires;
  if (typeof stored.access === "string" && (expires === undefined || (typeof expires === "number" && !needsRefresh(expires)))) {
    return stored as OAuthCredential;
  }
  asCredential(provider, stored);
  const key = `${authPath}\0${provider}`;
  let pending = renewing.get(key);
  if (!pending) {
    pending = renew(authPath, provider, signal, env).finally(() => renewing.delete(key));
    renewing.set(key, pending);
  }
  return pending;
}

async function renew(authPath: string, provider: string, signal: AbortSignal | undefined, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const flow = await loadFlow(provider);
  if (!flow) throw new Error(`pig cannot renew a ${provider} login; ${relogin(provider)}`);
  const target = authTarget(authPath);
  return withFileLockAsync(
    target,
    async () => {
      const auth = readAuthFile(target);
      const latest = asCredential(provider, auth[provider]);
      // Another process renewed while this one waited for the lock: its token it is.
      if (!needsRefresh(latest.expires)) return latest;
      let fresh: OAuthCredential;
      const limit = AbortSignal.timeout(REFRESH_TIMEOUT_MS);
      try {
        fresh = await flow.refresh(latest, signal ? AbortSignal.any([signal, limit]) : limit, env);
      } catch (error) {
        throw failure(provider, limit.aborted ? Object.assign(new Error("timeout"), { name: "TimeoutError" }) : error, signal);
      }
      const saved = { ...latest, ...fresh };
      auth[provider] = saved;
      writeAuthFile(target, auth);
      return saved;
    },
    { staleMs: AUTH_LOCK_STALE_MS, waitMs: LOCK_WAIT_MS, ...(signal ? { signal } : {}) },
  );
}

/** What a request carries for `credential`. */
export async function requestAuthOf(provider: string, credential: OAuthCredential): Promise<RequestAuth> {
  const flow = await loadFlow(provider);
  return flow?.requestAuth?.(credential) ?? { apiKey: credential.access };
}
