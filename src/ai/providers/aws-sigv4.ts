/**
 * AWS Signature Version 4 for one HTTP request (header signing, `AWS4-HMAC-SHA256`): the
 * canonical request, the string to sign, the signing key and the `Authorization` header. Pure
 * apart from node:crypto; the caller gives the time, so tests can use AWS's published vectors.
 *
 * The canonical URI is the request path as the client holds it (already percent-encoded on the
 * wire, as Bedrock's `/model/<id with %3A>/…`), normalised (empty, `.` and `..` segments) and
 * percent-encoded once more: every AWS service but S3 signs the path encoded twice.
 */
import { createHash, createHmac } from "node:crypto";

export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials (STS, SSO, a container role) come with a token, sent as `x-amz-security-token`. */
  sessionToken?: string;
}

export interface SignableRequest {
  method: string;
  /** The path as sent (percent-encoded where the URL needs it), without the query. */
  path: string;
  /** The query string without `?` (may be empty). */
  query?: string;
  /** Header names in any case; every header given is signed. */
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export interface SigningScope {
  region: string;
  service: string;
  /** `YYYYMMDD'T'HHMMSS'Z'`, the value of `x-amz-date`. */
  amzDate: string;
}

export interface Signature {
  canonicalRequest: string;
  stringToSign: string;
  signedHeaders: string;
  signature: string;
  authorization: string;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function hmac(key: string | Uint8Array, data: string): Buffer {
  return createHmac("sha256", key).update(data, "utf8").digest();
}

/** `20150830T123600Z` for a time. */
export function amzDate(time: Date): string {
  return time.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** RFC 3986 encoding: encodeURIComponent also leaves `!'()*` alone, which AWS encodes. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && path.endsWith("/") ? "/" : "";
  const normalized = `/${segments.join("/")}${trailing}`;
  return uriEncode(normalized).replace(/%2F/g, "/");
}

/** Pairs sorted by encoded name, then value; a bare key gets an empty value. */
export function canonicalQuery(query: string): string {
  if (query === "") return "";
  const pairs = query.split("&").filter((part) => part !== "").map((part) => {
    const at = part.indexOf("=");
    const name = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? "" : part.slice(at + 1);
    return [uriEncode(decodeQuery(name)), uriEncode(decodeQuery(value))] as const;
  });
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, "%20"));
  } catch {
    return text;
  }
}

/** Lower-case names, values trimmed with inner runs of spaces folded to one, sorted by name. */
function canonicalHeaders(headers: Record<string, string>): [string, string][] {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    out.set(name.toLowerCase(), value.replace(/[\r\n]/g, " ").replace(/[ \t]+/g, " ").trim());
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function signingKey(secretAccessKey: string, date: string, region: string, service: string): Buffer {
  const dateKey = hmac(`AWS4${secretAccessKey}`, date);
  return hmac(hmac(hmac(dateKey, region), service), "aws4_request");
}

/** Signs `request` as it is: the caller has already put `host`, `x-amz-date` (and a token) in its headers. */
export function signRequest(request: SignableRequest, credentials: AwsCredentials, scope: SigningScope): Signature {
  const headers = canonicalHeaders(request.headers);
  const signedHeaders = headers.map(([name]) => name).join(";");
  const payloadHash = sha256Hex(request.body);
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.path),
    canonicalQuery(request.query ?? ""),
    headers.map(([name, value]) => `${name}:${value}\n`).join(""),
    signedHeaders,
    payloadHash,
  ].join("\n");
  const date = scope.amzDate.slice(0, 8);
  const credentialScope = `${date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = [SIGV4_ALGORITHM, scope.amzDate, credentialScope, sha256Hex(canonicalRequest)].join("\n");
  const signature = createHmac("sha256", signingKey(credentials.secretAccessKey, date, scope.region, scope.service))
    .update(stringToSign, "utf8")
    .digest("hex");
  const authorization =
    `${SIGV4_ALGORITHM} Credential=${credentials.accessKeyId}/${credentialScope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { canonicalRequest, stringToSign, signedHeaders, signature, authorization };
}
