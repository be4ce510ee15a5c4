/**
 * The HTTP requests of a login or a refresh: JSON or form posts with a time limit, answers read
 * as JSON and checked with a valibot schema. A refusal names the provider, what was asked, the
 * HTTP status and the server's own words (`error`, `error_description`), with every secret sent
 * in the request taken out, since some servers quote what they were given.
 */
import * as v from "valibot";
import { SecretRedactor } from "../../util/redact.ts";

/** One request may take this long (the providers' clients use the same). */
const REQUEST_TIMEOUT_MS = 30_000;

export interface Reply {
  status: number;
  ok: boolean;
  /** The body as JSON; undefined when it is not JSON. */
  json: unknown;
  text: string;
}

/** A refusal by the server: its status and OAuth error code, when it gave one. */
export class OAuthHttpError extends Error {
  override name = "OAuthHttpError";
  constructor(
    message: string,
    readonly status: number,
    readonly oauthError: string | undefined,
  ) {
    super(message);
  }
}

export interface RequestSpec {
  /** What this request is, for messages: "Anthropic token exchange". */
  what: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  signal: AbortSignal;
  /** Values sent that must never appear in a message (codes, verifiers, tokens). */
  secrets?: readonly (string | undefined)[];
}

function redactorOf(spec: RequestSpec): SecretRedactor {
  const redactor = new SecretRedactor();
  for (const secret of spec.secrets ?? []) redactor.add(secret);
  return redactor;
}

/** Sends the request; a network failure is an error naming `what` and the URL (an abort stays an abort). */
export async function request(url: string, spec: RequestSpec): Promise<Reply> {
  const headers: Record<string, string> = { Accept: "application/json", ...spec.headers };
  let body: string | undefined;
  if (spec.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(spec.form).toString();
  } else if (spec.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(spec.json);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: spec.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.any([spec.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  } catch (error) {
    if (spec.signal.aborted) throw spec.signal.reason ?? error;
    const why = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : (error as Error).message;
    throw new Error(redactorOf(spec).redact(`${spec.what}: could not reach ${url}: ${why}`));
  }
  const text = await response.text().catch(() => "");
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, ok: response.ok, json, text };
}

const ErrorBodySchema = v.looseObject({
  error: v.optional(v.union([v.string(), v.looseObject({ message: v.optional(v.string()), code: v.optional(v.string()) })])),
  error_description: v.optional(v.string()),
  message: v.optional(v.string()),
  detail: v.optional(v.string()),
});

/** The OAuth error code of a refusal (`invalid_grant`, `authorization_pending`, …), if any. */
export function oauthErrorCode(reply: Reply): string | undefined {
  const body = v.safeParse(ErrorBodySchema, reply.json);
  if (!body.success) return undefined;
  const error = body.output.error;
  return typeof error === "string" ? error : error?.code;
}

/** The server's own words about a refusal: `code: description`, its message, or the start of its text. */
export function serverWords(reply: Reply): string {
  const body = v.safeParse(ErrorBodySchema, reply.json);
  if (body.success) {
    const { error, error_description: description, message, detail } = body.output;
    const code = typeof error === "string" ? error : error?.code;
    const words = [code, description ?? (typeof error === "object" ? error.message : undefined) ?? message ?? detail].filter(Boolean);
    if (words.length > 0) return words.join(": ");
  }
  const text = reply.text.trim().replace(/\s+/g, " ");
  return text ? (text.length > 300 ? `${text.slice(0, 300)}…` : text) : "(no body)";
}

/** An error for a refusal, naming `what`, the status and the server's words (secrets removed). */
export function refusal(reply: Reply, spec: Pick<RequestSpec, "what" | "secrets">): OAuthHttpError {
  const message = `${spec.what} failed: HTTP ${reply.status}: ${serverWords(reply)}`;
  return new OAuthHttpError(redactorOf(spec as RequestSpec).redact(message), reply.status, oauthErrorCode(reply));
}

/**
 * The answer as `schema` says it must be; otherwise an error naming `what` and the fields that
 * are wrong (never the body itself: a good answer carries tokens).
 */
export function parseReply<S extends v.GenericSchema>(schema: S, reply: Reply, what: string): v.InferOutput<S> {
  if (reply.json === undefined) throw new Error(`${what}: the answer (HTTP ${reply.status}) is not JSON`);
  const parsed = v.safeParse(schema, reply.json);
  if (parsed.success) return parsed.output;
  const fields = parsed.issues.map((issue) => {
    const where = issue.path?.map((step) => String(step.key)).join(".");
    return where ? `"${where}" ${issue.received === "undefined" ? "is missing" : `is ${issue.received}, expected ${issue.expected}`}` : issue.message;
  });
  throw new Error(`${what}: unexpected answer: ${fields.join("; ")}`);
}

/** Sends the request and returns its checked JSON; a refusal throws `OAuthHttpError`. */
export async function requestJson<S extends v.GenericSchema>(url: string, spec: RequestSpec, schema: S): Promise<v.InferOutput<S>> {
  const reply = await request(url, spec);
  if (!reply.ok) throw refusal(reply, spec);
  return parseReply(schema, reply, spec.what);
}

/** The usual token answer: `access_token`, usually `refresh_token` and `expires_in` (seconds). */
export const TokenReplySchema = v.looseObject({
  access_token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.optional(v.string()),
  expires_in: v.optional(v.pipe(v.number(), v.finite())),
});
