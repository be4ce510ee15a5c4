/**
 * The comparison over observations recorded from real packages under Pi 1.6.0 and pig
 * (test/fixtures/compat/pi-1.6.0-packages.json, written by pi-packages.ts --json): what each
 * package did relative to its agent's baseline, and where pig differed when it was recorded.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareEffects, effectOf, type Observation, type Placeholders } from "../../scripts/compat/compare-observations.ts";

interface Recorded {
  observation: Observation;
  at: Placeholders;
}
const recorded = JSON.parse(readFileSync(join(import.meta.dir, "..", "fixtures", "compat", "pi-1.6.0-packages.json"), "utf8")) as {
  baseline: { pi: Recorded; pig: Recorded };
  packages: { name: string; pi: Recorded; pig: Recorded }[];
};

function effects(name: string) {
  const p = recorded.packages.find((r) => r.name === name)!;
  const pi = effectOf(p.pi.observation, recorded.baseline.pi.observation, p.pi.at, recorded.baseline.pi.at);
  const pig = effectOf(p.pig.observation, recorded.baseline.pig.observation, p.pig.at, recorded.baseline.pig.at);
  return { pi, pig, differences: compareEffects(pig, pi) };
}

test("the baselines differ in their own words, and that is left out", () => {
  const { baseline } = recorded;
  expect(baseline.pi.observation.systemPrompt).not.toBe(baseline.pig.observation.systemPrompt);
  expect(effectOf(baseline.pig.observation, baseline.pig.observation, baseline.pig.at, baseline.pig.at).prompt).toEqual({ added: {}, removed: [], changed: {} });
});

test("a skills-only package: the same skills block under both, whatever each agent says around it", () => {
  const { pi, differences } = effects("@aliou/pi-utils-settings");
  expect(Object.keys(pi.prompt.added)).toEqual(["<skills>"]);
  expect(pi.commands).toEqual([{ name: "skill:pi-utils-settings", source: "skill" }]);
  expect(differences).toEqual([]);
});

test("tools, commands and a failing tool call that agree", () => {
  const { pi, pig, differences } = effects("pi-markdown-preview");
  expect(Object.keys(pi.tools)).toEqual(["preview_export"]);
  expect(pi.toolOutcomes.preview_export?.isError).toBe(true);
  expect(pig.toolOutcomes.preview_export?.isError).toBe(true);
  expect(differences).toEqual([]);
});

test("what differed when it was recorded: an event bus reply across extensions, a command", () => {
  expect(effects("@aliou/pi-processes").differences.map((d) => d.part)).toEqual(["ui", "ui", "ui", "errors"]);
  expect(effects("@aliou/pi-processes").differences.at(-1)?.detail).toContain('session_start ("processes core extension did not reply to config request") vs none');
  expect(effects("pi-mcp-adapter").differences).toEqual([{ part: "commands", detail: "extension: mcp, mcp-auth, pi-mcp vs mcp-auth, pi-mcp" }]);
});
