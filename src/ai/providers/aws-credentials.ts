/**
 * How a Bedrock request authenticates, read from the environment at request time (the key
 * `<authenticated>` means "use what the environment has"; any other key is a Bedrock API key):
 *
 * 1. a Bedrock API key (the stream's key, else `AWS_BEARER_TOKEN_BEDROCK`): `Authorization: Bearer`;
 * 2. `AWS_BEDROCK_SKIP_AUTH=1`: dummy credentials, for proxies that authenticate on their own;
 * 3. `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`);
 * 4. the profile `AWS_PROFILE` (else `default`) of `~/.aws/credentials` and `~/.aws/config`
 *    (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`): static keys or a `credential_process`;
 * 5. the container credentials endpoint (`AWS_CONTAINER_CREDENTIALS_FULL_URI` or
 *    `…_RELATIVE_URI`, with `AWS_CONTAINER_AUTHORIZATION_TOKEN[_FILE]`), as ECS and EKS Pod
 *    Identity provide it.
 *
 * Sources pig does not implement (SSO, assumed roles, web identity, the EC2 instance role) fail
 * with a message saying what to set instead. No message ever holds a key, secret or token.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { AwsCredentials } from "./aws-sigv4.ts";
import { parseAwsIni, type IniSections } from "./aws-ini.ts";
import { AMBIENT_KEY } from "../ambient-credentials.ts";


type Env = Record<string, string | undefined>;

export type BedrockAuth =
  | { kind: "bearer"; token: string; source: string }
  | { kind: "sigv4"; credentials: AwsCredentials; source: string; profileRegion?: string };

export class AwsCredentialError extends Error {}

const EXPORT_HINT = "or run `aws configure export-credentials --format env` and set the AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN it prints";

/** Where the AWS tools keep their files: the variables, else ~/.aws (HOME from `env` when it has one). */
function awsFile(env: Env, variable: string, name: string): string {
  return env[variable] || join(env.HOME || homedir(), ".aws", name);
}

function readIni(path: string): IniSections | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new AwsCredentialError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  return parseAwsIni(text, path);
}

const ProcessOutput = v.object({
  Version: v.literal(1),
  AccessKeyId: v.pipe(v.string(), v.minLength(1)),
  SecretAccessKey: v.pipe(v.string(), v.minLength(1)),
  SessionToken: v.optional(v.string()),
  Expiration: v.optional(v.string()),
});

/** Runs a profile's `credential_process` (through the shell, as the AWS tools do) and reads its JSON. */
function runCredentialProcess(command: string, profile: string, file: string): AwsCredentials {
  const result = Bun.spawnSync(["/bin/sh", "-c", command], { stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  const where = `the credential_process of profile "${profile}" (${file})`;
  if (result.exitCode !== 0) {
    // Its stderr may be long; the first line says what went wrong.
    const reason = result.stderr.toString().trim().split("\n")[0] ?? "";
    throw new AwsCredentialError(`${where} exited with code ${result.exitCode}${reason ? `: ${reason.slice(0, 200)}` : ""}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(result.stdout.toString());
  } catch {
    throw new AwsCredentialError(`${where} did not print JSON`);
  }
  const parsed = v.safeParse(ProcessOutput, json);
  if (!parsed.success) throw new AwsCredentialError(`${where} printed JSON without Version 1, AccessKeyId and SecretAccessKey`);
  const out = parsed.output;
  return { accessKeyId: out.AccessKeyId, secretAccessKey: out.SecretAccessKey, ...(out.SessionToken ? { sessionToken: out.SessionToken } : {}) };
}

/** Static keys or a credential_process of one profile; the config file's `[profile name]` (or `[default]`). */
function profileCredentials(env: Env, profile: string, required: boolean): BedrockAuth | undefined {
  const credentialsFile = awsFile(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials");
  const configFile = awsFile(env, "AWS_CONFIG_FILE", "config");
  const fromCredentials = readIni(credentialsFile)?.get(profile);
  const config = readIni(configFile);
  const fromConfig = config?.get(profile === "default" ? "default" : `profile ${profile}`) ?? config?.get(profile);
  if (!fromCredentials && !fromConfig) {
    if (!required) return undefined;
    throw new AwsCredentialError(`AWS_PROFILE names profile "${profile}", which is neither in ${credentialsFile} nor in ${configFile}`);
  }
  const region = fromConfig?.get("region") || undefined;
  const withRegion = region ? { profileRegion: region } : {};
  for (const [section, file] of [[fromCredentials, credentialsFile], [fromConfig, configFile]] as const) {
    if (!section) continue;
    const id = section.get("aws_access_key_id");
    const secret = section.get("aws_secret_access_key");
    if (id || secret) {
      if (!id || !secret) {
        const missing = id ? "aws_secret_access_key" : "aws_access_key_id";
        throw new AwsCredentialError(`Profile "${profile}" in ${file} has no ${missing}`);
      }
      const token = section.get("aws_session_token");
      return { kind: "sigv4", credentials: { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) }, source: `profile "${profile}" (${file})`, ...withRegion };
    }
    const command = section.get("credential_process");
    if (command) return { kind: "sigv4", credentials: runCredentialProcess(command, profile, file), source: `profile "${profile}" (${file})`, ...withRegion };
  }
  // The default profile may hold only settings (a region) while credentials come from elsewhere.
  if (!required) return undefined;
  const unsupported = ["sso_session", "sso_start_url", "role_arn", "web_identity_token_file", "credential_source"].find(
    (key) => fromConfig?.has(key) || fromCredentials?.has(key),
  );
  const why = unsupported ? `uses ${unsupported}, which pig does not support` : "has no aws_access_key_id, aws_secret_access_key or credential_process";
  throw new AwsCredentialError(`Profile "${profile}" (${configFile}) ${why}: give it static keys or a credential_process, ${EXPORT_HINT}`);
}

const ContainerResponse = v.object({
  AccessKeyId: v.pipe(v.string(), v.minLength(1)),
  SecretAccessKey: v.pipe(v.string(), v.minLength(1)),
  Token: v.optional(v.string()),
  Expiration: v.optional(v.string()),
});

/** The hosts the AWS SDKs let a FULL_URI over plain http point at: this machine and the container agents. */
function allowedContainerUrl(url: URL): boolean {
  if (url.protocol === "https:") return true;
  if (url.protocol !== "http:") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return /^127\./.test(host) || host === "localhost" || host === "::1" || host === "169.254.170.2" || host === "169.254.170.23" || host === "fd00:ec2::23";
}

async function containerCredentials(env: Env, signal: AbortSignal | undefined): Promise<BedrockAuth> {
  const full = env.AWS_CONTAINER_CREDENTIALS_FULL_URI;
  const variable = full ? "AWS_CONTAINER_CREDENTIALS_FULL_URI" : "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI";
  let url: URL;
  try {
    url = new URL(full || `http://169.254.170.2${env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI}`);
  } catch {
    throw new AwsCredentialError(`${variable} is not a URL`);
  }
  if (!allowedContainerUrl(url)) throw new AwsCredentialError(`${variable} must be https or http to this machine or the container agent, not ${url.protocol}//${url.host}`);
  const headers: Record<string, string> = {};
  let token = env.AWS_CONTAINER_AUTHORIZATION_TOKEN;
  if (env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE) {
    try {
      token = readFileSync(env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, "utf8").trim();
    } catch (error) {
      throw new AwsCredentialError(`Cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE ${env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE}: ${(error as Error).message}`);
    }
  }
  if (token) headers.authorization = token;
  const where = `the container credentials endpoint (${variable}, ${url.origin})`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.any([AbortSignal.timeout(10_000), ...(signal ? [signal] : [])]) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new AwsCredentialError(`${where} did not answer: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new AwsCredentialError(`${where} answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AwsCredentialError(`${where} did not answer JSON`);
  }
  const parsed = v.safeParse(ContainerResponse, json);
  if (!parsed.success) throw new AwsCredentialError(`${where} answered without AccessKeyId and SecretAccessKey`);
  const out = parsed.output;
  return { kind: "sigv4", credentials: { accessKeyId: out.AccessKeyId, secretAccessKey: out.SecretAccessKey, ...(out.Token ? { sessionToken: out.Token } : {}) }, source: "container credentials" };
}

/** What the stream signs or authenticates with; throws an `AwsCredentialError` naming what is missing or wrong. */
export async function resolveBedrockAuth(apiKey: string | undefined, env: Env, signal?: AbortSignal): Promise<BedrockAuth> {
  if (apiKey && apiKey !== AMBIENT_KEY) return { kind: "bearer", token: apiKey, source: "API key" };
  if (env.AWS_BEDROCK_SKIP_AUTH === "1") {
    return { kind: "sigv4", credentials: { accessKeyId: "dummy-access-key", secretAccessKey: "dummy-secret-key" }, source: "AWS_BEDROCK_SKIP_AUTH" };
  }
  if (env.AWS_BEARER_TOKEN_BEDROCK) return { kind: "bearer", token: env.AWS_BEARER_TOKEN_BEDROCK, source: "AWS_BEARER_TOKEN_BEDROCK" };
  // Keys in the environment win over AWS_PROFILE's (as in Pi, which hands them to the SDK); the profile may still name the region.
  const id = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  if (id && secret) {
    const profileRegion = env.AWS_PROFILE ? profileRegionOf(env, env.AWS_PROFILE) : undefined;
    return {
      kind: "sigv4",
      credentials: { accessKeyId: id, secretAccessKey: secret, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) },
      source: "AWS_ACCESS_KEY_ID",
      ...(profileRegion ? { profileRegion } : {}),
    };
  }
  if (id || secret) throw new AwsCredentialError(`${id ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY"} is set but ${id ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"} is not`);
  const fromProfile = profileCredentials(env, env.AWS_PROFILE || "default", Boolean(env.AWS_PROFILE));
  if (fromProfile) return fromProfile;
  if (env.AWS_CONTAINER_CREDENTIALS_FULL_URI || env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) return containerCredentials(env, signal);
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE) {
    throw new AwsCredentialError(`AWS_WEB_IDENTITY_TOKEN_FILE is set, but pig does not exchange web identity tokens (IRSA): use EKS Pod Identity (the container endpoint), ${EXPORT_HINT}`);
  }
  throw new AwsCredentialError(
    "No AWS credentials for Amazon Bedrock: set AWS_BEARER_TOKEN_BEDROCK, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (pig does not read the EC2 instance role)",
  );
}

/** The `region` of a profile in the config file, if it names one (a damaged file is left to other readers). */
export function profileRegionOf(env: Env, profile: string): string | undefined {
  try {
    const config = readIni(awsFile(env, "AWS_CONFIG_FILE", "config"));
    return (config?.get(profile === "default" ? "default" : `profile ${profile}`) ?? config?.get(profile))?.get("region") || undefined;
  } catch {
    return undefined;
  }
}
