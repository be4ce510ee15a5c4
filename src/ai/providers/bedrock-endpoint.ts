/**
 * Where a Bedrock request goes and how it is signed, as Pi 0.87.1 decides it:
 *
 * - Region: the one in an inference-profile ARN model id, else `AWS_REGION`, else
 *   `AWS_DEFAULT_REGION`, else the region of a standard `bedrock-runtime.<region>.amazonaws.com`
 *   base URL, else the AWS profile's `region`, else us-east-1.
 * - URL: a base URL that is not a standard Bedrock runtime host (a proxy, a VPC endpoint, a test
 *   server) is used as it is; a standard one is used unless a region or profile was configured,
 *   which then picks `https://bedrock-runtime.<region>.amazonaws.com` (`.com.cn` in China).
 * - Path: `/model/<model id, URI-encoded>/converse-stream`.
 * - Signed headers (SigV4, service `bedrock`): content-length, content-type, host,
 *   x-amz-content-sha256, x-amz-date and, for temporary credentials, x-amz-security-token.
 */
import { amzDate, sha256Hex, signRequest, type AwsCredentials } from "./aws-sigv4.ts";
import type { Model } from "../types.ts";

export const BEDROCK_SERVICE = "bedrock";
export const DEFAULT_BEDROCK_REGION = "us-east-1";

export interface BedrockEndpoint {
  url: string;
  /** The path as sent (the model id percent-encoded). */
  path: string;
  host: string;
  region: string;
}

type Env = Record<string, string | undefined>;

const ARN_REGION = /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/;
const RUNTIME_HOST = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;

function standardRegion(baseUrl: string): string | undefined {
  try {
    return RUNTIME_HOST.exec(new URL(baseUrl).hostname.toLowerCase())?.[1];
  } catch {
    return undefined;
  }
}

export function configuredRegion(env: Env): string | undefined {
  return env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;
}

export function bedrockEndpoint(model: Pick<Model, "id" | "baseUrl">, env: Env, profileRegion?: string): BedrockEndpoint {
  const configured = configuredRegion(env);
  const fromBaseUrl = standardRegion(model.baseUrl);
  const hasProfile = Boolean(env.AWS_PROFILE);
  // A custom base URL always wins; the catalogue's standard one only when nothing says otherwise.
  const explicit = Boolean(model.baseUrl) && (!fromBaseUrl || (!configured && !hasProfile));
  const region =
    ARN_REGION.exec(model.id)?.[1] ?? configured ?? (explicit ? fromBaseUrl : undefined) ?? profileRegion ?? DEFAULT_BEDROCK_REGION;
  const base = explicit
    ? model.baseUrl.replace(/\/+$/, "")
    : `https://bedrock-runtime.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`;
  const url = new URL(`${base}/model/${encodeURIComponent(model.id)}/converse-stream`);
  return { url: url.href, path: url.pathname, host: url.host, region };
}

export interface SignedHeaders {
  /** The headers the signature covers (lower-case names), to send as they are. */
  signed: Record<string, string>;
  authorization: string;
}

/** `extra`: caller headers to send and sign too (names lower-case; none of the ones set here). */
export function signedBedrockHeaders(
  endpoint: BedrockEndpoint,
  body: string,
  credentials: AwsCredentials,
  time: Date,
  extra: Record<string, string> = {},
): SignedHeaders {
  const signed: Record<string, string> = {
    ...extra,
    "content-length": String(Buffer.byteLength(body)),
    "content-type": "application/json",
    host: endpoint.host,
    "x-amz-content-sha256": sha256Hex(body),
    "x-amz-date": amzDate(time),
  };
  if (credentials.sessionToken) signed["x-amz-security-token"] = credentials.sessionToken;
  const { authorization } = signRequest(
    { method: "POST", path: endpoint.path, headers: signed, body },
    credentials,
    { region: endpoint.region, service: BEDROCK_SERVICE, amzDate: signed["x-amz-date"]! },
  );
  return { signed, authorization };
}
