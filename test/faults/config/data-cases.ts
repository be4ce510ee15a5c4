/**
 * Faults in the JSON files that decide what pig runs with: settings.json (global and project),
 * models.json, auth.json and trust.json. Each file gets every fault of harness.ts; the texts are
 * written out so the expected line and column can be read off them.
 */
import { expect } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeModelsJson, type PigWorld } from "../../helpers/pig-env.ts";
import { answered, rpcResponse, systemPrompt, type ConfigCase, type Fault, type Mode } from "./harness.ts";

type Spec = Pick<ConfigCase, "inject" | "says" | "then" | "alsoSays" | "code" | "rewrites">;

function casesOf(file: string, mode: Mode, base: Omit<ConfigCase, "file" | "fault" | "mode" | "inject" | "says">, specs: Record<Fault, Spec>): ConfigCase[] {
  return (Object.entries(specs) as [Fault, Spec][]).map(([fault, spec]) => ({ ...base, file, fault, mode, ...spec }));
}

// ---- settings.json --------------------------------------------------------------------------

const SETTINGS_IGNORED = "the settings in this file are ignored for this run";
const SETTINGS_KEPT = "pig ignores it and leaves it in the file";

/** Faulty settings texts, the same for the global and the project file. */
function settingsSpecs(then: ConfigCase["then"]): Record<Fault, Spec> {
  return {
    malformed: {
      inject: { text: '{\n  "defaultProvider": "fake",\n  "defaultModel": "fake-model"\n  "quietStartup": true\n}\n' },
      says: [`not valid JSON: ',' is expected at line 4, column 3; ${SETTINGS_IGNORED}`],
      then,
    },
    "wrong type at the top": {
      inject: { text: '[\n  "defaultModel"\n]\n' },
      says: [`expected a JSON object ({ … }) at the top level, not a list; ${SETTINGS_IGNORED}`],
      then,
    },
    "wrong type in a field": {
      inject: { text: '{\n  "defaultProvider": "fake",\n  "retry": 5,\n  "theme": 7\n}\n' },
      says: [`"retry" (line 3, column 12) must be an object, not 5; "theme" (line 4, column 12) must be a string, not 7; ${SETTINGS_IGNORED}`],
      then,
    },
    "unknown keys": {
      inject: { text: '{\n  "defaultProvider": "fake",\n  "defaultModle": "x",\n  "defaultModel": "fake-reasoner",\n  "retry": { "enabeld": false }\n}\n' },
      says: [
        `unknown key "defaultModle" at line 3, column 3 (did you mean "defaultModel"?); ${SETTINGS_KEPT}`,
        `unknown key "retry.enabeld" at line 5, column 14 (did you mean "retry.enabled"?); ${SETTINGS_KEPT}`,
      ],
      // The file is used: the model it names answers.
      then: (world, outcome) => {
        answered(world, outcome);
        expect(world.llm.requests[0]!.body).toMatchObject({ model: "fake-reasoner" });
      },
    },
    unreadable: {
      inject: { unreadable: '{ "defaultProvider": "fake", "defaultModel": "fake-model" }\n' },
      says: [`cannot be read: permission denied; ${SETTINGS_IGNORED}`],
      then,
    },
    directory: { inject: { directory: true }, says: [`is a directory, not a file; ${SETTINGS_IGNORED}`], then },
  };
}

export function globalSettingsCases(): ConfigCase[] {
  const print = casesOf("settings.json", "print", { where: { agent: "settings.json" }, code: 0 }, settingsSpecs(answered));
  const interactive = casesOf("settings.json", "interactive", { where: { agent: "settings.json" } }, settingsSpecs(undefined)).map(
    (c): ConfigCase => (c.fault === "unknown keys" ? { ...c, then: undefined } : c),
  );
  // set_model saves the default model: never into a file pig could not use.
  const setModel = { type: "set_model", provider: "fake", modelId: "fake-reasoner", id: "m" };
  const switched: ConfigCase["then"] = (_world, outcome) => {
    expect(rpcResponse(outcome, "m")).toMatchObject({ success: true, data: { id: "fake-reasoner" } });
  };
  const rpc = casesOf("settings.json", "rpc", { where: { agent: "settings.json" }, code: 0, commands: [setModel] }, settingsSpecs(switched)).map(
    (c): ConfigCase => {
      if (c.fault !== "unknown keys") {
        return { ...c, alsoSays: [`not saving defaultProvider, defaultModel: pig could not use this file when it started, and it does not overwrite a file it could not use.`] };
      }
      // A usable file takes the new default; the unknown keys stay in it.
      return {
        ...c,
        rewrites: true,
        then: (world, outcome, path) => {
          switched(world, outcome, path);
          const saved = JSON.parse(readFileSync(path, "utf8"));
          expect(saved).toMatchObject({ defaultProvider: "fake", defaultModel: "fake-reasoner", defaultModle: "x", retry: { enabeld: false } });
        },
      };
    },
  );
  return [...print, ...rpc, ...interactive];
}

export function projectSettingsCases(): ConfigCase[] {
  const specs = settingsSpecs(answered);
  // A list where an object belongs, which a plain schema check would let through.
  specs["wrong type in a field"] = {
    inject: { text: '{\n  "compaction": [],\n  "retry": { "maxRetries": "3" }\n}\n' },
    says: [`"compaction" (line 2, column 17) must be an object, not a list; "retry.maxRetries" (line 3, column 28) must be a number, not "3"; ${SETTINGS_IGNORED}`],
    then: answered,
  };
  return casesOf(".pig/settings.json", "print", { where: { project: ".pig/settings.json" }, args: ["--trust"], code: 0 }, specs);
}

// ---- models.json ----------------------------------------------------------------------------

const MODELS_FIX = "Fix models.json and start pig again; pig has not changed the file.";

function modelsText(world: PigWorld, change: (json: { providers: { fake: Record<string, unknown> } }) => void = () => {}): string {
  const json = fakeModelsJson(world.llm.url, {}) as { providers: { fake: Record<string, unknown> } };
  change(json);
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * A models.json pig cannot use stops the start in every mode, naming the place: running on other
 * models than the file names, or setting one up over it, would hide the mistake.
 */
function modelsSpecs(unusable: Omit<Spec, "inject" | "says">): Record<Fault, Spec> {
  return {
    malformed: {
      // The comma after "api" is gone.
      inject: (world) => ({ text: modelsText(world).replace('"openai-completions",', '"openai-completions"') }),
      says: [`not valid JSON: ',' is expected at line 6, column 7`],
      ...unusable,
    },
    "wrong type at the top": { inject: { text: "[]\n" }, says: [`expected a JSON object ({"providers": {…}}) at the top level, not a list`], ...unusable },
    "wrong type in a field": {
      inject: (world) => ({ text: modelsText(world, (json) => (json.providers.fake.models = 5)) }),
      says: [`"providers.fake.models" (line 7, column 17) must be a list, not 5`],
      ...unusable,
    },
    "unknown keys": {
      inject: (world) => ({
        text: modelsText(world, (json) => {
          json.providers.fake.modls = [];
          (json.providers.fake.models as Record<string, unknown>[])[0]!.contextWindw = 5;
        }),
      }),
      says: [
        'unknown key "providers.fake.models.0.contextWindw" at line 23, column 11 (did you mean "providers.fake.models.0.contextWindow"?); pig ignores it',
        'unknown key "providers.fake.modls" at line 42, column 7 (did you mean "providers.fake.models"?); pig ignores it',
      ],
      code: 0,
      then: answered,
    },
    unreadable: { inject: (world) => ({ unreadable: modelsText(world) }), says: [`cannot be read: permission denied`], ...unusable },
    directory: { inject: { directory: true }, says: [`is a directory, not a file`], ...unusable },
  };
}

/** Nothing started: no request, and no advice about a setup that cannot help. */
const stopped: ConfigCase["then"] = (world, outcome) => {
  expect(world.llm.requests).toHaveLength(0);
  expect(outcome.said).not.toContain("guided setup");
  expect(outcome.said).not.toContain("No model is set up yet");
};

export function modelsCases(): ConfigCase[] {
  const where = { agent: "models.json" };
  const unusable = { code: 1, alsoSays: [MODELS_FIX], then: stopped };
  const print = casesOf("models.json", "print", { where }, modelsSpecs(unusable));
  const commands = [
    { type: "get_state", id: "s" },
    { type: "prompt", message: "hi", id: "p" },
  ];
  const rpc = casesOf("models.json", "rpc", { where, commands }, modelsSpecs(unusable)).filter((c) => c.fault !== "unknown keys");
  // Interactive: the fault and the advice to fix it, and no first-run setup.
  const interactive = casesOf("models.json", "interactive", { where, ready: MODELS_FIX }, modelsSpecs({ alsoSays: [MODELS_FIX], then: stopped })).filter(
    (c) => c.fault === "malformed" || c.fault === "directory",
  );
  return [...print, ...rpc, ...interactive];
}

// ---- auth.json ------------------------------------------------------------------------------

const AUTH_IGNORED = "no key from it is used for this run";

/** The key pig used: models.json's when auth.json gave none. */
function keyUsed(key: string): ConfigCase["then"] {
  return (world, outcome) => {
    answered(world, outcome);
    expect(world.llm.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
  };
}

export function authCases(): ConfigCase[] {
  const fallback = keyUsed("fake-key");
  return casesOf("auth.json", "print", { where: { agent: "auth.json" }, code: 0 }, {
    malformed: {
      inject: { text: '{\n  "fake": { "type": "api_key", "key": "sk-auth" },\n}\n' },
      says: [`not valid JSON: a property name (in double quotes) is expected at line 3, column 1; ${AUTH_IGNORED}`],
      then: fallback,
    },
    "wrong type at the top": {
      inject: { text: '["sk-auth"]\n' },
      says: [`expected a JSON object of providers ({"openai": {"type": "api_key", "key": "…"}}), not a list; ${AUTH_IGNORED}`],
      then: fallback,
    },
    "wrong type in a field": {
      inject: { text: '{\n  "fake": { "type": "api_key", "key": 5 },\n  "groq": { "type": "api_key", "key": "g" }\n}\n' },
      says: ['"fake.key" (line 2, column 39) must be a string, not 5; the "fake" entry is not used for this run'],
      then: fallback,
    },
    "unknown keys": {
      inject: { text: '{\n  "fake": { "type": "api_key", "key": "sk-auth", "kee": "x" },\n  "fkae": { "type": "api_key", "key": "k2" }\n}\n' },
      says: [
        'unknown key "fake.kee" at line 2, column 50 (did you mean "fake.key"?); pig ignores it',
        '"fkae" (line 3, column 3) is not a provider pig knows (did you mean "fake"?); its key is not used',
      ],
      then: keyUsed("sk-auth"),
    },
    unreadable: {
      inject: { unreadable: '{ "fake": { "type": "api_key", "key": "sk-auth" } }\n' },
      says: [`cannot be read: permission denied; ${AUTH_IGNORED}`],
      then: fallback,
    },
    directory: { inject: { directory: true }, says: [`is a directory, not a file; ${AUTH_IGNORED}`], then: fallback },
  });
}

// ---- trust.json -----------------------------------------------------------------------------

const TRUST_IGNORED = "no project counts as trusted until it is fixed or replaced";
const NOT_TRUSTED = "this project has not been trusted yet";
const PROJECT_TEXT = "PROJECT APPEND";

function trustText(world: PigWorld, decision: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const project = realpathSync(world.cwd);
  return `${JSON.stringify({ version: 1, ...extra, projects: { [project]: { trusted: true, decidedAt: "2026-01-01T00:00:00.000Z", ...decision } } }, null, 2)}\n`;
}

function trusted(yes: boolean): ConfigCase["then"] {
  return (world, outcome) => {
    answered(world, outcome);
    if (yes) expect(systemPrompt(world)).toContain(PROJECT_TEXT);
    else expect(systemPrompt(world)).not.toContain(PROJECT_TEXT);
  };
}

export function trustCases(): ConfigCase[] {
  const untrusted = trusted(false);
  const project = (world: PigWorld): string => realpathSync(world.cwd);
  return casesOf(
    "trust.json",
    "print",
    {
      where: { agent: "trust.json" },
      code: 0,
      // The project has a resource that needs trust, so trust.json is consulted.
      prepare: (world) => {
        mkdirSync(join(world.cwd, ".pig"));
        writeFileSync(join(world.cwd, ".pig", "APPEND_SYSTEM.md"), PROJECT_TEXT);
      },
    },
    {
      malformed: {
        inject: { text: '{\n  "version": 1,\n  "projects": {\n' },
        says: [`not valid JSON: '}' is expected at line 4, column 1; ${TRUST_IGNORED}`],
        alsoSays: [NOT_TRUSTED],
        then: untrusted,
      },
      "wrong type at the top": {
        inject: { text: "[]\n" },
        says: [`the top level must be an object, not a list; ${TRUST_IGNORED}`],
        alsoSays: [NOT_TRUSTED],
        then: untrusted,
      },
      "wrong type in a field": {
        inject: (world) => ({ text: trustText(world, { trusted: "yes" }) }),
        says: (world) => [`"projects.${project(world)}.trusted" (line 5, column 18) must be true or false, not "yes"; ${TRUST_IGNORED}`],
        alsoSays: [NOT_TRUSTED],
        then: untrusted,
      },
      "unknown keys": {
        inject: (world) => ({ text: trustText(world, { trustd: false }, { projets: {} }) }),
        says: (world) => [
          'unknown key "projets" at line 3, column 3 (did you mean "projects"?); pig ignores it and keeps it',
          `unknown key "projects.${project(world)}.trustd" at line 8, column 7 (did you mean "projects.${project(world)}.trusted"?); pig ignores it and keeps it`,
        ],
        then: trusted(true),
      },
      unreadable: {
        inject: (world) => ({ unreadable: trustText(world, {}) }),
        says: [`cannot be read: permission denied; ${TRUST_IGNORED}`],
        alsoSays: [NOT_TRUSTED],
        then: untrusted,
      },
      directory: { inject: { directory: true }, says: [`is a directory, not a file; ${TRUST_IGNORED}`], alsoSays: [NOT_TRUSTED], then: untrusted },
    },
  );
}

