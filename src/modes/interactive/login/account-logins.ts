/** The subscription logins of pig's OAuth module, as the interactive mode drives them. */
import { signIn, subscriptionLogins } from "../../../ai/oauth/index.ts";
import type { SubscriptionLogins } from "./subscriptions.ts";

export const accountLogins: SubscriptionLogins = {
  list: () => subscriptionLogins(),
  signIn: (provider, io, authPath) => signIn(provider, io, authPath),
};
