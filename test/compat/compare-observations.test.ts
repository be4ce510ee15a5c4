import { describe, expect, test } from "bun:test";
import { compareEffects, effectOf, normaliseText, type Observation, promptEffect, promptSections, summariseEffect } from "../../scripts/compat/compare-observations.ts";
import { explainedDifferences } from "../../scripts/compat/known-differences.ts";
import { sampleArguments } from "../../scripts/compat/sample-arguments.ts";

const PI_PROMPT = "You are a coding assistant running inside pi.\n\n<tools>\n- read: Read file contents\n</tools>\n\n<rules>\n- Be concise\n</rules>\n\n<cwd>\n/tmp/w1/cwd\n</cwd>";
const PIG_PROMPT = "You are an expert coding assistant working inside pig.\n\n<tools>\n- read: Read file contents\n\nThe project may provide further tools.\n</tools>\n\n<rules>\n- Keep your answers short\n</rules>\n\n<cwd>\n/tmp/w2/cwd\n</cwd>";

function observation(over: Partial<Observation>): Observation {
  return {
    loaded: true,
    systemPrompt: "",
    tools: { read: { description: "built-in read", parameters: { type: "object" } } },
    messages: ["user: Say ok."],
    requestFields: { model: "fake-model", stream: true },
    commands: [{ name: "skill:x", source: "skill" }],
    flags: [],
    ui: [],
    errors: [],
    toolOutcomes: {},
    stderr: "",
    ...over,
  };
}

/** A baseline and a run of each agent: the run's world is another temp dir than its baseline's. */
function effects(piRun: Partial<Observation>, pigRun: Partial<Observation>) {
  const pi = effectOf(observation({ systemPrompt: PI_PROMPT.replace("w1", "w3"), ...piRun }), observation({ systemPrompt: PI_PROMPT }), { world: "/tmp/w3", install: "/opt/pi" }, { world: "/tmp/w1", install: "/opt/pi" });
  const pig = effectOf(observation({ systemPrompt: PIG_PROMPT.replace("w2", "w4"), ...pigRun }), observation({ systemPrompt: PIG_PROMPT }), { world: "/tmp/w4", install: "/tmp/w4/agent/docs" }, { world: "/tmp/w2", install: "/tmp/w2/agent/docs" });
  return { pi, pig };
}

describe("system prompt sections", () => {
  test("cuts the prompt into the intro, tagged blocks and text around them", () => {
    const sections = promptSections(`${PI_PROMPT}\n\nAlways answer in rhymes.`);
    expect([...sections.keys()]).toEqual(["intro", "<tools>", "<rules>", "<cwd>", "text after <cwd>"]);
    expect(sections.get("text after <cwd>")).toBe("Always answer in rhymes.");
  });

  test("an extension's addition is found relative to each agent's own baseline", () => {
    const { pi, pig } = effects({ systemPrompt: `${PI_PROMPT.replace("w1", "w3")}\n\nTalk like a pirate.` }, { systemPrompt: `${PIG_PROMPT.replace("w2", "w4")}\n\nTalk like a pirate.` });
    expect(pi.prompt.added).toEqual({ "text after <cwd>": "Talk like a pirate." });
    expect(compareEffects(pig, pi)).toEqual([]);
  });

  test("different added text is a difference, named by section", () => {
    const { pi, pig } = effects({ systemPrompt: `${PI_PROMPT.replace("w1", "w3")}\n\nTalk like a pirate.` }, { systemPrompt: PIG_PROMPT.replace("w2", "w4") });
    expect(compareEffects(pig, pi)).toEqual([{ part: "system prompt", detail: "adds none vs text after <cwd>" }]);
  });

  test("a skills block is compared by its list, not by each agent's words around it", () => {
    const list = "<available_skills>\n  <skill>\n    <name>x</name>\n  </skill>\n</available_skills>";
    const { pi, pig } = effects(
      { systemPrompt: `${PI_PROMPT.replace("w1", "w3")}\n\n<skills>\nThe following skills provide instructions.\n\n${list}\n</skills>` },
      { systemPrompt: `${PIG_PROMPT.replace("w2", "w4")}\n\n<skills>\nThe skills below hold extra instructions.\n\n${list}\n</skills>` },
    );
    expect(Object.keys(pi.prompt.added)).toEqual(["<skills>"]);
    expect(compareEffects(pig, pi)).toEqual([]);
    const other = effects({ systemPrompt: `${PI_PROMPT.replace("w1", "w3")}\n\n<skills>\n${list}\n</skills>` }, { systemPrompt: `${PIG_PROMPT.replace("w2", "w4")}\n\n<skills>\n${list.replace(">x<", ">y<")}\n</skills>` });
    expect(compareEffects(other.pig, other.pi)[0]?.part).toBe("system prompt");
  });

  test("a replaced prompt removes the same sections in both, whatever their own words", () => {
    const { pi, pig } = effects({ systemPrompt: "You are a cat." }, { systemPrompt: "You are a cat." });
    expect(pi.prompt.removed.sort()).toEqual(["<cwd>", "<rules>", "<tools>"]);
    expect(compareEffects(pig, pi)).toEqual([]);
  });

  test("a line added inside a section counts; the agent's own lines removed only as a count", () => {
    const effect = promptEffect("<rules>\n- a\n- new\n</rules>", "<rules>\n- a\n- b\n</rules>");
    expect(effect.changed).toEqual({ "<rules>": { addedLines: ["- new"], removedLines: 1 } });
  });
});

describe("what else an extension changes", () => {
  test("tools: an added tool is compared by description and schema; untouched built-ins are left out", () => {
    const tool = { description: "Say hello", parameters: { type: "object", properties: { name: { type: "string" } } } };
    const { pi, pig } = effects(
      { tools: { read: { description: "built-in read", parameters: { type: "object" } }, hello: tool } },
      { tools: { read: { description: "built-in read", parameters: { type: "object" } }, hello: { ...tool, description: "Greets" } } },
    );
    expect(Object.keys(pi.tools)).toEqual(["hello"]);
    expect(compareEffects(pig, pi)).toEqual([{ part: "tools", detail: "description of hello" }]);
  });

  test("UI calls are compared by phase, method and text; the baseline's own are subtracted", () => {
    const notify = { phase: "start", method: "notify", fields: { message: "Loaded /tmp/w3/cwd", notifyType: "info" } };
    const { pi, pig } = effects({ ui: [notify] }, { ui: [{ ...notify, fields: { message: "Loaded /tmp/w4/cwd", notifyType: "info" } }] });
    expect(compareEffects(pig, pi)).toEqual([]);
    const missing = effects({ ui: [notify] }, {});
    expect(compareEffects(missing.pig, missing.pi)).toEqual([{ part: "ui", detail: 'start: says none vs notify {"message":"Loaded <world>/cwd","notifyType":"info"}' }]);
  });

  test("statuses count by their last value in a phase; a theme's styling is told apart", () => {
    const status = (text: string) => ({ phase: "prompt", method: "setStatus", fields: { statusKey: "s", statusText: text } });
    const { pi, pig } = effects({ ui: [status("1"), status("2"), status("done")] }, { ui: [status("2"), status("done")] });
    expect(compareEffects(pig, pi)).toEqual([]);
    const styled = effects({ ui: [status("\u001b[38;5;2m✓\u001b[39m done")] }, { ui: [status("✓ done")] });
    expect(compareEffects(styled.pig, styled.pi)).toEqual([{ part: "ui", detail: "prompt: the same text, styled by Pi's theme and plain in pig" }]);
    const other = effects({ ui: [status("a")] }, { ui: [status("b")] });
    expect(compareEffects(other.pig, other.pi)).toEqual([{ part: "ui", detail: 'prompt: setStatus:s {"statusText":"b"} vs {"statusText":"a"}' }]);
  });

  test("errors are compared by event, not by each runtime's wording", () => {
    const { pi, pig } = effects(
      { errors: [{ event: "before_agent_start", error: "Cannot read properties of undefined (reading 'x')" }] },
      { errors: [{ event: "before_agent_start", error: "undefined is not an object (evaluating 'a.x')" }] },
    );
    expect(compareEffects(pig, pi)).toEqual([]);
    const oneSided = effects({ errors: [{ event: "session_start", error: "boom" }] }, {});
    expect(compareEffects(oneSided.pig, oneSided.pi)[0]?.part).toBe("errors");
  });

  test("a tool result's error flag", () => {
    const { pi, pig } = effects({ toolOutcomes: { hello: { isError: true, text: "no" } } }, { toolOutcomes: { hello: { isError: false, text: "Hello" } } });
    expect(compareEffects(pig, pi)).toEqual([{ part: "tool results", detail: 'hello isError false ("Hello") vs true ("no")' }]);
  });

  test("messages, request fields, commands and flags", () => {
    const { pi, pig } = effects(
      { messages: ["user: Say ok.", "user: [custom] note"], requestFields: { model: "fake-model", stream: true, temperature: 0 }, commands: [{ name: "skill:x", source: "skill" }, { name: "hi", source: "extension" }], flags: ["plan"] },
      {},
    );
    expect(compareEffects(pig, pi).map((d) => d.part)).toEqual(["messages", "request", "commands", "flags"]);
    expect(summariseEffect(pi)).toBe("commands /hi; flags --plan; messages; request fields");
  });

  test("a load failure in pig only", () => {
    const { pi, pig } = effects({}, { loaded: false, problem: "Failed to load extension: nope" });
    expect(compareEffects(pig, pi)).toEqual([{ part: "load", detail: "does not load in pig: Failed to load extension: nope" }]);
  });

  test("the agent's name and paths are normalised", () => {
    expect(normaliseText("pig at /tmp/w/cwd, docs in /opt/pi/docs; /tmp/pig-bench", { world: "/tmp/w", install: "/opt/pi" })).toBe("pi at <world>/cwd, docs in <install>/docs; /tmp/pig-bench");
  });

  test("a known difference is explained by its decision", () => {
    const result = explainedDifferences("x.ts", [{ part: "ui", detail: "start: none vs setWidget" }], [{ subject: "*", part: "ui", detail: /setWidget/, why: "D1" }]);
    expect(result).toEqual({ explained: [{ difference: { part: "ui", detail: "start: none vs setWidget" }, why: "D1" }], unexplained: [] });
  });
});

describe("arguments for a scripted tool call", () => {
  test("required properties get their default, first enum value or simplest value", () => {
    const schema = {
      type: "object",
      required: ["action", "count", "items", "path", "flag", "nested"],
      properties: {
        action: { type: "string", enum: ["list", "add"] },
        count: { type: "integer", minimum: 2 },
        items: { type: "array", items: { type: "string" }, minItems: 1 },
        path: { type: "string" },
        flag: { type: "boolean", default: true },
        nested: { type: "object", required: ["a"], properties: { a: { anyOf: [{ const: "k" }, { type: "string" }] } } },
        optional: { type: "string" },
      },
    };
    expect(sampleArguments(schema)).toEqual({ action: "list", count: 2, items: ["x"], path: "x", flag: true, nested: { a: "k" } });
  });
});
