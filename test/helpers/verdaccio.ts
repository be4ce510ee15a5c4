/**
 * A real npm registry for a test: Verdaccio (a dev dependency) on loopback, with its config,
 * storage and users in a private temp dir, no uplinks (nothing is fetched from the public
 * registry), publishing for a user the helper creates. `npmEnv` gives npm a userconfig, cache and
 * home of the test's own, never the user's.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { closedPort } from "./closed-port.ts";
import { tempDir } from "./tmp.ts";

const VERDACCIO = join(import.meta.dir, "..", "..", "node_modules", "verdaccio", "bin", "verdaccio");

export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** The environment every npm command of the test runs with: this registry and its token, a private cache and home. */
  npmEnv: Record<string, string>;
  /** Where npm's cache, home and config are. */
  dir: string;
  stop(): Promise<void>;
}

/**
 * Reads `stream` until `done` holds for what came so far (or it ends), then goes on reading in the
 * background and drops the rest, so the writer never blocks on a full pipe.
 */
async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean): Promise<{ text: string; ended: boolean }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) return { text, ended: true };
    text += decoder.decode(chunk.value, { stream: true });
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return { text, ended: false };
}

export async function startVerdaccio(): Promise<LocalRegistry> {
  const dir = tempDir("pig-verdaccio-");
  const port = closedPort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    unpublish: $authenticated",
      // A binary package is ~60 MB packed; Verdaccio's default limit is 10 MB.
      "max_body_size: 300mb",
      "log: { type: stdout, format: json, level: info }",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const proc = Bun.spawn(["node", VERDACCIO, "--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
  };
  // Verdaccio logs its address once it listens.
  const started = await readUntil(proc.stdout, (text) => text.includes(`"http address - ${url}`));
  if (started.ended) {
    await stop();
    const stderr = await new Response(proc.stderr).text();
    throw new Error(`Verdaccio did not start on ${url}:\n${started.text}${stderr}`);
  }
  void new Response(proc.stderr).text();
  try {
    const created = await fetch(`${url}-/user/org.couchdb.user:pig-release`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "pig-release", password: `pw-${crypto.randomUUID()}` }),
    });
    const body = (await created.json()) as { token?: string };
    if (!created.ok || !body.token) throw new Error(`creating a Verdaccio user: HTTP ${created.status} ${JSON.stringify(body)}`);
    const home = tempDir("pig-npm-home-");
    const userconfig = join(home, ".npmrc");
    writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${body.token}\n`, { mode: 0o600 });
    const npmEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      npm_config_userconfig: userconfig,
      npm_config_globalconfig: join(home, "no-global-npmrc"),
      npm_config_cache: join(home, "npm-cache"),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };
    return { url, npmEnv, dir: home, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
