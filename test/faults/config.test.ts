/**
 * Bad configuration: every file pig reads, with each fault of config/harness.ts (malformed, of
 * the wrong type at the top and in a field, with unknown keys, unreadable, a directory in its
 * place), through the real binary. Each case checks that the message names the file and the
 * line or field at fault, that pig carries on where it sensibly can (or exits with the right
 * code), that nothing crashes, and that the file is left byte for byte as it was.
 */
import { describe, expect, test } from "bun:test";
import { authCases, globalSettingsCases, modelsCases, projectSettingsCases, trustCases } from "./config/data-cases.ts";
import { runConfigCases, type ConfigCase } from "./config/harness.ts";
import { keybindingsCases, skillCases, templateCases, themeCases } from "./config/resource-cases.ts";

const TIMEOUT = 120_000;

const kinds: [string, () => ConfigCase[]][] = [
  ["bad settings.json (global; print, RPC set_model, interactive)", globalSettingsCases],
  ["bad .pig/settings.json (project)", projectSettingsCases],
  ["bad models.json (print, RPC, interactive)", modelsCases],
  ["bad auth.json", authCases],
  ["bad trust.json", trustCases],
  ["bad keybindings.json (interactive)", keybindingsCases],
  ["bad theme file (interactive)", themeCases],
  ["bad SKILL.md", skillCases],
  ["bad prompt template", templateCases],
];

describe("bad configuration", () => {
  for (const [fault, cases] of kinds) {
    test(
      fault,
      async () => {
        const failures = await runConfigCases(fault, cases());
        expect(failures).toEqual([]);
      },
      TIMEOUT,
    );
  }
});
