/**
 * Providers whose credentials live outside pig: Google Vertex AI (Application Default
 * Credentials plus a project and a location) and Amazon Bedrock (the AWS credential chain).
 * When they are present the provider counts as signed in and its requests get the key
 * `<authenticated>`, which tells the provider's module to read them itself at request time.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const AMBIENT_KEY = "<authenticated>";

/** The variables that carry (or point at) ambient credentials, for the credential filters. */
export const AMBIENT_CREDENTIAL_VARS: readonly string[] = [
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
];

/**
 * The Application Default Credentials file to use and how it was found: the file named by
 * `GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's (`$CLOUDSDK_CONFIG`, else
 * `~/.config/gcloud`; `%APPDATA%\gcloud` on Windows). Vertex AI's requests read the same file.
 */
export function credentialsPath(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): { file: string; origin: string } {
  const named = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  if (named) return { file: named, origin: "GOOGLE_APPLICATION_CREDENTIALS" };
  const configDir =
    env.CLOUDSDK_CONFIG?.trim() ||
    (platform === "win32" && env.APPDATA ? join(env.APPDATA, "gcloud") : join(env.HOME || homedir(), ".config", "gcloud"));
  return { file: join(configDir, "application_default_credentials.json"), origin: "gcloud's default location" };
}

function hasVertexCredentials(env: NodeJS.ProcessEnv): boolean {
  const file = credentialsPath(env).file;
  const project = env.GOOGLE_CLOUD_PROJECT || env.GCLOUD_PROJECT;
  return Boolean(project && env.GOOGLE_CLOUD_LOCATION && existsSync(file));
}

function hasAwsCredentials(env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    env.AWS_PROFILE ||
      (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) ||
      env.AWS_BEARER_TOKEN_BEDROCK ||
      env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI ||
      env.AWS_CONTAINER_CREDENTIALS_FULL_URI ||
      env.AWS_WEB_IDENTITY_TOKEN_FILE,
  );
}

/** `AMBIENT_KEY` when `provider` takes ambient credentials and they are there; else undefined. */
export function ambientKey(provider: string, env: NodeJS.ProcessEnv): string | undefined {
  if (provider === "google-vertex" && hasVertexCredentials(env)) return AMBIENT_KEY;
  if (provider === "amazon-bedrock" && hasAwsCredentials(env)) return AMBIENT_KEY;
  return undefined;
}

/** How to give `provider` ambient credentials, for the missing-key message; undefined for others. */
export function ambientHint(provider: string): string | undefined {
  if (provider === "google-vertex") {
    return "Set GOOGLE_CLOUD_API_KEY, or use Application Default Credentials (`gcloud auth application-default login` or GOOGLE_APPLICATION_CREDENTIALS) with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION.";
  }
  if (provider === "amazon-bedrock") {
    return "Set AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK.";
  }
  return undefined;
}
