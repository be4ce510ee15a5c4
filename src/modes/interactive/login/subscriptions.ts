/**
 * The subscription logins as the interactive mode uses them: the list for the pickers and the
 * flow that signs in. An interface, so the commands and the first-run setup can be driven by a
 * test without an authorization server.
 */
import type { LoginIO, SubscriptionLogin } from "../../../ai/oauth/types.ts";

export interface SubscriptionLogins {
  /** Every provider with a subscription login (cheap: no flow is loaded). */
  list(): readonly SubscriptionLogin[];
  /** Runs the provider's flow and stores the credential in `authPath`; throws LoginCancelled or LoginFailed. */
  signIn(provider: string, io: LoginIO, authPath: string): Promise<void>;
}

/** The login of `provider`, by id or by the name it is shown with (any case). */
export function findSubscription(logins: readonly SubscriptionLogin[], named: string): SubscriptionLogin | undefined {
  const wanted = named.trim().toLowerCase();
  return logins.find((login) => login.provider.toLowerCase() === wanted || login.name.toLowerCase() === wanted);
}
