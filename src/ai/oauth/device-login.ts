/**
 * The standard device login (RFC 8628 with form posts): ask for a device code, show the user
 * code, poll the token endpoint. Kimi, xAI and Meta differ only in their endpoints, their extra
 * fields and what they do with the token.
 */
import * as v from "valibot";
import { pollDeviceCode, standardPollResult } from "./device-code.ts";
import { parseReply, request, requestJson, TokenReplySchema, type Reply } from "./http.ts";
import type { LoginIO } from "./types.ts";

const HttpUrl = v.pipe(v.string(), v.url(), v.regex(/^https?:/, "an http(s) URL"));
const DeviceSchema = v.looseObject({
  device_code: v.pipe(v.string(), v.minLength(1)),
  user_code: v.pipe(v.string(), v.minLength(1)),
  verification_uri: HttpUrl,
  verification_uri_complete: v.optional(HttpUrl),
  interval: v.optional(v.number()),
  expires_in: v.optional(v.number()),
});

export interface DeviceLogin {
  io: LoginIO;
  provider: string;
  providerName: string;
  clientId: string;
  deviceUrl: string;
  tokenUrl: string;
  /** Extra fields of the device code request (`scope`, …). */
  deviceFields?: Record<string, string>;
  /** Used when the server names no lifetime. */
  defaultExpiresInSeconds?: number;
}

export type TokenReply = v.InferOutput<typeof TokenReplySchema>;

export async function deviceLogin(login: DeviceLogin): Promise<TokenReply> {
  const { io } = login;
  const device = await requestJson(
    login.deviceUrl,
    { what: `${login.providerName} device code request`, form: { client_id: login.clientId, ...login.deviceFields }, signal: io.signal },
    DeviceSchema,
  );
  const expiresIn = device.expires_in ?? login.defaultExpiresInSeconds;
  io.tell({
    kind: "device_code",
    userCode: device.user_code,
    verificationUri: device.verification_uri_complete ?? device.verification_uri,
    ...(expiresIn !== undefined ? { expiresInSeconds: expiresIn } : {}),
  });
  const polling = { providerName: login.providerName, provider: login.provider, what: `${login.providerName} device code poll`, secrets: [device.device_code] };
  return pollDeviceCode({
    ...polling,
    intervalSeconds: device.interval,
    expiresInSeconds: expiresIn,
    waitBeforeFirstPoll: true,
    signal: io.signal,
    poll: async () => {
      const reply: Reply = await request(login.tokenUrl, {
        ...polling,
        form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: login.clientId, device_code: device.device_code },
        signal: io.signal,
      });
      return standardPollResult(reply, polling, (ok) => parseReply(TokenReplySchema, ok, `${login.providerName} device token`));
    },
  });
}
