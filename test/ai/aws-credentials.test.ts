/**
 * Where a Bedrock request's credentials come from (environment given to the resolver, real
 * files in a temp dir): the order of the sources, profiles with static keys or a
 * credential_process, and the errors — each naming the variable, file or profile at fault and
 * none holding a secret.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveBedrockAuth } from "../../src/ai/providers/aws-credentials.ts";
import { tempDir } from "../helpers/tmp.ts";

const SECRET = "secret-value-91c0ffee";

type AwsFiles = {
  HOME: string;
  AWS_SHARED_CREDENTIALS_FILE: string;
  AWS_CONFIG_FILE: string;
};

function files(credentials: string, config = ""): AwsFiles {
  const dir = tempDir("pig-aws-");
  writeFileSync(join(dir, "credentials"), credentials);
  writeFileSync(join(dir, "config"), config);
  return { HOME: dir, AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"), AWS_CONFIG_FILE: join(dir, "config") };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a failure");
}

describe("resolveBedrockAuth", () => {
  test("a real key is a Bedrock API key; the marker reads the environment", async () => {
    expect(await resolveBedrockAuth("br-key", { AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: SECRET })).toEqual({ kind: "bearer", token: "br-key", source: "API key" });
    expect(await resolveBedrockAuth("<authenticated>", { AWS_BEARER_TOKEN_BEDROCK: "tok", AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: SECRET })).toMatchObject({ kind: "bearer", token: "tok" });
    expect(await resolveBedrockAuth("<authenticated>", { AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: "T" })).toMatchObject({
      kind: "sigv4",
      credentials: { accessKeyId: "A", secretAccessKey: SECRET, sessionToken: "T" },
    });
    expect(await resolveBedrockAuth("<authenticated>", { AWS_BEDROCK_SKIP_AUTH: "1", AWS_BEARER_TOKEN_BEDROCK: "tok" })).toMatchObject({ kind: "sigv4", source: "AWS_BEDROCK_SKIP_AUTH" });
  });

  test("half a key pair names the missing variable", async () => {
    expect(await failure(resolveBedrockAuth("<authenticated>", { AWS_ACCESS_KEY_ID: "A", HOME: "/nonexistent" }))).toBe("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");
  });

  test("keys in the environment win over AWS_PROFILE's, whose region still counts", async () => {
    const env = { ...files("[work]\naws_access_key_id = P\naws_secret_access_key = other\n", "[profile work]\nregion = eu-north-1\n"), AWS_PROFILE: "work", AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: SECRET };
    expect(await resolveBedrockAuth("<authenticated>", env)).toMatchObject({ credentials: { accessKeyId: "A" }, profileRegion: "eu-north-1" });
  });

  test("the default profile is read without AWS_PROFILE; keys may live in the config file; comments and case are fine", async () => {
    const env = files("# no default here\n", "; config\n[default]\nregion = us-west-2\nAWS_ACCESS_KEY_ID = C\naws_secret_access_key = " + SECRET + "\n");
    expect(await resolveBedrockAuth("<authenticated>", env)).toMatchObject({ kind: "sigv4", credentials: { accessKeyId: "C", secretAccessKey: SECRET }, profileRegion: "us-west-2" });
  });

  test("a profile's credential_process is run and its JSON read", async () => {
    const json = JSON.stringify({ Version: 1, AccessKeyId: "P1", SecretAccessKey: SECRET, SessionToken: "S1" });
    const env = { ...files("", `[profile proc]\ncredential_process = printf '%s' '${json}'\n`), AWS_PROFILE: "proc" };
    expect(await resolveBedrockAuth("<authenticated>", env)).toMatchObject({ credentials: { accessKeyId: "P1", secretAccessKey: SECRET, sessionToken: "S1" } });
    const bad = { ...files("", "[profile proc]\ncredential_process = echo nope\n"), AWS_PROFILE: "proc" };
    expect(await failure(resolveBedrockAuth("<authenticated>", bad))).toBe(`the credential_process of profile "proc" (${bad.AWS_CONFIG_FILE}) did not print JSON`);
  });

  test("an SSO profile says pig does not support it and what to do instead", async () => {
    const env = { ...files("", "[profile sso]\nsso_session = corp\nregion = us-east-1\n"), AWS_PROFILE: "sso" };
    const message = await failure(resolveBedrockAuth("<authenticated>", env));
    expect(message).toStartWith(`Profile "sso" (${env.AWS_CONFIG_FILE}) uses sso_session, which pig does not support:`);
    expect(message).toContain("aws configure export-credentials");
  });

  test("a profile with only one of its keys names the file and the missing key", async () => {
    const env = { ...files(`[p]\naws_secret_access_key = ${SECRET}\n`), AWS_PROFILE: "p" };
    expect(await failure(resolveBedrockAuth("<authenticated>", env))).toBe(`Profile "p" in ${env.AWS_SHARED_CREDENTIALS_FILE} has no aws_access_key_id`);
  });

  test("a damaged credentials file names the file and line, not the line's text", async () => {
    const env = { ...files(`[p]\n${SECRET}\n`), AWS_PROFILE: "p" };
    const message = await failure(resolveBedrockAuth("<authenticated>", env));
    expect(message).toBe(`${env.AWS_SHARED_CREDENTIALS_FILE}:2: expected "[section]" or "key = value"`);
    expect(message).not.toContain(SECRET);
  });

  test("web identity and the container endpoint over plain http to another host are refused with what to set", async () => {
    expect(await failure(resolveBedrockAuth("<authenticated>", { HOME: "/nonexistent", AWS_WEB_IDENTITY_TOKEN_FILE: "/var/run/token" }))).toStartWith(
      "AWS_WEB_IDENTITY_TOKEN_FILE is set, but pig does not exchange web identity tokens (IRSA)",
    );
    expect(await failure(resolveBedrockAuth("<authenticated>", { HOME: "/nonexistent", AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://example.com/creds" }))).toBe(
      "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https or http to this machine or the container agent, not http://example.com",
    );
  });

  test("a container endpoint that fails is named with its status", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("no role", { status: 500 }) });
    try {
      const message = await failure(resolveBedrockAuth("<authenticated>", { HOME: "/nonexistent", AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${server.port}/c` }));
      expect(message).toBe(`the container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI, http://127.0.0.1:${server.port}) answered 500: no role`);
    } finally {
      await server.stop(true);
    }
  });
});
