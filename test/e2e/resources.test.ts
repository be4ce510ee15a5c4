/**
 * A Pi user's configuration moved to ~/.pig/agent, and a project with its own .pig/ directory,
 * through the built binary: what reaches the model, what needs trust, and what is reported.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** A world whose agent dir looks like a Pi user's ~/.pi/agent and whose project has .pig/ resources. */
async function configuredWorld(): Promise<PigWorld> {
  const w = await createWorld({ llm: { mode: "text" } });
  worlds.push(w);
  write(join(w.agentDir, "AGENTS.md"), "Global rule: be brief.");
  write(join(w.agentDir, "skills", "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Write a changelog entry.\n---\nCHANGELOG SKILL BODY");
  write(join(w.agentDir, "prompts", "review.md"), "---\ndescription: Review a file\n---\nReview $1 carefully, focusing on ${@:2}.");
  write(join(w.cwd, "AGENTS.md"), "Project rule: tabs.");
  write(join(w.cwd, ".pig", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploy the app.\n---\nDEPLOY BODY");
  write(join(w.cwd, ".pig", "APPEND_SYSTEM.md"), "PROJECT APPEND");
  return w;
}

function systemPrompt(w: PigWorld, index = 0): string {
  return (w.llm.requests[index]!.body as { messages: { content: string }[] }).messages[0]!.content;
}

function userText(w: PigWorld, index = 0): string {
  const messages = (w.llm.requests[index]!.body as { messages: { role: string; content: { text: string }[] }[] }).messages;
  return messages.filter((m) => m.role === "user").at(-1)!.content[0]!.text;
}

describe("a Pi user's setup", () => {
  test("context files, user skills and the date reach the system prompt; skill bodies do not", async () => {
    const w = await configuredWorld();
    const result = await w.run(["--no-trust", "-p", "hi"]);
    expect(result.code).toBe(0);
    const prompt = systemPrompt(w);
    expect(prompt.indexOf("Global rule: be brief.")).toBeLessThan(prompt.indexOf("Project rule: tabs."));
    expect(prompt).toContain("<name>changelog</name>");
    expect(prompt).not.toContain("CHANGELOG SKILL BODY");
    // Untrusted: the project's skill and APPEND_SYSTEM.md stay out.
    expect(prompt).not.toContain("deploy");
    expect(prompt).not.toContain("PROJECT APPEND");
  });

  test("/skill:name sends the skill's body, /template expands its arguments", async () => {
    const w = await configuredWorld();
    await w.run(["--no-trust", "-p", "/skill:changelog for 1.2"]);
    const skill = userText(w);
    expect(skill).toStartWith('<skill name="changelog" location="');
    expect(skill).toContain("CHANGELOG SKILL BODY");
    expect(skill).toEndWith("</skill>\n\nfor 1.2");
    await w.run(["--no-trust", "-p", '/review src/app.ts "error handling" tests']);
    expect(userText(w, 1)).toBe("Review src/app.ts carefully, focusing on error handling tests.");
  });
});

describe("a whole ~/.pi/agent copied over", () => {
  test("Pi-era settings, auth.json, keybindings and a theme: no warnings, the stored key and the migrated keys in force", async () => {
    const w = await configuredWorld();
    // A key stored in auth.json (as Pi's /login leaves it) wins over the one models.json names.
    const models = JSON.parse(readFileSync(join(w.agentDir, "models.json"), "utf8"));
    models.providers.fake.apiKey = "FAKE_PROVIDER_KEY";
    write(join(w.agentDir, "models.json"), JSON.stringify(models, null, 2));
    write(join(w.agentDir, "auth.json"), JSON.stringify({ fake: { type: "api_key", key: "sk-from-auth" } }));
    write(
      join(w.agentDir, "settings.json"),
      JSON.stringify({
        defaultProvider: "fake",
        defaultModel: "fake-reasoner",
        defaultThinkingLevel: "high",
        queueMode: "all",
        retry: { enabled: true, maxDelayMs: 1234 },
        skills: { enableSkillCommands: true, customDirectories: [] },
        hideThinkingBlock: true,
        theme: "midnight",
        quietStartup: true,
        lastChangelogVersion: "0.73.1",
        packages: [],
      }),
    );
    write(join(w.agentDir, "keybindings.json"), JSON.stringify({ "app.model.cycleForward": "ctrl+p", "tui.input.newLine": "shift+enter", expandTools: "ctrl+o" }));
    write(join(w.agentDir, "themes", "midnight.json"), JSON.stringify({ name: "midnight", vars: { ink: "#101020" }, colors: { accent: "ink" } }));

    const printed = await w.run(["--no-trust", "-p", "hi"]);
    expect({ code: printed.code, stderr: printed.stderr }).toEqual({ code: 0, stderr: "" });
    const request = w.llm.requests[0]!;
    expect(request.headers.authorization).toBe("Bearer sk-from-auth");
    expect(request.body).toMatchObject({ model: "fake-reasoner" });
    expect(systemPrompt(w)).toContain("Global rule: be brief.");

    const rpc = await w.run(["--no-trust", "--mode", "rpc"], { stdin: `${JSON.stringify({ type: "get_state", id: "s" })}\n` });
    const state = rpc.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.id === "s");
    expect(state.data).toMatchObject({ thinkingLevel: "high", steeringMode: "all", model: { id: "fake-reasoner" } });
    // Migrations happen when the file is read; the file itself is left as the user wrote it.
    expect(JSON.parse(readFileSync(join(w.agentDir, "settings.json"), "utf8")).queueMode).toBe("all");
  });
});

describe("trust", () => {
  test("without a decision, print mode skips project resources and says so on stderr", async () => {
    const w = await configuredWorld();
    const result = await w.run(["-p", "hi"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("has not been trusted yet");
    expect(result.stderr).toContain("--trust");
    expect(systemPrompt(w)).not.toContain("PROJECT APPEND");
    expect(existsSync(join(w.agentDir, "trust.json"))).toBe(false);
  });

  test("--trust loads them for this run without remembering", async () => {
    const w = await configuredWorld();
    const result = await w.run(["--trust", "-p", "hi"]);
    expect(result.stderr).toBe("");
    const prompt = systemPrompt(w);
    expect(prompt).toContain("PROJECT APPEND");
    expect(prompt).toContain("<name>deploy</name>");
    expect(existsSync(join(w.agentDir, "trust.json"))).toBe(false);
  });

  test("a remembered decision is used", async () => {
    const w = await configuredWorld();
    writeFileSync(
      join(w.agentDir, "trust.json"),
      JSON.stringify({ version: 1, projects: { [w.cwd]: { trusted: true, decidedAt: "2026-11-30T00:00:00.000Z" } } }),
    );
    const result = await w.run(["-p", "hi"]);
    expect(result.stderr).toBe("");
    expect(systemPrompt(w)).toContain("PROJECT APPEND");
  });
});

describe("settings and reporting", () => {
  test("an invalid settings file is named with its line and column and left untouched", async () => {
    const w = await configuredWorld();
    const path = join(w.agentDir, "settings.json");
    const broken = '{\n  "defaultProvider": "fake",\n  "defaultModel": "fake-model"\n  "quietStartup": true\n}\n';
    writeFileSync(path, broken);
    const result = await w.run(["--no-trust", "--model", "fake/fake-model", "-p", "hi"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(path);
    expect(result.stderr).toMatch(/line 4, column 3/);
    expect(readFileSync(path, "utf8")).toBe(broken);
  });

  test("a wrong-typed setting names the key", async () => {
    const w = await configuredWorld();
    writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", retry: { enabled: "yes" } }));
    const result = await w.run(["--no-trust", "--model", "fake/fake-model", "-p", "hi"]);
    expect(result.stderr).toContain("retry.enabled");
  });

  test("--verbose prints what was loaded", async () => {
    const w = await configuredWorld();
    const result = await w.run(["--trust", "--verbose", "-p", "hi"]);
    expect(result.stderr).toContain("AGENTS.md");
    expect(result.stderr).toContain("changelog");
    expect(result.stderr).toContain("deploy");
    expect(result.stderr).toContain("review");
  });
});
