/**
 * The SDK as programs use it: the examples in examples/sdk run against the fake server, and the
 * package works when another project installs it by path.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = join(import.meta.dir, "..", "..");
const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function runBun(args: string[], cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, ...args], { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

describe("examples/sdk", () => {
  test("basic.ts streams the answer", async () => {
    const w = await createWorld({ llm: { script: [{ text: "Hello from the fake model." }] } });
    worlds.push(w);
    const result = await runBun([join(ROOT, "examples/sdk/basic.ts"), "hi"], w.cwd, w.env);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("Hello from the fake model.\n");
  });

  test("custom-tool.ts: the model calls a tool defined with a valibot schema", async () => {
    const w = await createWorld({
      llm: { script: [{ toolCalls: [{ name: "weather", arguments: { city: "Lisbon" } }] }, { text: "Sunny in Lisbon." }] },
    });
    worlds.push(w);
    const result = await runBun([join(ROOT, "examples/sdk/custom-tool.ts")], w.cwd, w.env);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("Sunny in Lisbon.\ntool calls: 1\n");
    const tools = (w.llm.requests[0]!.body as { tools: { function: { name: string; parameters: unknown } }[] }).tools;
    expect(tools.map((t) => t.function.name)).toEqual(["weather"]);
    expect(tools[0]!.function.parameters).toMatchObject({ type: "object", required: ["city"] });
    const second = JSON.stringify(w.llm.requests[1]!.body);
    expect(second).toContain("It is sunny in Lisbon, 21 °C.");
  });

  test("with-extension.ts: an extension's tool runs in its own process and reports progress", async () => {
    const w = await createWorld({
      files: { "a.txt": "1\n2\n" },
      llm: { script: [{ toolCalls: [{ name: "count_lines", arguments: { paths: ["a.txt"] } }] }, { text: "Two lines." }] },
    });
    worlds.push(w);
    const result = await runBun([join(ROOT, "examples/sdk/with-extension.ts"), "a.txt"], w.cwd, w.env);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("progress: 1/1: a.txt\nTwo lines.\n");
    const tools = (w.llm.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
    expect(tools).toContain("count_lines");
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("a.txt: 2");
  });

  test("read-sessions.ts reads what a run wrote", async () => {
    const w = await createWorld({ llm: { mode: "text" } });
    worlds.push(w);
    await w.run(["-p", "remember me"]);
    const result = await runBun([join(ROOT, "examples/sdk/read-sessions.ts")], w.cwd, w.env);
    expect(result.stderr).toBe("");
    // The system message declaring the prompt and tools counts as a message, as in Pi 0.87.
    expect(result.stdout).toContain("3 messages, first: remember me");
    expect(result.stdout).toContain("- system\n- user\n- assistant\n");
  });
});

describe("createAgentSession", () => {
  test("setModel, then newSession: the new session runs on the model just chosen", async () => {
    const w = await createWorld({ llm: { mode: "text" } });
    worlds.push(w);
    const script = join(w.cwd, "switch.ts");
    writeFileSync(
      script,
      [
        `import { createAgentSession } from ${JSON.stringify(join(ROOT, "src/sdk.ts"))};`,
        "const pig = await createAgentSession();",
        "pig.setModel(\"fake\", \"fake-reasoner\");",
        "await pig.newSession();",
        "await pig.prompt(\"hello\");",
        "console.log(pig.getState().model?.id);",
        "pig.dispose();",
      ].join("\n"),
    );
    const result = await runBun([script], w.cwd, w.env);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("fake-reasoner\n");
    expect(w.llm.requests.map((r) => (r.body as { model: string }).model)).toEqual(["fake-reasoner"]);
  });
});

describe("createAgentSession({ piglet })", () => {
  test("the Piglet's model, tools and appended text reach the model; an unknown one is refused", async () => {
    const w = await createWorld({
      llm: { mode: "text" },
      agentFiles: { "piglets/reviewer.md": "---\nmodel: fake/fake-reasoner\ntools: [read, ls]\n---\nREVIEWER TEXT" },
    });
    worlds.push(w);
    const script = join(w.cwd, "piglet.ts");
    writeFileSync(
      script,
      [
        `import { createAgentSession } from ${JSON.stringify(join(ROOT, "src/sdk.ts"))};`,
        'const pig = await createAgentSession({ piglet: "reviewer", session: "memory" });',
        'await pig.prompt("hello");',
        "pig.dispose();",
        'await createAgentSession({ piglet: "nobody" }).catch((error) => console.log(error.message.split(";")[0]));',
      ].join("\n"),
    );
    const result = await runBun([script], w.cwd, w.env);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe('unknown Piglet "nobody"\n');
    const body = w.llm.requests[0]!.body as { model: string; messages: { content: unknown }[]; tools: { function: { name: string } }[] };
    expect(body.model).toBe("fake-reasoner");
    expect(body.tools.map((t) => t.function.name).sort()).toEqual(["ls", "read"]);
    expect(String(body.messages[0]!.content)).toContain("REVIEWER TEXT");
  });
});

describe("the package", () => {
  test("installs by path into another project and imports without the binary", async () => {
    const project = tempDir("pig-consumer-");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", type: "module" }));
    const install = Bun.spawnSync(["npm", "install", ROOT, "--no-audit", "--no-fund", "--offline"], { cwd: project, stdout: "pipe", stderr: "pipe" });
    expect(install.exitCode).toBe(0);
    mkdirSync(join(project, "src"));
    writeFileSync(
      join(project, "src", "main.ts"),
      [
        'import { SessionStore, buildContext, defineTool, createAgentSession } from "pig-coding-agent";',
        `const store = SessionStore.open(${JSON.stringify(join(ROOT, "test/fixtures/pi-0.73.1/01-basic-text.jsonl"))});`,
        "const entries = store.getBranch();",
        "console.log(buildContext(entries).messages.length, typeof defineTool, typeof createAgentSession);",
      ].join("\n"),
    );
    const result = await runBun(["src/main.ts"], project, { PATH: process.env.PATH ?? "" });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("2 function function\n");
  });
});
