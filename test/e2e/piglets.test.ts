/**
 * Piglets through the built binary: `--piglet` in print, json and RPC mode (what reaches the
 * model), flags that win over it, the trust gate for a project's Piglets, `pig piglets list`,
 * and a session that restores its Piglet on `--continue`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const EXAMPLES = join(import.meta.dir, "..", "..", "examples", "piglets");
const REVIEWER = readFileSync(join(EXAMPLES, "reviewer.md"), "utf8");
const RELEASE = readFileSync(join(EXAMPLES, "release-helper.json"), "utf8");

const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(files: Record<string, string> = {}): Promise<PigWorld> {
  const w = await createWorld({
    llm: { mode: "text" },
    agentFiles: { "piglets/reviewer.md": REVIEWER.replace("thinking: high", "model: fake/fake-reasoner\nthinking: high"), "piglets/release-helper.json": RELEASE },
    files,
  });
  worlds.push(w);
  return w;
}

interface Body {
  model: string;
  reasoning_effort?: string;
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

function body(w: PigWorld, index = 0): Body {
  return w.llm.requests[index]!.body as Body;
}
const systemPrompt = (b: Body) => String(b.messages[0]!.content);
const toolNames = (b: Body) => (b.tools ?? []).map((t) => t.function.name).sort();

describe("--piglet", () => {
  test("-p: the Piglet's model, thinking, tools and appended text reach the model", async () => {
    const w = await world();
    const result = await w.run(["--piglet", "reviewer", "-p", "look at it"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const b = body(w);
    expect(b.model).toBe("fake-reasoner");
    expect(b.reasoning_effort).toBe("high");
    expect(toolNames(b)).toEqual(["find", "grep", "ls", "read"]);
    expect(systemPrompt(b)).toContain("You are a code reviewer.");
  });

  test("flags given win over the Piglet's choices", async () => {
    const w = await world();
    const result = await w.run(["--piglet", "reviewer", "--model", "fake/fake-model", "--tools", "bash", "--verbose", "-p", "hi"]);
    expect(result.code).toBe(0);
    // The startup report names the Piglet and its file.
    expect(result.stderr).toMatch(/piglet\s+reviewer \S*reviewer\.md/);
    expect(body(w).model).toBe("fake-model");
    expect(toolNames(body(w))).toEqual(["bash"]);
    expect(systemPrompt(body(w))).toContain("You are a code reviewer.");
  });

  test("--mode json and a JSON Piglet", async () => {
    const w = await world();
    const result = await w.run(["--piglet", "release-helper", "--mode", "json", "hi"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"type":"agent_end"');
    expect(toolNames(body(w))).toEqual(["bash", "edit", "read"]);
    expect(systemPrompt(body(w))).toContain("You help cut releases.");
  });

  test("--mode rpc", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["--piglet", "reviewer"] });
    clients.push(client);
    await client.promptAndWait("hi");
    expect(body(w).model).toBe("fake-reasoner");
    expect(systemPrompt(body(w))).toContain("You are a code reviewer.");
    expect(await client.close()).toBe(0);
  });

  test("RPC set_piglet switches model, tools and prompt for the next request; get_piglets lists them", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env });
    clients.push(client);
    expect(await client.request({ type: "get_piglets" })).toMatchObject({ success: true, data: { current: null, piglets: [{ name: "release-helper" }, { name: "reviewer" }] } });
    const set = await client.request({ type: "set_piglet", name: "reviewer" });
    expect(set).toMatchObject({ success: true, data: { name: "reviewer", model: "fake/fake-reasoner", thinking: "high", tools: ["read", "grep", "find", "ls"], needsRestart: [] } });
    await client.promptAndWait("hi");
    expect(body(w).model).toBe("fake-reasoner");
    expect(toolNames(body(w))).toEqual(["find", "grep", "ls", "read"]);
    expect(systemPrompt(body(w))).toContain("You are a code reviewer.");
    const other = await client.request({ type: "set_piglet", name: "release-helper" });
    expect(other).toMatchObject({ success: true, data: { tools: ["read", "bash", "edit"] } });
    await client.promptAndWait("again");
    expect(toolNames(body(w, 1))).toEqual(["bash", "edit", "read"]);
    expect(systemPrompt(body(w, 1))).toContain("You help cut releases.");
    expect(systemPrompt(body(w, 1))).not.toContain("You are a code reviewer.");
    const unknown = await client.request({ type: "set_piglet", name: "nobody" });
    expect(unknown).toMatchObject({ success: false });
    expect(String(unknown.error)).toContain('unknown Piglet "nobody"; the Piglets there are: release-helper, reviewer');
    expect(await client.close()).toBe(0);
  });

  test("RPC: a new session keeps the Piglet; switching back to a session brings back the Piglet it recorded", async () => {
    const w = await world();
    const client = new RpcClient({ cwd: w.cwd, env: w.env, args: ["--piglet", "reviewer"] });
    clients.push(client);
    await client.promptAndWait("first");
    const first = (await client.request({ type: "get_state" })).data as { sessionFile: string };
    expect(await client.request({ type: "new_session" })).toMatchObject({ success: true, data: { cancelled: false } });
    const entries = (await client.request({ type: "get_entries" })).data as { entries: { type: string; customType?: string; data?: unknown }[] };
    expect(entries.entries.filter((e) => e.type === "custom")).toMatchObject([{ customType: "pig.piglet", data: { name: "reviewer" } }]);
    expect(await client.request({ type: "set_piglet", name: "release-helper" })).toMatchObject({ success: true });
    await client.promptAndWait("second");
    expect(toolNames(body(w, 1))).toEqual(["bash", "edit", "read"]);
    expect(await client.request({ type: "switch_session", sessionPath: first.sessionFile })).toMatchObject({ success: true, data: { cancelled: false } });
    expect(await client.request({ type: "get_piglets" })).toMatchObject({ data: { current: "reviewer" } });
    await client.promptAndWait("third");
    expect(toolNames(body(w, 2))).toEqual(["find", "grep", "ls", "read"]);
    expect(systemPrompt(body(w, 2))).toContain("You are a code reviewer.");
    expect(await client.close()).toBe(0);
  });

  test("an unknown name lists the Piglets there are; a bad file names its line and field", async () => {
    const w = await world();
    const unknown = await w.run(["--piglet", "nobody", "-p", "hi"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('pig: unknown Piglet "nobody"; the Piglets there are: release-helper, reviewer');
    writeFileSync(join(w.agentDir, "piglets", "broken.md"), "---\ndescription: x\ntools: 5\n---\n");
    const broken = await w.run(["--piglet", "broken", "-p", "hi"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${join(w.agentDir, "piglets", "broken.md")}:3: field "tools": must be a list of names`);
    writeFileSync(join(w.agentDir, "piglets", "lost.md"), "---\ndescription: x\nmodel: no-such-model-anywhere\n---\n");
    const lost = await w.run(["--piglet", "lost", "-p", "hi"]);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain(`${join(w.agentDir, "piglets", "lost.md")}:3: field "model": `);
    expect(w.llm.requests.length).toBe(0);
  });

  test("--continue restores the session's Piglet (its tools and prompt; the model the session's own)", async () => {
    const w = await world();
    expect((await w.run(["--piglet", "reviewer", "-p", "first"])).code).toBe(0);
    const dir = join(w.agentDir, "sessions");
    const file = readdirSync(dir, { recursive: true }).map(String).find((f) => f.endsWith(".jsonl"))!;
    const lines = readFileSync(join(dir, file), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === "custom")).toMatchObject([{ customType: "pig.piglet", data: { name: "reviewer" } }]);
    expect((await w.run(["-c", "-p", "second"])).code).toBe(0);
    const again = body(w, 1);
    expect(again.model).toBe("fake-reasoner");
    expect(toolNames(again)).toEqual(["find", "grep", "ls", "read"]);
    expect(systemPrompt(again)).toContain("You are a code reviewer.");
  });
});

describe("a project's Piglets", () => {
  const project = { ".pig/piglets/reviewer.md": "---\ndescription: the project's reviewer\ntools: [read]\n---\nPROJECT REVIEWER" };

  test("override the user's of the same name when the project is trusted", async () => {
    const w = await world(project);
    expect((await w.run(["--trust", "--piglet", "reviewer", "-p", "hi"])).code).toBe(0);
    expect(toolNames(body(w))).toEqual(["read"]);
    expect(systemPrompt(body(w))).toContain("PROJECT REVIEWER");
  });

  test("are not read in an untrusted project", async () => {
    const w = await world({ ...project, ".pig/piglets/local.md": "---\ndescription: local\n---\nLOCAL" });
    expect((await w.run(["--no-trust", "--piglet", "reviewer", "-p", "hi"])).code).toBe(0);
    expect(systemPrompt(body(w))).toContain("You are a code reviewer.");
    expect(systemPrompt(body(w))).not.toContain("PROJECT REVIEWER");
    const local = await w.run(["--no-trust", "--piglet", "local", "-p", "hi"]);
    expect(local.code).toBe(1);
    expect(local.stderr).toContain(`Piglet "local" is the project's (${join(w.cwd, ".pig", "piglets", "local.md")}) and the project is not trusted`);
  });
});

describe("pig piglets list", () => {
  test("names, descriptions, scopes and files; --json; the project's when trusted", async () => {
    const w = await world({ ".pig/piglets/docs.md": "---\ndescription: Writes docs\n---\n" });
    const text = await w.run(["piglets", "list", "--no-trust"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("reviewer");
    expect(text.stdout).toContain("Reviews a change without touching it");
    expect(text.stdout).toContain(join(w.agentDir, "piglets", "release-helper.json"));
    expect(text.stdout).not.toContain("docs");
    expect(text.stderr).toContain("1 project Piglet(s) not listed: the project is not trusted");
    const json = await w.run(["piglets", "list", "--json", "--trust"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { name: "docs", description: "Writes docs", scope: "project", path: join(w.cwd, ".pig", "piglets", "docs.md") },
      { name: "release-helper", description: "Prepares a release: changelog, version bump, tag", scope: "user", path: join(w.agentDir, "piglets", "release-helper.json") },
      { name: "reviewer", description: "Reviews a change without touching it", scope: "user", path: join(w.agentDir, "piglets", "reviewer.md") },
    ]);
  });
});
