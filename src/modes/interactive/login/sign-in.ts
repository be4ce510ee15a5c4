/**
 * One subscription sign-in from a terminal, for `/login` and the first-run setup: the flow runs
 * with a `LoginIO` over the given dialogs, and the outcome is returned for the caller to word.
 * Nothing is stored unless the flow finished (the flow stores; a cancel or failure stores nothing).
 */
import { LoginCancelled, type SubscriptionLogin } from "../../../ai/oauth/types.ts";
import { createLoginIO, type LoginSurface } from "./login-io.ts";
import type { SubscriptionLogins } from "./subscriptions.ts";

export type SignInOutcome = { kind: "signed-in" } | { kind: "cancelled" } | { kind: "failed"; message: string };

export interface SignInDeps {
  subscriptions: SubscriptionLogins;
  surface: LoginSurface;
  authPath: string;
  /** Aborting it cancels the login (Escape while no dialog is open). */
  cancel: AbortController;
  hyperlinks: boolean;
  env?: Record<string, string | undefined>;
}

export async function signInWith(login: SubscriptionLogin, deps: SignInDeps): Promise<SignInOutcome> {
  const io = createLoginIO(deps.surface, { cancel: deps.cancel, hyperlinks: deps.hyperlinks, ...(deps.env ? { env: deps.env } : {}) });
  try {
    await deps.subscriptions.signIn(login.provider, io, deps.authPath);
    return { kind: "signed-in" };
  } catch (error) {
    // A flow may end with its own error once its signal aborted (a closed server, an aborted fetch).
    if (error instanceof LoginCancelled || deps.cancel.signal.aborted) return { kind: "cancelled" };
    return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}
