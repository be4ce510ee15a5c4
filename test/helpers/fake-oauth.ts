/**
 * A fake OAuth authorization server on 127.0.0.1 for the subscription-login tests: authorize
 * (auto-approving, redirecting to the client's redirect URI with a code), the token endpoint
 * (authorization code with PKCE, refresh tokens that rotate and can be revoked, the device-code
 * grant), device authorization that the test approves or denies, and the providers' extra steps
 * (Copilot's token exchange, Meta's key mint, OpenRouter's key exchange, Radius's discovery).
 *
 * Paths are generic; `overridesFor(provider)` gives the endpoint overrides that point a provider's
 * login at them (the file `PIG_OAUTH_ENDPOINTS` names).
 */
import { createHash } from "node:crypto";
import { fakeJwt as unsignedJwt } from "./fake-jwt.ts";

export interface OAuthRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Query, form or JSON body fields, merged (all values as strings). */
  fields: Record<string, string>;
  /** Set once the answer was made (a held request is recorded before it is answered). */
  answered?: boolean;
}

export interface FakeOAuthOptions {
  /** The n-th access token issued (1-based). Default: an Anthropic-style `sk-ant-oat01-…`. */
  accessToken?: (n: number) => string;
  /** `expires_in` of issued tokens, seconds. Default 3600. */
  expiresIn?: number;
  /** Awaited before a token-endpoint request is answered: a test holds it until it has seen some state. */
  beforeToken?: (request: OAuthRequest) => Promise<void> | void;
  /** GitHub answers pending device polls with HTTP 200. Default 400. */
  pendingStatus?: number;
  /** The first device poll answers `slow_down` (with this interval when given). */
  slowDownOnce?: { interval?: number };
  /** Authorization codes older than this are refused (`invalid_grant`). */
  codeLifetimeMs?: number;
}

interface IssuedCode {
  challenge: string | undefined;
  redirectUri: string | undefined;
  clientId: string | undefined;
  issuedAt: number;
}

interface Device {
  deviceCode: string;
  userCode: string;
  state: "pending" | "approved" | "denied" | "expired";
  polls: number;
}

const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");

/** An unsigned JWT whose payload is `claims` (Codex reads the account id from it); each one differs by its signature. */
export function fakeJwt(claims: Record<string, unknown>): string {
  return unsignedJwt(claims, `sig${random()}`);
}

export class FakeOAuth {
  readonly requests: OAuthRequest[] = [];
  /** Every access and refresh token handed out, for tests that search for leaks. */
  readonly issuedTokens: string[] = [];
  readonly url: string;
  private readonly server: ReturnType<typeof Bun.serve>;
  private readonly codes = new Map<string, IssuedCode>();
  private readonly devices: Device[] = [];
  /** Refresh tokens that may be used (each once: a used one rotates). */
  private readonly liveRefresh = new Set<string>();
  private issued = 0;
  private slowedDown = false;
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = [];

  constructor(private readonly options: FakeOAuthOptions = {}) {
    this.server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => this.handle(request) });
    this.url = `http://127.0.0.1:${this.server.port}`;
  }

  close(): void {
    void this.server.stop(true);
  }

  /** Token-endpoint requests of `grant` (`refresh_token`, `authorization_code`, …) so far. */
  tokenCalls(grant: string): OAuthRequest[] {
    return this.requests.filter((r) => r.path === "/token" && r.fields.grant_type === grant);
  }

  /** A refresh token the server accepts, and the access token it goes with, as a login would leave them. */
  seedLogin(): { access: string; refresh: string } {
    const refresh = `rt-${random()}`;
    this.liveRefresh.add(refresh);
    return { access: this.nextAccess(), refresh };
  }

  /** A refresh token of the test's choosing, accepted once like any other. */
  acceptRefresh(refresh: string): void {
    this.liveRefresh.add(refresh);
  }

  /** The refresh token is revoked: using it answers `invalid_grant`. */
  revoke(refresh: string): void {
    this.liveRefresh.delete(refresh);
  }

  /** The user entered `userCode` and approved (or denied) the sign-in. */
  decide(userCode: string, outcome: "approved" | "denied" | "expired"): void {
    const device = this.devices.find((d) => d.userCode === userCode);
    if (!device) throw new Error(`no device code ${userCode} was issued`);
    device.state = outcome;
  }

  /** Resolves once `check` holds (checked after every request). */
  waitFor(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ check, resolve }));
  }

  /** Endpoint overrides pointing `provider`'s login here. */
  overridesFor(provider: string): Record<string, string | number> {
    const u = this.url;
    switch (provider) {
      case "anthropic":
        return { authorize: `${u}/authorize`, token: `${u}/token`, callbackPort: 0 };
      case "openai-codex":
        return {
          authorize: `${u}/authorize`,
          token: `${u}/token`,
          callbackPort: 0,
          deviceUserCode: `${u}/codex/usercode`,
          deviceToken: `${u}/codex/devicetoken`,
          deviceVerification: `${u}/device`,
          deviceRedirect: `${u}/deviceauth/callback`,
        };
      case "github-copilot":
        return {
          deviceCode: `${u}/device/code?domain={domain}`,
          accessToken: `${u}/token?domain={domain}`,
          copilotToken: `${u}/copilot/token?domain={domain}`,
          copilotApi: `${u}/copilot/api`,
        };
      case "kimi-coding":
        return { host: u };
      case "xai":
        return { deviceCode: `${u}/device/code`, token: `${u}/token` };
      case "openrouter":
        return { authorize: `${u}/openrouter/auth`, keys: `${u}/openrouter/keys` };
      case "meta":
        return { deviceAuthorization: `${u}/device/code`, deviceToken: `${u}/token`, mint: `${u}/meta/mint` };
      case "radius":
        return { gateway: u, callbackPort: 0 };
      default:
        throw new Error(`no overrides for ${provider}`);
    }
  }

  private nextAccess(): string {
    this.issued++;
    const access = this.options.accessToken?.(this.issued) ?? `sk-ant-oat01-access-${this.issued}-${random()}`;
    this.issuedTokens.push(access);
    return access;
  }

  private tokens(extra: Record<string, unknown> = {}): Response {
    const refresh = `rt-${random()}`;
    this.liveRefresh.add(refresh);
    this.issuedTokens.push(refresh);
    return Response.json({ access_token: this.nextAccess(), refresh_token: refresh, expires_in: this.options.expiresIn ?? 3600, token_type: "Bearer", ...extra });
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const fields: Record<string, string> = Object.fromEntries(url.searchParams);
    const text = request.method === "POST" ? await request.text() : "";
    if (text) {
      try {
        for (const [k, v] of Object.entries(JSON.parse(text) as Record<string, unknown>)) fields[k] = String(v);
      } catch {
        for (const [k, v] of new URLSearchParams(text)) fields[k] = v;
      }
    }
    const recorded: OAuthRequest = { method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), fields };
    this.requests.push(recorded);
    // A request held before its answer is already a state a test may wait for.
    this.wake();
    try {
      return await this.route(recorded);
    } finally {
      recorded.answered = true;
      this.wake();
    }
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.check()) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  private async route(r: OAuthRequest): Promise<Response> {
    const path = r.path.replace(/^\/(api\/oauth|v1\/oauth)(?=\/)/, "");
    switch (path) {
      case "/authorize":
      case "/openrouter/auth":
        return this.authorize(r);
      case "/v1/oauth":
        return Response.json({ authorizationEndpoint: `${this.url}/authorize` });
      case "/token":
        await this.options.beforeToken?.(r);
        return this.token(r);
      case "/device/code":
      case "/device_authorization":
      case "/device":
        return this.deviceCode();
      case "/codex/usercode": {
        const device = this.newDevice();
        return Response.json({ device_auth_id: device.deviceCode, user_code: device.userCode, interval: "1" });
      }
      case "/codex/devicetoken":
        return this.codexDeviceToken(r);
      case "/copilot/token":
        return this.copilotToken(r);
      case "/copilot/api/models":
        return Response.json({ data: [{ id: "gpt-4o", model_picker_enabled: true, policy: { state: "enabled" } }] });
      case "/meta/mint":
        return this.metaMint(r);
      case "/openrouter/keys":
        return this.openrouterKeys(r);
      default:
        return Response.json({ error: "not_found", error_description: `no route ${r.path}` }, { status: 404 });
    }
  }

  private authorize(r: OAuthRequest): Response {
    const code = `code-${random()}`;
    const redirect = r.fields.redirect_uri ?? r.fields.callback_url;
    this.codes.set(code, { challenge: r.fields.code_challenge, redirectUri: r.fields.redirect_uri, clientId: r.fields.client_id, issuedAt: Date.now() });
    if (!redirect) return new Response("no redirect_uri", { status: 400 });
    const target = new URL(redirect);
    target.searchParams.set("code", code);
    if (r.fields.state) target.searchParams.set("state", r.fields.state);
    return new Response(null, { status: 302, headers: { Location: target.toString() } });
  }

  private redeemCode(code: string | undefined, verifier: string | undefined, redirectUri: string | undefined): string | undefined {
    const issued = code ? this.codes.get(code) : undefined;
    if (!issued) return "unknown or used authorization code";
    this.codes.delete(code!);
    if (this.options.codeLifetimeMs !== undefined && Date.now() - issued.issuedAt > this.options.codeLifetimeMs) return "authorization code expired";
    const challenge = verifier ? createHash("sha256").update(verifier).digest("base64url") : undefined;
    if (issued.challenge !== challenge) return "code_verifier does not match the code_challenge";
    if (issued.redirectUri !== undefined && issued.redirectUri !== redirectUri) return "redirect_uri does not match";
    return undefined;
  }

  private token(r: OAuthRequest): Response {
    const grant = r.fields.grant_type;
    const invalid = (description: string, error = "invalid_grant") => Response.json({ error, error_description: description }, { status: 400 });
    if (grant === "authorization_code") {
      const problem = this.redeemCode(r.fields.code, r.fields.code_verifier, r.fields.redirect_uri);
      return problem ? invalid(problem) : this.tokens();
    }
    if (grant === "refresh_token") {
      const refresh = r.fields.refresh_token;
      if (!refresh || !this.liveRefresh.has(refresh)) return invalid("Refresh token not found or invalid");
      this.liveRefresh.delete(refresh);
      return this.tokens();
    }
    if (grant === "urn:ietf:params:oauth:grant-type:device_code") {
      const device = this.devices.find((d) => d.deviceCode === r.fields.device_code);
      if (!device) return invalid("unknown device code", "invalid_request");
      device.polls++;
      const pending = this.options.pendingStatus ?? 400;
      if (this.options.slowDownOnce && !this.slowedDown) {
        this.slowedDown = true;
        return Response.json({ error: "slow_down", ...(this.options.slowDownOnce.interval ? { interval: this.options.slowDownOnce.interval } : {}) }, { status: pending });
      }
      if (device.state === "pending") return Response.json({ error: "authorization_pending" }, { status: pending });
      if (device.state === "denied") return Response.json({ error: "access_denied" }, { status: 400 });
      if (device.state === "expired") return Response.json({ error: "expired_token" }, { status: 400 });
      this.devices.splice(this.devices.indexOf(device), 1);
      return this.tokens();
    }
    return invalid(`unsupported grant_type ${grant}`, "unsupported_grant_type");
  }

  private newDevice(): Device {
    const device: Device = { deviceCode: `dc-${random()}`, userCode: `${random().slice(0, 4)}-${random().slice(0, 4)}`.toUpperCase(), state: "pending", polls: 0 };
    this.devices.push(device);
    return device;
  }

  private deviceCode(): Response {
    const device = this.newDevice();
    return Response.json({
      device_code: device.deviceCode,
      user_code: device.userCode,
      verification_uri: `${this.url}/device`,
      verification_uri_complete: `${this.url}/device?user_code=${device.userCode}`,
      interval: 1,
      expires_in: 600,
    });
  }

  private codexDeviceToken(r: OAuthRequest): Response {
    const device = this.devices.find((d) => d.deviceCode === r.fields.device_auth_id && d.userCode === r.fields.user_code);
    if (!device) return Response.json({ error: { code: "invalid_device" } }, { status: 400 });
    if (device.state === "pending") return new Response("", { status: 403 });
    if (device.state !== "approved") return Response.json({ error: { code: `deviceauth_${device.state}` } }, { status: 400 });
    const verifier = `cv-${random()}${random()}${random()}`;
    const code = `code-${random()}`;
    this.codes.set(code, {
      challenge: createHash("sha256").update(verifier).digest("base64url"),
      redirectUri: `${this.url}/deviceauth/callback`,
      clientId: undefined,
      issuedAt: Date.now(),
    });
    return Response.json({ authorization_code: code, code_verifier: verifier });
  }

  private copilotToken(r: OAuthRequest): Response {
    const bearer = r.headers.authorization?.replace(/^(Bearer|token) /, "");
    if (!bearer?.startsWith("sk-") && !bearer?.startsWith("gh")) return Response.json({ message: "Bad credentials" }, { status: 401 });
    this.issued++;
    return Response.json({ token: `tid=copilot-${this.issued}-${random()};exp=0;proxy-ep=proxy.example.test`, expires_at: Math.floor(Date.now() / 1000) + (this.options.expiresIn ?? 1800) });
  }

  private metaMint(r: OAuthRequest): Response {
    if (!r.headers.authorization?.startsWith("Bearer ")) return Response.json({ detail: "no identity token" }, { status: 401 });
    return Response.json({ api_key: `meta-key-${random()}` });
  }

  private openrouterKeys(r: OAuthRequest): Response {
    const problem = this.redeemCode(r.fields.code, r.fields.code_verifier, undefined);
    if (problem) return Response.json({ error: { message: problem } }, { status: 400 });
    return Response.json({ key: `sk-or-v1-${random()}` });
  }
}

/** Follows an authorize URL as a browser would, without following the redirect: where it sends the user. */
export async function authorizeRedirect(authorizeUrl: string): Promise<URL> {
  const response = await fetch(authorizeUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status} without a redirect`);
  return new URL(location);
}
