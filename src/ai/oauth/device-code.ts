/**
 * The device authorization grant (RFC 8628): the user enters a short code on another device
 * while pig polls the token endpoint at the server's interval. `authorization_pending` polls
 * again, `slow_down` waits longer (the server's new interval, or 5 s more), `expired_token` and
 * `access_denied` end the login with words that say what happened and what to do.
 */
import { sleep } from "../../util/wait.ts";
import { oauthErrorCode, refusal, type Reply } from "./http.ts";
import { LoginCancelled, LoginFailed } from "./types.ts";

export type PollResult<T> =
  | { status: "complete"; value: T }
  | { status: "pending" }
  | { status: "slow_down"; intervalSeconds?: number }
  | { status: "failed"; message: string };

export interface DevicePolling<T> {
  /** The provider's name for messages: "GitHub". */
  providerName: string;
  /** The provider id, for "run pig login <provider>". */
  provider: string;
  intervalSeconds?: number | undefined;
  expiresInSeconds?: number | undefined;
  /** GitHub, Kimi, xAI and Meta want a full interval before the first poll. */
  waitBeforeFirstPoll?: boolean;
  signal: AbortSignal;
  poll(): Promise<PollResult<T>>;
}

/** RFC 8628 3.2: five seconds when the server names no interval. */
const DEFAULT_INTERVAL_S = 5;
/** RFC 8628 3.5: `slow_down` adds five seconds. */
const SLOW_DOWN_STEP_MS = 5_000;
/** Never poll faster than this, whatever the server says. */
const MIN_INTERVAL_MS = 1_000;

function intervalMs(seconds: number | undefined): number {
  return Math.max(MIN_INTERVAL_MS, Math.floor((seconds ?? DEFAULT_INTERVAL_S) * 1000));
}

export async function pollDeviceCode<T>(polling: DevicePolling<T>): Promise<T> {
  const deadline = polling.expiresInSeconds !== undefined ? Date.now() + polling.expiresInSeconds * 1000 : Number.POSITIVE_INFINITY;
  let wait = intervalMs(polling.intervalSeconds);
  let slowedDown = false;
  const pause = async (ms: number) => {
    if (!(await sleep(Math.min(ms, Math.max(0, deadline - Date.now())), polling.signal))) throw new LoginCancelled();
  };
  if (polling.waitBeforeFirstPoll) await pause(wait);
  while (Date.now() < deadline) {
    if (polling.signal.aborted) throw new LoginCancelled();
    const result = await polling.poll();
    if (result.status === "complete") return result.value;
    if (result.status === "failed") throw new LoginFailed(result.message);
    if (result.status === "slow_down") {
      slowedDown = true;
      // A server that names the new interval (GitHub does) is believed; otherwise 5 s more.
      wait = result.intervalSeconds && result.intervalSeconds > 0 ? intervalMs(result.intervalSeconds) : wait + SLOW_DOWN_STEP_MS;
    }
    if (Date.now() >= deadline) break;
    await pause(wait);
  }
  throw new LoginFailed(
    `The ${polling.providerName} code expired before the sign-in was confirmed; run pig login ${polling.provider} (or /login ${polling.provider}) again` +
      (slowedDown ? ". The server asked pig to slow down: if this repeats, check the machine's clock (a VM or WSL clock that drifted)" : ""),
  );
}

/**
 * What a standard token-endpoint answer during device polling means (RFC 8628 3.5). `complete`
 * turns a good answer into the login's value.
 */
export function standardPollResult<T>(
  reply: Reply,
  polling: { providerName: string; provider: string; what: string; secrets?: readonly (string | undefined)[] },
  complete: (reply: Reply) => T,
): PollResult<T> {
  // GitHub answers a pending poll with HTTP 200 and an `error`: the code decides, not the status.
  const code = oauthErrorCode(reply);
  if (reply.ok && code === undefined) return { status: "complete", value: complete(reply) };
  if (code === "authorization_pending") return { status: "pending" };
  if (code === "slow_down") {
    const interval = (reply.json as { interval?: unknown } | undefined)?.interval;
    return { status: "slow_down", ...(typeof interval === "number" ? { intervalSeconds: interval } : {}) };
  }
  if (code === "expired_token") {
    return { status: "failed", message: `The ${polling.providerName} code expired before it was entered; run pig login ${polling.provider} (or /login ${polling.provider}) again` };
  }
  if (code === "access_denied" || code === "authorization_denied") {
    return { status: "failed", message: `The sign-in was denied at ${polling.providerName}; nothing was stored` };
  }
  return { status: "failed", message: refusal(reply, polling).message };
}
