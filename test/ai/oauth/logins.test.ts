/** Every listed subscription login has a flow, and every provider with a subscription in the catalogue is listed. */
import { expect, test } from "bun:test";
import { PROVIDERS } from "../../../src/ai/catalogue/index.ts";
import { SUBSCRIPTION_LOGINS } from "../../../src/ai/oauth/login-providers.ts";
import { loadFlow } from "../../../src/ai/oauth/logins.ts";

test("each listed login loads a flow; a provider without one loads none", async () => {
  for (const login of SUBSCRIPTION_LOGINS) expect({ provider: login.provider, flow: typeof (await loadFlow(login.provider)) }).toEqual({ provider: login.provider, flow: "object" });
  expect(await loadFlow("groq")).toBeUndefined();
  expect(await loadFlow("constructor")).toBeUndefined();
});

test("the logins are the catalogue's providers with a subscription login", () => {
  const withSubscription = PROVIDERS.filter((p) => p.subscriptionLogin !== undefined).map((p) => p.id);
  expect(SUBSCRIPTION_LOGINS.map((l) => l.provider).sort()).toEqual(withSubscription.sort());
});
