/**
 * Secrets: distinctive fake keys in the environment, auth.json and models.json (a literal, the
 * name of a variable, a `!command`, a header), and a subscription login's access and refresh
 * tokens in auth.json, renewed during the run (the renewed tokens are secrets too). pig runs in every mode, talks to providers that
 * accept the keys and to ones that refuse them by echoing the key back (as real APIs do), exports
 * HTML and JSONL, changes settings, runs `env` with the bash tool (also into a spill file, which
 * is searched while the session that made it is open), and loads an extension that writes down
 * its environment (into a file and its log) and the headers `before_provider_headers` shows it;
 * then every file pig wrote, every output and the body of every request are searched: no key is
 * anywhere.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { FakeOAuth } from "../helpers/fake-oauth.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";
import { TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { reportFigure } from "./figures.ts";

const SECRETS = {
  env: "pigsecret-env-5f3a91c2d7e4",
  literal: "pigsecret-literal-8b2e47f1a3c9",
  command: "pigsecret-command-c91d02e6f4a8",
  auth: "pigsecret-auth-2a7c5e9d18b3",
  header: "pigsecret-header-71f0c4d2e9a6",
  openai: "pigsecret-openai-4e8b20c7d1f5",
  token: "pigsecret-token-9d3e61a0b7c2",
  access: "sk-ant-oat01-pigsecret-access-3c81f0e27a54",
  refresh: "pigsecret-refresh-b6d94a2e0f17",
} as const;

/** Tokens handed out while the test runs (a renewed login's): searched for like SECRETS. */
const issued: string[] = [];

/** Writes what pig hands an extension — its environment, the request headers it is shown — into the project. */
const RECORDER = `
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
export default function (pi) {
  writeFileSync(join(process.cwd(), "extension-env.json"), JSON.stringify(process.env));
  // Its log too: what an extension prints to stderr is kept in pig's extension logs.
  console.error("extension environment: " + JSON.stringify(process.env));
  pi.on("before_provider_headers", (event, ctx) => {
    appendFileSync(join(ctx.cwd, "extension-headers.jsonl"), JSON.stringify(event.headers) + "\\n");
  });
}
`;

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
const terminals: TmuxSession[] = [];
const afterAllClose: (() => void)[] = [];
afterAll(async () => {
  for (const close of afterAllClose.splice(0)) close();
  for (const c of clients.splice(0)) c.kill();
  for (const t of terminals.splice(0)) t.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Where a secret occurs in `text`, by name. */
function leaks(text: string): string[] {
  const known = Object.entries(SECRETS).flatMap(([name, value]) => (text.includes(value) ? [name] : []));
  return [...known, ...issued.flatMap((token) => (text.includes(token) ? [`renewed login's ${token.startsWith("rt-") ? "refresh" : "access"} token`] : []))];
}

describeNeeding("tmux", tmuxAvailable(), "secrets", () => {
  test("no key reaches a session, a setting, an export, a temp file or the output of any mode", async () => {
    const w = await createWorld({ llm: { script: [] } });
    worlds.push(w);
    // The subscription login's server: it renews the stored (expired) login once.
    const oauth = new FakeOAuth({ accessToken: (n) => `sk-ant-oat01-pigsecret-renewed-${n}` });
    oauth.acceptRefresh(SECRETS.refresh);
    afterAllClose.push(() => oauth.close());
    const tmp = tempDir("pig-secrets-tmp-");
    const keyFile = join(tempDir("pig-secrets-key-"), "key");
    writeFileSync(keyFile, SECRETS.command);
    const provider = (apiKey: string | undefined, extra: Record<string, unknown> = {}) => ({
      baseUrl: `${w.llm.url}/v1`,
      api: "openai-completions",
      ...(apiKey !== undefined ? { apiKey } : {}),
      models: [{ id: "m", contextWindow: 128000 }],
      ...extra,
    });
    const modelsJson = JSON.stringify(
      {
        providers: {
          fromenv: provider("PIG_TEST_SECRET"),
          literal: provider(SECRETS.literal, { headers: { "x-extra-token": SECRETS.header } }),
          command: provider(`!cat ${keyFile}`),
          // The key itself is in auth.json, which comes first.
          fromauth: provider("PIG_TEST_UNSET_VARIABLE", { authHeader: true }),
          // A subscription login: its token is sent as Claude Code sends it.
          anthropic: { baseUrl: w.llm.url, api: "anthropic-messages", models: [{ id: "m", contextWindow: 128000 }] },
        },
      },
      null,
      2,
    );
    const login = { type: "oauth", access: SECRETS.access, refresh: SECRETS.refresh, expires: Date.now() - 1000 };
    const authJson = JSON.stringify({ fromauth: { type: "api_key", key: SECRETS.auth }, anthropic: login }, null, 2);
    const endpoints = join(tempDir("pig-secrets-oauth-"), "endpoints.json");
    writeFileSync(endpoints, JSON.stringify({ anthropic: oauth.overridesFor("anthropic") }));
    writeFileSync(join(w.agentDir, "models.json"), modelsJson);
    writeFileSync(join(w.agentDir, "auth.json"), authJson, { mode: 0o600 });
    writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ defaultProvider: "fromenv", defaultModel: "m", quietStartup: true }));
    const env = { ...w.env, PIG_TEST_SECRET: SECRETS.env, OPENAI_API_KEY: SECRETS.openai, GITHUB_TOKEN: SECRETS.token, TMPDIR: tmp, PIG_OAUTH_ENDPOINTS: endpoints };
    const recorder = join(tempDir("pig-secrets-ext-"), "recorder.ts");
    writeFileSync(recorder, RECORDER);
    const outputs: { what: string; text: string }[] = [];
    const run = async (what: string, args: string[]) => {
      const proc = Bun.spawn([pigBinary(), ...args], { cwd: w.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      outputs.push({ what, text: stdout + stderr });
      return { code: proc.exitCode, stdout, stderr };
    };
    // A provider refusing a key says which one it got, as OpenAI and others do.
    const refusal = (key: string) => ({ error: { status: 401, message: `Incorrect API key provided: ${key}. You can find your API key at https://example.invalid/keys.` } });
    const longOutput = { toolCalls: [{ name: "bash", arguments: { command: "seq 1 30000" } }] };

    // Print mode, each key: one run answered, one refused.
    for (const [name, key] of [["fromenv", SECRETS.env], ["literal", SECRETS.literal], ["command", SECRETS.command], ["fromauth", SECRETS.auth]] as const) {
      w.llm.setScript([longOutput, { text: `answer with ${name}` }, refusal(key)]);
      const ok = await run(`print ${name}`, ["-e", recorder, "--model", `${name}/m`, "-p", "run it"]);
      expect(ok.stderr).toBe("");
      expect(ok.code).toBe(0);
      expect((await run(`print ${name} refused`, ["--model", `${name}/m`, "-c", "-p", "again"])).code).toBe(3); // auth
    }
    // The subscription login: renewed before the first request (its new tokens are secrets
    // too), then refused by a provider that echoes the token it got.
    w.llm.setScript([longOutput, { text: "answer with the login" }, refusal("sk-ant-oat01-pigsecret-renewed-1")]);
    expect(await run("print login", ["-e", recorder, "--model", "anthropic/m", "-p", "run it"])).toMatchObject({ code: 0, stderr: "" });
    expect((await run("print login refused", ["--model", "anthropic/m", "-c", "-p", "again"])).code).toBe(3); // auth
    issued.push(...oauth.issuedTokens);
    expect(oauth.tokenCalls("refresh_token")).toHaveLength(1);
    expect(w.llm.requests.some((r) => r.headers.authorization === "Bearer sk-ant-oat01-pigsecret-renewed-1")).toBe(true);
    // What the model's commands see: `env` in the bash tool, its output in the session and the next request.
    w.llm.setScript([{ toolCalls: [{ name: "bash", arguments: { command: "env" } }] }, { text: "env listed" }]);
    expect((await run("print env", ["-e", recorder, "--model", "fromenv/m", "-p", "list the environment"])).code).toBe(0);
    expect(JSON.stringify(w.llm.requests.at(-1)!.body)).toContain(`TMPDIR=${tmp}`);
    // The extension wrote down its environment and the headers of every request it was shown.
    expect(JSON.parse(readFileSync(join(w.cwd, "extension-env.json"), "utf8")).TMPDIR).toBe(tmp);
    const shown = readFileSync(join(w.cwd, "extension-headers.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, string>);
    expect(shown.length).toBeGreaterThanOrEqual(9);
    expect(shown.some((h) => h["x-extra-token"] === "[redacted]")).toBe(true);
    expect(shown.some((h) => h.Authorization === "[redacted]")).toBe(true);

    // The literal key's header went out as configured (the secrets were used, not dropped).
    expect(w.llm.requests.some((r) => r.headers["x-extra-token"] === SECRETS.header)).toBe(true);
    expect(w.llm.requests.some((r) => r.headers.authorization === `Bearer ${SECRETS.command}`)).toBe(true);

    // JSON mode, refused mid-run, with retries on.
    w.llm.setScript([refusal(SECRETS.literal)]);
    await run("json refused", ["--model", "literal/m", "--mode", "json", "json please"]);

    // RPC: prompts on each provider, a model switch that is saved to settings, an HTML export.
    const client = new RpcClient({ cwd: w.cwd, env });
    clients.push(client);
    w.llm.setScript([{ text: "rpc one" }, refusal(SECRETS.auth), { text: "rpc two" }]);
    await client.promptAndWait("first over rpc");
    expect(await client.request({ type: "set_model", provider: "fromauth", modelId: "m" })).toMatchObject({ success: true });
    await client.promptAndWait("refused over rpc");
    expect(await client.request({ type: "set_model", provider: "literal", modelId: "m" })).toMatchObject({ success: true });
    await client.promptAndWait("second over rpc");
    // A long command's whole output goes to a spill file, which lives while its session does:
    // searched now, with the session open.
    w.llm.setScript([{ toolCalls: [{ name: "bash", arguments: { command: "env; seq 1 30000" } }] }, { text: "spilled" }]);
    await client.promptAndWait("spill the environment");
    const spills = filesUnder(tmp).filter((f) => /\/bash-[0-9a-f]+\.log$/.test(f));
    expect(spills.length).toBeGreaterThanOrEqual(1);
    expect(spills.some((f) => readFileSync(f, "utf8").includes(`TMPDIR=${tmp}`))).toBe(true);
    for (const file of spills) outputs.push({ what: `spill file ${relative(tmp, file)}`, text: readFileSync(file, "latin1") });
    const exported = await client.request({ type: "export_html", outputPath: join(w.cwd, "rpc.html") });
    expect(exported).toMatchObject({ success: true });
    const messages = await client.request({ type: "get_messages" });
    outputs.push({ what: "rpc", text: JSON.stringify(client.lines) + client.stderr.join("\n") + JSON.stringify(messages) });
    expect(await client.close()).toBe(0);

    // Interactive: a refused prompt, then both exports.
    w.llm.setScript([refusal(SECRETS.literal), { text: "interactive answer" }]);
    const tmux = TmuxSession.start({ command: [pigBinary(), "--model", "literal/m"], cwd: w.cwd, width: 200, height: 50, env: { ...env, TERM: "xterm-256color" } });
    terminals.push(tmux);
    await tmux.waitFor("›");
    tmux.type("interactive refused");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Incorrect API key provided/);
    tmux.type("interactive again");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/interactive answer[\s\S]*↑\d/);
    tmux.type("/export tui.html");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Exported to");
    tmux.type("/export tui.jsonl");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/Exported to [^\n]*tui\.jsonl/);
    outputs.push({ what: "interactive screen", text: tmux.capture() });

    // Every file pig wrote: the agent directory (but the two files that hold keys on purpose,
    // which must be as they were), the project, and the temp directory.
    // The extension's log holds what it printed, its environment among it.
    const logs = filesUnder(join(w.agentDir, "extensions", "logs"));
    expect(logs.some((f) => readFileSync(f, "utf8").includes(`"TMPDIR":"${tmp}"`))).toBe(true);
    expect(readFileSync(join(w.agentDir, "models.json"), "utf8")).toBe(modelsJson);
    // auth.json holds the key as it was and the renewed login (mode 0600 kept).
    const auth = JSON.parse(readFileSync(join(w.agentDir, "auth.json"), "utf8"));
    expect(auth.fromauth).toEqual({ type: "api_key", key: SECRETS.auth });
    expect(auth.anthropic.access).toBe("sk-ant-oat01-pigsecret-renewed-1");
    expect(statSync(join(w.agentDir, "auth.json")).mode & 0o777).toBe(0o600);
    const written = [...filesUnder(w.agentDir).filter((f) => !/\/(models|auth)\.json$/.test(f)), ...filesUnder(w.cwd), ...filesUnder(tmp)];
    const kinds = new Set(written.map((f) => (f.endsWith(".jsonl") ? "jsonl" : f.endsWith(".html") ? "html" : f.endsWith("settings.json") ? "settings" : "other")));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(["html", "jsonl", "settings"]));
    // The refusals were stored, with the key taken out of their text.
    const sessions = written.filter((f) => f.includes("/sessions/") && f.endsWith(".jsonl"));
    expect(sessions.some((f) => readFileSync(f, "utf8").includes("Incorrect API key provided: [redacted]."))).toBe(true);
    const found: string[] = [];
    for (const file of written) {
      if (statSync(file).size > 50 * 1024 * 1024) continue;
      for (const name of leaks(readFileSync(file, "latin1"))) found.push(`${relative("/", file)}: the ${name} key`);
    }
    // What reaches the model: every request's body (the keys belong in headers only).
    for (const request of w.llm.requests) outputs.push({ what: `request body to ${request.path}`, text: JSON.stringify(request.body) });
    for (const { what, text } of outputs) for (const name of leaks(text)) found.push(`${what} output: the ${name} key`);
    reportFigure({ fault: "secrets in files and output", cases: written.length + outputs.length, failures: found.length, note: `${written.length} files, ${outputs.length} outputs searched for ${Object.keys(SECRETS).length} keys` });
    expect(found).toEqual([]);
  }, 120_000);
});
