/**
 * The combinators themselves (src/util/combine.ts), which the runner and the host both step
 * through: every case of test/fixtures/extension-events/chaining.json, `cases` (one extension's
 * handlers) and `across` (several extensions, each answering once), run against the chain alone.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { failureEndsChain, startChain } from "../../src/util/combine.ts";
import { combinatorOf, EXTENSION_EVENT_NAMES, extensionEvent } from "../../src/util/extension-events.ts";

interface Case {
  name: string;
  event: string;
  payload: Record<string, unknown>;
  seen?: { field: string; values: unknown[] };
}
interface WithinCase extends Case {
  handlers: unknown[];
  result?: unknown;
  calls: number;
  errors?: number;
  throws?: boolean;
}
interface AcrossCase extends Case {
  extensions: unknown[];
  combined: unknown;
  asked: number;
  refused?: number[];
}

const FILE = join(import.meta.dir, "..", "fixtures", "extension-events", "chaining.json");
const { cases, across } = JSON.parse(readFileSync(FILE, "utf8")) as { cases: WithinCase[]; across: AcrossCase[] };

const failure = (answer: unknown): string | undefined =>
  typeof answer === "object" && answer !== null && "$throw" in answer ? String(answer.$throw) : undefined;

/**
 * The answers stepped through the event's chain in order, as the runner and the host walk them:
 * a failure is skipped (or, where the rule says so, ends the chain as `{$throw}`); an answer
 * `refused` by the host's own checks is skipped; `null` is no answer.
 */
function run(c: Case, answers: unknown[], refused: number[] = []) {
  const combine = combinatorOf(c.event);
  const chain = startChain(combine, structuredClone(c.payload));
  const seen: unknown[] = [];
  let asked = 0;
  let errors = 0;
  for (const [i, answer] of answers.entries()) {
    asked++;
    if (c.seen) seen.push(structuredClone(chain.payload[c.seen.field]));
    const error = failure(answer);
    if (error !== undefined) {
      if (failureEndsChain(combine)) return { result: { $throw: error }, asked, seen, errors };
      errors++;
      continue;
    }
    if (refused.includes(i)) continue;
    if (chain.step(structuredClone(answer ?? undefined))) break;
  }
  return { result: chain.result(), asked, seen, errors };
}

test.each(cases.map((c) => [c.name, c] as const))("within: %s", (_name, c) => {
  const got = run(c, c.handlers);
  if (c.throws) expect(got.result).toEqual({ $throw: expect.any(String) });
  else expect(got.result).toEqual(c.result as never);
  expect({ calls: got.asked, errors: got.errors }).toEqual({ calls: c.calls, errors: c.errors ?? 0 });
  if (c.seen) expect(got.seen).toEqual(c.seen.values);
});

test.each(across.map((c) => [c.name, c] as const))("across: %s", (_name, c) => {
  const got = run(c, c.extensions, c.refused);
  expect(got.result).toEqual(c.combined as never);
  expect(got.asked).toBe(c.asked);
  if (c.seen) expect(got.seen).toEqual(c.seen.values);
});

test("every rule a sent request combines by has cases", () => {
  const rules = new Set(cases.map((c) => combinatorOf(c.event).rule));
  for (const name of EXTENSION_EVENT_NAMES) {
    const info = extensionEvent(name)!;
    if (info.kind === "request" && !info.neverSent) expect(`${name}: ${rules.has(info.combine.rule)}`).toBe(`${name}: true`);
  }
});

test("edits made in place count as answers: headers (a removed one as null) and a tool call's input", () => {
  const headers = startChain(combinatorOf("before_provider_headers"), { headers: { "x-a": "1", "x-b": "2" } });
  const shown = headers.payload.headers as Record<string, string>;
  shown["x-c"] = "3";
  delete shown["x-a"];
  headers.step(undefined);
  headers.step({ headers: { "X-B": "4" } });
  expect(headers.result()).toEqual({ headers: { "x-c": "3", "x-a": null, "X-B": "4" } });
  expect(headers.payload.headers).toEqual({ "x-c": "3", "X-B": "4" });

  const input = { command: "ls" };
  const call = startChain(combinatorOf("tool_call"), { toolName: "bash", input });
  input.command = "ls -l";
  expect(call.step(undefined)).toBe(false);
  expect(call.result()).toEqual({ input: { command: "ls -l" } });
  call.step({ input: { command: "pwd" } });
  expect(input).toEqual({ command: "pwd" });
});

test("before_agent_start: options edited in place are the result; another extension's edited options are what the next one sees", () => {
  const options = () => ({ selectedTools: ["read"], sections: {} as Record<string, string>, promptGuidelines: [] as string[] });
  const untouched = startChain(combinatorOf("before_agent_start"), { systemPrompt: "p", systemPromptOptions: options() });
  untouched.step(undefined);
  expect(untouched.result()).toBeNull();

  const inPlace = startChain(combinatorOf("before_agent_start"), { systemPrompt: "p", systemPromptOptions: options() });
  (inPlace.payload.systemPromptOptions as { sections: Record<string, string> }).sections.rules_of_the_house = "Be brief.";
  inPlace.step(undefined);
  expect(inPlace.result()).toEqual({ systemPromptOptions: { ...options(), sections: { rules_of_the_house: "Be brief." } } });

  const across = startChain(combinatorOf("before_agent_start"), { systemPrompt: "p", systemPromptOptions: options() });
  across.step({ systemPromptOptions: { ...options(), promptGuidelines: ["Prefer tabs"] } });
  expect(across.payload.systemPromptOptions).toEqual({ ...options(), promptGuidelines: ["Prefer tabs"] });
  expect(across.result()).toEqual({ systemPromptOptions: { ...options(), promptGuidelines: ["Prefer tabs"] } });
});
