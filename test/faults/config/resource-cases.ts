/**
 * Faults in the files that shape how pig looks and what it offers: keybindings.json and theme
 * files (read by the interactive mode only, so checked on its screen), skills (`SKILL.md`) and
 * prompt templates (Markdown with YAML frontmatter, checked in print mode).
 */
import { expect } from "bun:test";
import { answered, lastUserText, systemPrompt, type ConfigCase, type Fault } from "./harness.ts";

type Spec = Pick<ConfigCase, "inject" | "says" | "then">;

function casesOf(file: string, base: Omit<ConfigCase, "file" | "fault" | "inject" | "says">, specs: Record<Fault, Spec>): ConfigCase[] {
  return (Object.entries(specs) as [Fault, Spec][]).map(([fault, spec]) => ({ ...base, file, fault, ...spec }));
}

// ---- keybindings.json -----------------------------------------------------------------------

const DEFAULT_KEYS = "using the default keys";

export function keybindingsCases(): ConfigCase[] {
  return casesOf("keybindings.json", { mode: "interactive", where: { agent: "keybindings.json" } }, {
    malformed: {
      inject: { text: '{\n  "app.model.select": "ctrl+l"\n  "app.exit": "ctrl+d"\n}\n' },
      says: [`not valid JSON: ',' is expected at line 3, column 3; ${DEFAULT_KEYS}`],
    },
    "wrong type at the top": { inject: { text: '["ctrl+l"]\n' }, says: [`expected an object of action ids to keys, not a list; ${DEFAULT_KEYS}`] },
    "wrong type in a field": {
      inject: { text: '{ "app.model.select": 5, "app.exit": { "key": "ctrl+d" } }\n' },
      says: [
        '"app.model.select" must be a key or a list of keys, not 5; its default keys stay',
        '"app.exit" must be a key or a list of keys, not {"key":"ctrl+d"}; its default keys stay',
      ],
    },
    // The file is a flat map of ids: a misspelt new-style id and a misspelt old flat name.
    "unknown keys": {
      inject: { text: '{ "app.model.selct": "ctrl+l", "selectModle": "ctrl+l" }\n' },
      says: [
        'unknown action "app.model.selct" (did you mean "app.model.select"?); ignored',
        'unknown action "selectModle" (did you mean "selectModel"?); ignored',
      ],
    },
    unreadable: { inject: { unreadable: '{ "app.model.select": "ctrl+l" }\n' }, says: [`cannot be read: permission denied; ${DEFAULT_KEYS}`] },
    directory: { inject: { directory: true }, says: [`is a directory, not a file; ${DEFAULT_KEYS}`] },
  });
}

// ---- themes ---------------------------------------------------------------------------------

const DARK = "using the dark theme";

export function themeCases(): ConfigCase[] {
  return casesOf(
    "themes/midnight.json",
    { mode: "interactive", where: { agent: "themes/midnight.json" }, world: { settings: { theme: "midnight" } } },
    {
      malformed: {
        inject: { text: '{\n  "name": "midnight",\n  "colors": {\n    "accent": "#8abeb7",\n' },
        says: [`not valid JSON: a property name (in double quotes) is expected at line 5, column 1; ${DARK}`],
      },
      "wrong type at the top": { inject: { text: "[]\n" }, says: [`expected a JSON object ({"name": …, "colors": {…}}) at the top level; ${DARK}`] },
      "wrong type in a field": {
        inject: { text: '{\n  "name": "midnight",\n  "colors": 5\n}\n' },
        says: [`"colors" (line 3, column 13) must be an object, not 5; ${DARK}`],
      },
      "unknown keys": {
        inject: { text: '{\n  "name": "midnight",\n  "colour": {},\n  "colors": { "acent": "#000000" }\n}\n' },
        says: [
          'unknown key "colour" at line 3, column 3 (did you mean "colors"?); ignored',
          'unknown key "colors.acent" at line 4, column 15 (did you mean "colors.accent"?); ignored',
        ],
      },
      unreadable: { inject: { unreadable: '{ "name": "midnight", "colors": {} }\n' }, says: [`cannot be read: permission denied; ${DARK}`] },
      directory: { inject: { directory: true }, says: [`is a directory, not a file; ${DARK}`] },
    },
  );
}

// ---- skills ---------------------------------------------------------------------------------

const SKILL = "skills/changelog/SKILL.md";
const SKILL_OUT = "skill not loaded";

function skillLoaded(yes: boolean): ConfigCase["then"] {
  return (world, outcome) => {
    answered(world, outcome);
    if (yes) expect(systemPrompt(world)).toContain("<name>changelog</name>");
    else expect(systemPrompt(world)).not.toContain("<name>changelog</name>");
  };
}

export function skillCases(): ConfigCase[] {
  const out = skillLoaded(false);
  return casesOf(SKILL, { mode: "print", where: { agent: SKILL }, code: 0 }, {
    malformed: {
      inject: { text: "---\nname: changelog\ndescription: [unclosed\n---\nWrite it.\n" },
      says: [`invalid YAML frontmatter at line 3 (Unexpected token); ${SKILL_OUT}`],
      then: out,
    },
    "wrong type at the top": {
      inject: { text: "---\n- changelog\n- notes\n---\nWrite it.\n" },
      says: [`the frontmatter must be fields ("name: value" lines), not a list; ${SKILL_OUT}`],
      then: out,
    },
    "wrong type in a field": {
      inject: { text: "---\nname: [change, log]\ndescription: Write a changelog entry.\n---\nWrite it.\n" },
      says: [`frontmatter field "name" (line 2) must be text, not ["change","log"]; ${SKILL_OUT}`],
      then: out,
    },
    // Frontmatter is flat; a misspelt field is named and the skill still loads.
    "unknown keys": {
      inject: { text: "---\nname: changelog\ndescription: Write a changelog entry.\ndisable-model-invokation: true\n---\nWrite it.\n" },
      says: ['frontmatter field "disable-model-invokation" (line 4) is not one pig knows (did you mean "disable-model-invocation"?); ignored'],
      then: skillLoaded(true),
    },
    unreadable: {
      inject: { unreadable: "---\nname: changelog\ndescription: Write a changelog entry.\n---\nWrite it.\n" },
      says: [`cannot be read: permission denied; ${SKILL_OUT}`],
      then: out,
    },
    directory: { inject: { directory: true }, says: [`is a directory, not a file; ${SKILL_OUT}`], then: out },
  });
}

// ---- prompt templates -----------------------------------------------------------------------

const TEMPLATE_OUT = "prompt template not loaded";

/** What reached the model for "/review a.ts": the expansion, or the text as typed. */
function expanded(yes: boolean): ConfigCase["then"] {
  return (world, outcome) => {
    answered(world, outcome);
    expect(lastUserText(world)).toBe(yes ? "Review a.ts now." : "/review a.ts");
  };
}

export function templateCases(): ConfigCase[] {
  const used = expanded(true);
  const unused = expanded(false);
  return casesOf("prompts/review.md", { mode: "print", where: { agent: "prompts/review.md" }, message: "/review a.ts", code: 0 }, {
    malformed: { inject: { text: "---\ndescription: [oops\n---\nReview $1 now.\n" }, says: [`invalid YAML frontmatter at line 2 (Unexpected token); ${TEMPLATE_OUT}`], then: unused },
    "wrong type at the top": {
      inject: { text: "---\n- review\n---\nReview $1 now.\n" },
      says: ['the frontmatter must be fields ("name: value" lines), not a list; it is ignored'],
      then: used,
    },
    "wrong type in a field": {
      inject: { text: "---\ndescription: 5\n---\nReview $1 now.\n" },
      says: ['frontmatter field "description" (line 2) must be text, not 5; the first line of the text describes the template instead'],
      then: used,
    },
    "unknown keys": {
      inject: { text: "---\ndescripton: Review a file\n---\nReview $1 now.\n" },
      says: ['frontmatter field "descripton" (line 2) is not one pig knows (did you mean "description"?); ignored'],
      then: used,
    },
    unreadable: { inject: { unreadable: "---\ndescription: Review a file\n---\nReview $1 now.\n" }, says: [`cannot be read: permission denied; ${TEMPLATE_OUT}`], then: unused },
    directory: { inject: { directory: true }, says: [`is a directory, not a file; ${TEMPLATE_OUT}`], then: unused },
  });
}
