/**
 * Subscription (OAuth) logins: the list the pickers show, and `signIn`, which runs a provider's
 * flow and stores the credential in auth.json. Listing loads no flow code; a flow module is
 * loaded when its login runs.
 */
import { saveOAuthCredential } from "../auth.ts";
import { EndpointConfigError } from "./endpoints.ts";
import { OAuthHttpError } from "./http.ts";
import { LOGIN_PROVIDERS, loadFlow, loginList } from "./logins.ts";
import { LoginCancelled, LoginFailed, type LoginIO, type SubscriptionLogin } from "./types.ts";

export { LoginCancelled, LoginFailed } from "./types.ts";
export type { LoginIO, LoginNotice, LoginQuestion, SubscriptionLogin } from "./types.ts";

export function subscriptionLogins(): readonly SubscriptionLogin[] {
  return loginList();
}

/**
 * Runs `provider`'s login through `io` and stores the credential in `authPath` (under its lock,
 * mode 0600). Throws `LoginCancelled` when the user cancels, `LoginFailed` with what went wrong
 * and what to do otherwise; nothing is stored then.
 */
export async function signIn(provider: string, io: LoginIO, authPath: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const flow = await loadFlow(provider);
  if (!flow) throw new LoginFailed(`"${provider}" has no subscription login (those are: ${LOGIN_PROVIDERS.join(", ")})`);
  let credential;
  try {
    credential = await flow.login({ io, env: options.env ?? process.env });
  } catch (error) {
    if (io.signal.aborted || error instanceof LoginCancelled) throw error instanceof LoginCancelled ? error : new LoginCancelled();
    if (error instanceof LoginFailed) throw error;
    if (error instanceof OAuthHttpError || error instanceof EndpointConfigError) throw new LoginFailed(error.message);
    throw new LoginFailed(`${provider} login failed: ${(error as Error).message}`);
  }
  try {
    saveOAuthCredential(authPath, provider, credential);
  } catch (error) {
    throw new LoginFailed(`Signed in to ${provider}, but the login could not be stored: ${(error as Error).message}`);
  }
}
