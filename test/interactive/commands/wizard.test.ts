import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModelRegistry } from "../../../src/ai/registry.ts";
import { localFetch, runFirstRunWizard, type WizardDeps } from "../../../src/modes/interactive/wizard.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { FakeHost, FakeSubscriptions, makeRuntime } from "./fake-host.ts";
import { LoginCancelled } from "../../../src/ai/oauth/types.ts";
import { stripAnsi } from "../../../src/util/width.ts";

/**
 * A fetch answering from a table of URL → JSON body: another path of a server in the table is
 * 404, any other server "connection refused".
 */
function fakeFetch(table: Record<string, unknown>, seen: string[] = []): NonNullable<WizardDeps["fetch"]> {
  return async (url) => {
    seen.push(url);
    if (url in table) return Response.json(table[url]);
    if (Object.keys(table).some((known) => new URL(known).origin === new URL(url).origin)) return new Response("not found", { status: 404 });
    throw Object.assign(new Error("ECONNREFUSED: Unable to connect"), { code: "ECONNREFUSED" });
  };
}

function wizard(table: Record<string, unknown> = {}, seen: string[] = []) {
  const host = new FakeHost(makeRuntime());
  const agentDir = tempDir();
  const deps: WizardDeps = {
    ask: (m, c) => host.ask(m, c),
    pick: (m, o, c) => host.pick(m, o, c),
    confirm: (m, i) => host.confirm(m, i),
    print: (t) => host.print(t),
    agentDir,
    fetch: fakeFetch(table, seen),
  };
  return { host, agentDir, deps };
}

const OLLAMA_TAGS = "http://127.0.0.1:11434/api/tags";
const LMSTUDIO_MODELS = "http://127.0.0.1:1234/v1/models";

describe("first-run wizard", () => {
  test("a cloud provider: the key goes to auth.json (0600) and the default model is proposed", async () => {
    const seen: string[] = [];
    const { host, agentDir, deps } = wizard({}, seen);
    host.pickAnswers = [{ label: "OpenAI" }, { label: "gpt-5.4" }];
    host.askAnswers = ["sk-test"];
    const result = await runFirstRunWizard(deps);
    expect(result).toEqual({ provider: "openai", model: "gpt-5.4" });
    expect(host.asks[0]!.config?.mask).toBe(true);
    expect(host.picks[1]!.config?.initial).toBe("gpt-5.5");
    const authPath = join(agentDir, "auth.json");
    expect(JSON.parse(readFileSync(authPath, "utf8"))).toEqual({ openai: { type: "api_key", key: "sk-test" } });
    expect(statSync(authPath).mode & 0o777).toBe(0o600);
    // Only the two loopback servers were probed.
    expect(seen.sort()).toEqual([OLLAMA_TAGS, LMSTUDIO_MODELS].sort());
  });

  test("no local server running: only the cloud providers and a custom URL are offered", async () => {
    const { host, deps } = wizard();
    host.pickAnswers = ["cancel"];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    const labels = host.picks[0]!.options.map((o) => o.label);
    expect(labels).toEqual(["Anthropic (Claude)", "OpenAI", "OpenRouter (many vendors, one key)", "Google (Gemini)", "Groq", "Another OpenAI-compatible server (URL)…"]);
  });

  test("an empty key goes back to the provider list", async () => {
    const { host, agentDir, deps } = wizard();
    host.pickAnswers = [{ label: "Groq" }, "cancel"];
    host.askAnswers = [""];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    expect(host.picks).toHaveLength(2);
    expect(() => readFileSync(join(agentDir, "auth.json"))).toThrow();
  });

  test("a broken auth.json is reported, not overwritten", async () => {
    const { host, agentDir, deps } = wizard();
    writeFileSync(join(agentDir, "auth.json"), "{ broken");
    host.pickAnswers = [{ label: "Anthropic" }];
    host.askAnswers = ["key"];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    expect(host.text).toContain("Could not save the key");
    expect(readFileSync(join(agentDir, "auth.json"), "utf8")).toBe("{ broken");
  });

  test("a running Ollama becomes a models.json provider the registry can use", async () => {
    const { host, agentDir, deps } = wizard({ [OLLAMA_TAGS]: { models: [{ name: "llama3.2:latest" }, { name: "qwen3:8b" }] } });
    host.pickAnswers = [{ label: "Ollama on this machine" }, { label: "qwen3:8b" }];
    const result = await runFirstRunWizard(deps);
    expect(host.picks[0]!.options.find((o) => o.label.startsWith("Ollama"))!.hint).toBe("2 models");
    expect(result).toEqual({ provider: "ollama", model: "qwen3:8b" });
    const registry = new ModelRegistry({ agentDir, env: {} });
    expect(registry.problems).toEqual([]);
    const model = registry.find("ollama", "qwen3:8b")!;
    expect(model.baseUrl).toBe("http://127.0.0.1:11434/v1");
    expect(registry.hasKey("ollama")).toBe(true);
  });

  test("LM Studio with no models loaded says so and goes back", async () => {
    const { host, deps } = wizard({ [LMSTUDIO_MODELS]: { data: [] } });
    host.pickAnswers = [{ label: "LM Studio" }, "cancel"];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    expect(host.text).toContain("no models yet");
  });

  test("an existing models.json keeps its comments and other providers", async () => {
    const { host, agentDir, deps } = wizard({ [LMSTUDIO_MODELS]: { data: [{ id: "gemma" }] } });
    const path = join(agentDir, "models.json");
    writeFileSync(path, '{\n  // my proxy\n  "providers": {\n    "proxy": { "baseUrl": "http://p", "api": "openai-completions", "apiKey": "X", "models": [{ "id": "a" }] },\n  },\n}\n');
    host.pickAnswers = [{ label: "LM Studio" }];
    expect(await runFirstRunWizard(deps)).toEqual({ provider: "lmstudio", model: "gemma" });
    const text = readFileSync(path, "utf8");
    expect(text).toContain("// my proxy");
    const registry = new ModelRegistry({ agentDir, env: {} });
    expect(registry.find("proxy", "a")).toBeDefined();
    expect(registry.find("lmstudio", "gemma")).toBeDefined();
  });

  test("a models.json that does not parse is left alone and the entry is shown instead", async () => {
    const { host, agentDir, deps } = wizard({ [OLLAMA_TAGS]: { models: [{ name: "llama" }] } });
    const path = join(agentDir, "models.json");
    writeFileSync(path, "{ providers: ");
    host.pickAnswers = [{ label: "Ollama" }];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe("{ providers: ");
    expect(host.text).toContain("left it unchanged");
    expect(host.text).toContain('"ollama"');
  });

  test("a models.json that parses but has a mistake is left byte for byte, the mistake named", async () => {
    const { host, agentDir, deps } = wizard({ [OLLAMA_TAGS]: { models: [{ name: "llama" }] } });
    const path = join(agentDir, "models.json");
    const before = '{\n  "providers": {\n    "mine": { "baseUrl": "http://m", "api": "openai-completions", "apiKey": "k", "models": [{ "id": 5 }] }\n  }\n}\n';
    writeFileSync(path, before);
    host.pickAnswers = [{ label: "Ollama" }];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(host.text).toContain('"providers.mine.models.0.id" (line 3, column 101) must be a string, not 5');
    expect(host.text).toContain("pig left the file unchanged");
  });

  test("replacing a provider of the same name needs a confirmation", async () => {
    const { host, agentDir, deps } = wizard({ [OLLAMA_TAGS]: { models: [{ name: "llama" }] } });
    const path = join(agentDir, "models.json");
    const before = JSON.stringify({ providers: { ollama: { baseUrl: "http://elsewhere/v1", api: "openai-completions", apiKey: "k", models: [{ id: "old" }] } } });
    writeFileSync(path, before);
    host.pickAnswers = [{ label: "Ollama" }];
    host.confirmAnswers = [false];
    expect(await runFirstRunWizard(deps)).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  test("a custom URL: models listed under /v1, the key in auth.json, models.json naming the variable", async () => {
    const seen: string[] = [];
    const { host, agentDir, deps } = wizard({ "http://10.0.0.5:8000/v1/models": { data: [{ id: "big" }] } }, seen);
    host.pickAnswers = [{ label: "Another OpenAI-compatible" }];
    host.askAnswers = ["http://10.0.0.5:8000/", "lab", "secret"];
    expect(await runFirstRunWizard(deps)).toEqual({ provider: "lab", model: "big" });
    const registry = new ModelRegistry({ agentDir, env: {} });
    const model = registry.find("lab", "big")!;
    expect(model.baseUrl).toBe("http://10.0.0.5:8000/v1");
    expect(registry.apiKey(model)).toBe("secret");
    expect(readFileSync(join(agentDir, "models.json"), "utf8")).not.toContain("secret");
    expect(seen).toContain("http://10.0.0.5:8000/models");
  });

  test("a custom URL that answers but lists nothing asks for the model id; built-in provider names are refused", async () => {
    const { host, agentDir, deps } = wizard({ "http://localhost:9999/v1/models": { object: "list" } });
    host.pickAnswers = [{ label: "Another OpenAI-compatible" }];
    host.askAnswers = ["http://localhost:9999/v1", "openai", "mine", "", "my-model"];
    expect(await runFirstRunWizard(deps)).toEqual({ provider: "mine", model: "my-model" });
    expect(host.text).toContain('"openai" is a built-in provider');
    const registry = new ModelRegistry({ agentDir, env: {} });
    expect(registry.find("mine", "my-model")?.baseUrl).toBe("http://localhost:9999/v1");
  });
});

describe("first-run wizard: a server that cannot be reached", () => {
  /** A fetch failing as the network does: `code` on the error, as Bun and node:http set it. */
  function failing(code: string, name = "TypeError"): NonNullable<WizardDeps["fetch"]> {
    return async () => {
      throw Object.assign(new Error(`${code}: failed`), { code, name });
    };
  }

  for (const [code, words] of [
    ["ECONNREFUSED", "nothing is listening there (connection refused)"],
    ["ENOTFOUND", "the host name was not found (DNS)"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "the secure connection failed (TLS: DEPTH_ZERO_SELF_SIGNED_CERT)"],
  ] as const) {
    test(`${code}: says it could not connect and why, never "did not list any models"`, async () => {
      const { host, deps } = wizard();
      deps.fetch = failing(code);
      host.pickAnswers = [{ label: "Another OpenAI-compatible" }, { label: "Back to the providers" }, "cancel"];
      host.askAnswers = ["http://10.0.0.5:8000/v1", "lab", ""];
      expect(await runFirstRunWizard(deps)).toBeUndefined();
      expect(host.text).toContain(`Could not connect to http://10.0.0.5:8000/v1: ${words}.`);
      expect(host.text).not.toContain("did not list any models");
      // No model id was asked for: there is nothing to check it against.
      expect(host.asks.map((a) => a.message)).not.toContain("Model id to use");
    });
  }

  test("a timeout is named as one", async () => {
    const { host, deps } = wizard();
    deps.fetch = failing("ABORT_ERR", "TimeoutError");
    host.pickAnswers = [{ label: "Another OpenAI-compatible" }, { label: "Back to the providers" }, "cancel"];
    host.askAnswers = ["http://10.0.0.5:8000/v1", "lab", ""];
    await runFirstRunWizard(deps);
    expect(host.text).toContain("Could not connect to http://10.0.0.5:8000/v1: it did not answer in time.");
  });

  test("changing the URL asks it again (the old one offered) and goes on with the new one", async () => {
    const { host, agentDir, deps } = wizard({ "http://127.0.0.1:8001/v1/models": { data: [{ id: "qwen" }] } });
    host.pickAnswers = [{ label: "Another OpenAI-compatible" }, { label: "Change the URL" }];
    host.askAnswers = ["http://127.0.0.1:8000/v1", "local", "", "http://127.0.0.1:8001/v1"];
    expect(await runFirstRunWizard(deps)).toEqual({ provider: "local", model: "qwen" });
    expect(host.asks[3]!.config?.initial).toBe("http://127.0.0.1:8000/v1");
    const registry = new ModelRegistry({ agentDir, env: {} });
    expect(registry.find("local", "qwen")?.baseUrl).toBe("http://127.0.0.1:8001/v1");
  });
});

describe("probing this machine", () => {
  test("loopback requests go out directly even when HTTP_PROXY is set", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ data: [{ id: "direct" }] }) });
    const proxy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ data: [{ id: "proxied" }] }) });
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy.port}`;
    try {
      const response = await localFetch(`http://127.0.0.1:${server.port}/v1/models`, { signal: AbortSignal.timeout(10_000) });
      expect(await response.json()).toEqual({ data: [{ id: "direct" }] });
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
      server.stop(true);
      proxy.stop(true);
    }
  });

  test("a server that does not answer in time is given up on", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
    try {
      const started = Date.now();
      await expect(localFetch(`http://127.0.0.1:${server.port}/`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
      // The server never answers: without the give-up this would wait until the test times out.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      server.stop(true);
    }
  });
});

describe("first-run wizard: signing in with an account", () => {
  function withAccounts() {
    const w = wizard();
    const subscriptions = new FakeSubscriptions();
    subscriptions.logins = [{ provider: "anthropic", name: "Claude Pro/Max", flow: "browser" }];
    const cancels: AbortController[] = [];
    w.deps.subscriptions = subscriptions;
    w.deps.cancellable = async (run) => {
      const cancel = new AbortController();
      cancels.push(cancel);
      return run(cancel);
    };
    return { ...w, subscriptions, cancels };
  }

  test("offered first; after the sign-in the provider's recommended model is proposed and the session starts on it", async () => {
    const { host, agentDir, deps, subscriptions } = withAccounts();
    subscriptions.flow = async (provider, io, authPath) => {
      io.tell({ kind: "device_code", userCode: "WXYZ-0001", verificationUri: "https://example.test/device" });
      writeFileSync(authPath, JSON.stringify({ [provider]: { type: "oauth", access: "tok-0123456789", refresh: "rt-0123456789" } }));
    };
    host.pickAnswers = [{ label: "Sign in with an account" }, { label: "Claude Pro/Max" }, { value: "claude-sonnet-4-5" }];
    const result = await runFirstRunWizard(deps);
    expect(result).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(host.picks[0]!.options[0]).toMatchObject({ label: "Sign in with an account (subscription)…", hint: "Claude Pro/Max" });
    // Coloured where picocolors decides to colour (CI=true turns it on): compare the plain text.
    expect(stripAnsi(host.text)).toContain("│  WXYZ-0001  │");
    expect(stripAnsi(host.text)).toContain(`Signed in to Claude Pro/Max; saved in ${join(agentDir, "auth.json")}.`);
    expect(host.picks[2]!.config?.initial).toBeDefined();
  });

  test("a cancelled or failed sign-in goes back to the list, nothing stored", async () => {
    const { host, agentDir, deps, subscriptions, cancels } = withAccounts();
    subscriptions.flow = async (_provider, io) => {
      await new Promise<void>((resolve) => io.signal.addEventListener("abort", () => resolve(), { once: true }));
      throw new LoginCancelled();
    };
    host.pickAnswers = [{ label: "Sign in with an account" }, { label: "Claude Pro/Max" }, { label: "Sign in with an account" }, { label: "Claude Pro/Max" }, "cancel"];
    const running = runFirstRunWizard(deps);
    while (cancels.length === 0) await Bun.sleep(1);
    cancels[0]!.abort();
    // The second try fails at once.
    subscriptions.flow = async () => {
      throw new Error("The token endpoint answered HTTP 500: upstream down");
    };
    expect(await running).toBeUndefined();
    expect(host.text).toContain("Sign-in to Claude Pro/Max cancelled; nothing was stored.");
    expect(host.text).toContain("Could not sign in to Claude Pro/Max (anthropic): The token endpoint answered HTTP 500: upstream down");
    expect(() => readFileSync(join(agentDir, "auth.json"))).toThrow();
  });
});
