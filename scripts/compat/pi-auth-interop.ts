// Does upstream Pi read the subscription logins pig writes? `pig login anthropic` signs in
// headless against the fake authorization server of the tests; Pi 0.87.1 is then given that
// auth.json as its own and asked (1) to list the anthropic models and (2) to answer one prompt
// against the fake model server. The request must carry pig's access token as a Claude Pro/Max
// login does: `Authorization: Bearer`, no x-api-key, Claude Code's identity. The other direction
// (pig reading Pi's file) is covered by test/e2e/wire-parity.test.ts, whose auth.json Pi wrote in
// the recordings' shape.
//   npm run build && node_modules/.bin/bun scripts/compat/pi-auth-interop.ts
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authorizeRedirect, FakeOAuth } from "../../test/helpers/fake-oauth.ts";
import { startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import { PigProcess } from "../../test/helpers/login-process.ts";
import { ensurePi, PI_QUIET_ENV, piEnv } from "../bench/pi-install.ts";

const pi = ensurePi("0.87.1");
const work = mkdtempSync(join(tmpdir(), "pig-auth-interop-"));
const oauth = new FakeOAuth();
const llm = await startFakeLlm({ script: [{ text: "pi read pig's login" }] });
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "PASS" : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

try {
  // 1. pig signs in, as on a headless machine: the URL on stderr, the code#state pasted.
  const pigDir = join(work, "pig-agent");
  mkdirSync(pigDir);
  const endpoints = join(work, "endpoints.json");
  writeFileSync(endpoints, JSON.stringify({ anthropic: oauth.overridesFor("anthropic") }));
  const login = new PigProcess(["login", "anthropic"], { env: { PATH: process.env.PATH, HOME: pigDir, PIG_CODING_AGENT_DIR: pigDir, PIG_OAUTH_ENDPOINTS: endpoints } });
  const [, url] = await login.waitForStderr(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m);
  await login.waitForStderr(/paste the redirect URL \(or the code\) here:/);
  const to = await authorizeRedirect(url!);
  login.write(`${to.searchParams.get("code")}#${to.searchParams.get("state")}\n`);
  check((await login.exited) === 0, "pig login anthropic stores a login");
  const stored = JSON.parse(readFileSync(join(pigDir, "auth.json"), "utf8")) as { anthropic: { access: string } };

  // 2. Pi gets that file as its own auth.json, and anthropic's base URL moved to the fake server.
  const piDir = join(work, "pi-agent");
  mkdirSync(piDir);
  copyFileSync(join(pigDir, "auth.json"), join(piDir, "auth.json"));
  writeFileSync(join(piDir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: llm.url } } }));
  const env = { ...piEnv(pi, piDir), ...PI_QUIET_ENV };
  const listed = Bun.spawnSync([...pi.cmd, "--list-models", "claude-sonnet-4-5"], { env, cwd: work, stdout: "pipe", stderr: "pipe" });
  check(listed.exitCode === 0 && /anthropic\s+claude-sonnet-4-5/.test(listed.stdout.toString()), "Pi lists the anthropic models with pig's login");

  const run = Bun.spawn([...pi.cmd, "-p", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "hi"], { env, cwd: work, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  check(code === 0 && out.trim() === "pi read pig's login", `Pi answers with pig's login (exit ${code}${err ? `: ${err.trim().slice(0, 300)}` : ""})`);
  const request = llm.requests[0];
  check(request?.headers.authorization === `Bearer ${stored.anthropic.access}`, "Pi's request carries pig's access token as a bearer token");
  check(request !== undefined && request.headers["x-api-key"] === undefined, "Pi's request sends no x-api-key");
  check(JSON.stringify(request?.body ?? {}).includes("You are Claude Code"), "Pi's request identifies as Claude Code, as for its own logins");
} finally {
  oauth.close();
  await llm.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(`${failures.length === 0 ? "all passed" : `${failures.length} failed`}`);
process.exit(failures.length === 0 ? 0 : 1);
