/**
 * The tool fields of upstream Pi 1.x through the built binary, from a TypeScript extension to the
 * provider request: `exposure` and `defaultActive` decide what is declared to the model,
 * `namespace` and `annotations` are reported by `getAllTools()`, a result's
 * `structuredContent` reaches hooks and events but never the model or the session file, a
 * returned `isError: true` reaches the model as an error result (its details kept), and every
 * tool's end says how long it ran (`durationMs`).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds, onlySessionEntries, readJsonLines } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

type Json = Record<string, any>;

const EXTENSION = `
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const obj = (properties) => ({ type: "object", properties });
const ok = (text) => ({ content: [{ type: "text", text }], details: {} });
export default function (pi) {
  pi.registerTool({
    name: "visible", label: "Visible", description: "A direct tool with structured output",
    parameters: obj({}),
    namespace: { name: "demo", aliases: ["d"], description: "Demo tools" },
    annotations: { readOnlyHint: true, openWorldHint: false },
    outputSchema: obj({ n: { type: "number" } }),
    async execute() { return { content: [{ type: "text", text: "seven" }], details: { shown: 1 }, structuredContent: { n: 7 } }; },
  });
  pi.registerTool({
    name: "failing", label: "Failing", description: "Reports a failure without throwing",
    parameters: obj({}),
    async execute() { return { content: [{ type: "text", text: "it broke" }], details: { why: "kept" }, isError: true }; },
  });
  pi.registerTool({ name: "later", label: "Later", description: "Registered inactive", parameters: obj({}), defaultActive: false, async execute() { return ok("later ran"); } });
  pi.registerTool({ name: "deferred_one", label: "Deferred", description: "Found by search", parameters: obj({}), exposure: "deferred", async execute() { return ok("deferred ran"); } });
  pi.registerTool({ name: "scriptable", label: "Scriptable", description: "For scripts", parameters: obj({}), exposure: "codemode", async execute() { return ok("scriptable ran"); } });
  pi.registerTool({ name: "hidden_one", label: "Hidden", description: "Unreachable", parameters: obj({}), exposure: "hidden", async execute() { return ok("hidden ran"); } });
  pi.registerTool({ name: "modelonly", label: "Model only", description: "Declared, not callable", parameters: obj({}), exposure: "model-only", async execute() { return ok("model-only ran"); } });
  const log = (record) => appendFileSync(join(process.cwd(), "seen.jsonl"), JSON.stringify(record) + "\\n");
  pi.on("session_start", () => {
    writeFileSync(join(process.cwd(), "tools.json"), JSON.stringify({ all: pi.getAllTools().filter((t) => t.sourceInfo?.source === "extension"), active: pi.getActiveTools() }));
  });
  pi.on("tool_result", (event) => log({ on: "tool_result", name: event.toolName, isError: event.isError, structuredContent: event.structuredContent ?? null }));
  pi.on("tool_execution_end", (event) => log({ on: "tool_execution_end", name: event.toolName, isError: event.isError, durationMs: event.durationMs ?? null, structuredContent: event.result.structuredContent ?? null }));
}
`;

const SCRIPT = [{ toolCalls: [{ name: "visible", arguments: {} }, { name: "failing", arguments: {} }] }, { text: "done" }];

function declaredNames(body: Json): string[] {
  // Anthropic's declarations carry the name; chat completions' wrap it in `function`.
  return (body.tools ?? []).map((t: Json) => t.name ?? t.function?.name).sort();
}

test("exposure and defaultActive decide the declarations; structured content and isError reach hooks, events, the model and the file as upstream's do", async () => {
  const w = await world(SCRIPT, { api: "anthropic-messages", files: { "ext/tools.ts": EXTENSION } });
  const run = await w.run(["--mode", "json", "-p", "-e", join(w.cwd, "ext", "tools.ts"), "use the tools"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);

  // Declared: the direct and model-only tools; not the inactive, deferred, codemode or hidden ones.
  const first = w.llm.requests[0]!.body as Json;
  const declared = declaredNames(first);
  expect(declared).toEqual(expect.arrayContaining(["failing", "modelonly", "visible"]));
  for (const name of ["later", "deferred_one", "scriptable", "hidden_one"]) expect(declared).not.toContain(name);
  // outputSchema, namespace and annotations are not part of a declaration.
  expect(JSON.stringify(first.tools)).not.toContain("Demo tools");

  // The model gets content only, the returned error as an error.
  const results = (w.llm.requests[1]!.body as Json).messages.flatMap((m: Json) => (Array.isArray(m.content) ? m.content : [])).filter((b: Json) => b.type === "tool_result");
  expect(results).toHaveLength(2);
  const text = (b: Json) => (typeof b.content === "string" ? b.content : b.content.map((c: Json) => c.text).join(""));
  expect(results.map((b: Json) => [text(b), b.is_error === true])).toEqual([["seven", false], ["it broke", true]]);
  expect(JSON.stringify(w.llm.requests[1]!.body)).not.toContain('"n":7');

  // The session file: the error flag, the details and how long each tool ran; no structured content.
  const stored = onlySessionEntries(join(w.agentDir, "sessions"))
    .filter((e) => e.type === "message" && e.message.role === "toolResult")
    .map((e) => e.message);
  expect(stored.map((m) => [m.toolName, m.isError, m.details])).toEqual([["visible", false, { shown: 1 }], ["failing", true, { why: "kept" }]]);
  for (const m of stored) {
    expect(typeof m.durationMs).toBe("number");
    expect(m.structuredContent).toBeUndefined();
  }

  // json mode: each end carries durationMs, the error flag and the structured content.
  const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Json);
  const ends = events.filter((e) => e.type === "tool_execution_end");
  expect(ends.map((e) => [e.toolName, e.isError, typeof e.durationMs, e.result.structuredContent ?? null])).toEqual([
    ["visible", false, "number", { n: 7 }],
    ["failing", true, "number", null],
  ]);

  // The extension's own events say the same.
  const seen = readJsonLines(join(w.cwd, "seen.jsonl"));
  expect(seen.filter((s) => s.on === "tool_result")).toEqual([
    { on: "tool_result", name: "visible", isError: false, structuredContent: { n: 7 } },
    { on: "tool_result", name: "failing", isError: true, structuredContent: null },
  ]);
  const extEnds = seen.filter((s) => s.on === "tool_execution_end");
  expect(extEnds.map((s) => [s.name, s.isError, typeof s.durationMs, s.structuredContent])).toEqual([
    ["visible", false, "number", { n: 7 }],
    ["failing", true, "number", null],
  ]);

  // getAllTools reports exposure, namespace and annotations; the active set is what is declared.
  const tools = JSON.parse(readFileSync(join(w.cwd, "tools.json"), "utf8")) as { all: Json[]; active: string[] };
  const byName = Object.fromEntries(tools.all.map((t) => [t.name, t]));
  // Pi's fields: the output schema is not among them.
  expect(byName.visible.outputSchema).toBeUndefined();
  expect(byName.visible).toMatchObject({ exposure: "direct", namespace: { name: "demo", aliases: ["d"], description: "Demo tools" }, annotations: { readOnlyHint: true, openWorldHint: false } });
  expect(Object.fromEntries(tools.all.map((t) => [t.name, t.exposure]))).toEqual({
    visible: "direct",
    failing: "direct",
    later: "direct",
    deferred_one: "deferred",
    scriptable: "codemode",
    hidden_one: "hidden",
    modelonly: "model-only",
  });
  expect(tools.active).toEqual(expect.arrayContaining(["visible", "failing", "modelonly"]));
  for (const name of ["later", "deferred_one", "scriptable", "hidden_one"]) expect(tools.active).not.toContain(name);
});

test("naming a tool that is inactive by default activates it; naming a hidden one does not", async () => {
  const w = await world([{ text: "fine" }], { files: { "ext/tools.ts": EXTENSION } });
  const run = await w.run(["-p", "--tools", "later,hidden_one,read", "-e", join(w.cwd, "ext", "tools.ts"), "hello"]);
  expect(run.code).toBe(0);
  expect(declaredNames(w.llm.requests[0]!.body as Json)).toEqual(["later", "read"]);
});

const DEFERRED = `
const obj = (properties, required = []) => ({ type: "object", properties, required });
export default function (pi) {
  pi.registerTool({
    name: "lookup_weather", label: "Weather", description: "Look up the current weather for a city", exposure: "deferred",
    namespace: { name: "forecasts", description: "Weather services" },
    parameters: obj({ city: { type: "string", description: "City name" } }, ["city"]),
    async execute(_id, params) { return { content: [{ type: "text", text: "sunny in " + params.city }], details: {} }; },
  });
  pi.registerTool({
    name: "search_issues", label: "Issues", description: "Search project issues by keyword", exposure: "deferred",
    parameters: obj({ query: { type: "string" } }, ["query"]),
    async execute() { return { content: [{ type: "text", text: "no issues" }], details: {} }; },
  });
}
`;

test("tool_search finds a deferred tool and loads it: the next request of the same run declares it and the model can call it", async () => {
  const script = [
    { toolCalls: [{ name: "tool_search", arguments: { query: "weather in a city" } }] },
    { toolCalls: [{ name: "lookup_weather", arguments: { city: "Oslo" } }] },
    { text: "It is sunny." },
  ];
  // The defaultTools setting names it (`--tools` would be an allowlist keeping the deferred tools out).
  const w = await world(script, { files: { "ext/deferred.ts": DEFERRED }, settings: { defaultTools: ["read", "tool_search"] } });
  const run = await w.run(["-p", "-e", join(w.cwd, "ext", "deferred.ts"), "weather in Oslo?"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe("It is sunny.");
  expect(w.llm.requests).toHaveLength(3);
  const bodies = w.llm.requests.map((r) => r.body as Json);
  expect(declaredNames(bodies[0]!)).toEqual(["read", "tool_search"]);
  expect(declaredNames(bodies[1]!)).toEqual(["lookup_weather", "read", "tool_search"]);
  const toolTexts = (body: Json) => body.messages.filter((m: Json) => m.role === "tool").map((m: Json) => (typeof m.content === "string" ? m.content : m.content.map((c: Json) => c.text).join("")));
  expect(toolTexts(bodies[1]!)[0]).toBe("Loaded 1 tool, callable from your next call:\n- lookup_weather: Look up the current weather for a city");
  expect(toolTexts(bodies[2]!)[1]).toBe("sunny in Oslo");
  // The session records the loaded tool as a change of the tools, before the request that declares it.
  const entries = onlySessionEntries(join(w.agentDir, "sessions"));
  const added = entries.filter((e) => e.type === "message" && e.message.role === "system" && (e.message.toolsAdded ?? []).some((t: Json) => t.name === "lookup_weather"));
  expect(added).toHaveLength(1);
});

test("tool_search is registered inactive: without naming it, it is not declared", async () => {
  const w = await world([{ text: "fine" }], { files: { "ext/deferred.ts": DEFERRED } });
  const run = await w.run(["-p", "-e", join(w.cwd, "ext", "deferred.ts"), "hello"]);
  expect(run.code).toBe(0);
  expect(declaredNames(w.llm.requests[0]!.body as Json)).toEqual(["bash", "edit", "read", "write"]);
});

test("registerToolRenderer is accepted: the extension loads, its tools run, and no error is reported", async () => {
  const extension = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default function (pi) {
  let resolved = 0;
  pi.registerToolRenderer((toolName, next) => {
    resolved++;
    return next() ?? { renderCall: () => { throw new Error("pig draws its own tool blocks"); } };
  });
  pi.registerTool({
    name: "drawn", label: "Drawn", description: "A tool with a renderer", parameters: { type: "object", properties: {} },
    async execute() { return { content: [{ type: "text", text: "drawn ran" }], details: {} }; },
  });
  pi.on("agent_end", () => writeFileSync(join(process.cwd(), "resolved.txt"), String(resolved)));
}
`;
  const w = await world([{ toolCalls: [{ name: "drawn", arguments: {} }] }, { text: "done" }], { files: { "ext/renderer.ts": extension } });
  const run = await w.run(["--mode", "json", "-p", "-e", join(w.cwd, "ext", "renderer.ts"), "draw"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Json);
  expect(events.filter((e) => e.type === "extension_error")).toEqual([]);
  expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ toolName: "drawn", isError: false, result: { content: [{ type: "text", text: "drawn ran" }] } });
  // pig draws its own blocks: the resolver was kept, never asked.
  expect(readFileSync(join(w.cwd, "resolved.txt"), "utf8")).toBe("0");
});
