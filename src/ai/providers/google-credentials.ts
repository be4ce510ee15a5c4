/**
 * Google Cloud's Application Default Credentials, as far as Vertex AI needs them: the file named
 * by `GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's (`$CLOUDSDK_CONFIG` or
 * `~/.config/gcloud/application_default_credentials.json`; `%APPDATA%\gcloud\…` on Windows).
 * Two kinds of file are understood: a service-account key (`"type": "service_account"`) and the
 * user login gcloud writes (`"type": "authorized_user"`). Errors name the file and the field,
 * never a value from it.
 */
import { readFile } from "node:fs/promises";
import * as v from "valibot";
import { credentialsPath } from "../ambient-credentials.ts";

export { credentialsPath };

export type Env = Record<string, string | undefined>;

export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
/** Overrides the token endpoint of every credentials file (a test server, a private endpoint). */
export const TOKEN_URL_VARIABLE = "PIG_GOOGLE_TOKEN_URL";

const text = v.pipe(v.string(), v.minLength(1));

const ServiceAccountSchema = v.looseObject({
  type: v.literal("service_account"),
  client_email: text,
  private_key: text,
  private_key_id: v.optional(v.string()),
  token_uri: v.optional(text),
  quota_project_id: v.optional(v.string()),
});

const AuthorizedUserSchema = v.looseObject({
  type: v.literal("authorized_user"),
  client_id: text,
  client_secret: text,
  refresh_token: text,
  token_uri: v.optional(text),
  quota_project_id: v.optional(v.string()),
});

export type ServiceAccount = v.InferOutput<typeof ServiceAccountSchema>;
export type AuthorizedUser = v.InferOutput<typeof AuthorizedUserSchema>;

/** A credentials file read and checked: what it holds, where it came from, and its token endpoint. */
export interface GoogleCredentials {
  file: string;
  /** How the file was found, for messages: the variable or "gcloud's default location". */
  origin: string;
  account: ServiceAccount | AuthorizedUser;
  tokenUrl: string;
  /** The file's text: a changed file is a new login, whose token is not the cached one. */
  fingerprint: string;
}

function fieldOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join(".") || "(the whole file)";
}

/** Reads and checks the credentials file; every failure names the file (and the field). */
export async function readCredentials(env: Env): Promise<GoogleCredentials> {
  const { file, origin } = credentialsPath(env);
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" && origin !== "GOOGLE_APPLICATION_CREDENTIALS") {
      throw new Error(
        `No Google Cloud credentials for Vertex AI: ${file} does not exist. Run \`gcloud auth application-default login\`, ` +
          "set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or set GOOGLE_CLOUD_API_KEY.",
      );
    }
    throw new Error(`Cannot read the Google Cloud credentials file ${file} (from ${origin}): ${code ?? (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // The parser's message quotes the text around the mistake, which may be part of a private key.
    throw new Error(`The Google Cloud credentials file ${file} (from ${origin}) is not valid JSON`);
  }
  const type = (json as { type?: unknown } | null)?.type;
  const schema = type === "service_account" ? ServiceAccountSchema : type === "authorized_user" ? AuthorizedUserSchema : undefined;
  if (!schema) {
    const found = typeof type === "string" ? `"${type}"` : "missing";
    throw new Error(
      `The Google Cloud credentials file ${file} (from ${origin}) has type ${found}; pig reads "service_account" and "authorized_user" files`,
    );
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.issues.map(fieldOf))].join(", ");
    throw new Error(`The Google Cloud credentials file ${file} (from ${origin}) lacks a valid ${fields}`);
  }
  const account = parsed.output;
  const tokenUrl = env[TOKEN_URL_VARIABLE]?.trim() || account.token_uri || GOOGLE_TOKEN_URL;
  return { file, origin, account, tokenUrl, fingerprint: raw };
}
