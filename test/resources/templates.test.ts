import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ResourcePathOptions } from "../../src/resources/resource-paths.ts";
import {
  expandPromptTemplate,
  loadPromptTemplates,
  parseTemplateArgs,
  substituteArgs,
  type PromptTemplate,
} from "../../src/resources/templates.ts";
import { tempDir } from "../helpers/tmp.ts";

/** A temp HOME with an agent dir and a git project. */
function world() {
  const root = tempDir("pig-templates-");
  const home = join(root, "home");
  const agentDir = join(home, ".pig", "agent");
  const cwd = join(root, "repo");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const write = (base: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, rel)), { recursive: true });
      writeFileSync(join(base, rel), text);
    }
  };
  const load = (extra: Partial<ResourcePathOptions> = {}) => loadPromptTemplates({ cwd, agentDir, home, trusted: true, ...extra });
  return { root, home, agentDir, cwd, project: join(cwd, ".pig"), write, load };
}

describe("loading", () => {
  test("name, description, argument hint and content come from the file", () => {
    const w = world();
    w.write(w.agentDir, {
      "prompts/review.md": "---\ndescription: Review a change\nargument-hint: <file> [focus]\n---\n\nReview $1 with focus on ${@:2}.\n",
    });
    const { templates, diagnostics } = w.load();
    expect(diagnostics).toEqual([]);
    const file = join(w.agentDir, "prompts/review.md");
    expect(templates).toEqual([
      {
        name: "review",
        description: "Review a change",
        argumentHint: "<file> [focus]",
        content: "Review $1 with focus on ${@:2}.",
        filePath: file,
        sourceInfo: { path: file, source: "auto", scope: "user", origin: "top-level", baseDir: w.agentDir },
      },
    ]);
  });

  test("without a description the first non-empty body line is used, cut to 60 characters", () => {
    const w = world();
    const long = "L".repeat(61);
    w.write(w.agentDir, {
      "prompts/short.md": "\n\n  Short first line\nsecond",
      "prompts/long.md": `---\nother: 1\n---\n${long}\n`,
      "prompts/exact.md": "E".repeat(60),
      "prompts/empty.md": "",
    });
    const byName = Object.fromEntries(w.load().templates.map((t) => [t.name, t]));
    expect(byName.short!.description).toBe("  Short first line");
    expect(byName.short!.content).toBe("\n\n  Short first line\nsecond"); // no frontmatter: body kept as is
    expect(byName.long!.description).toBe(`${"L".repeat(60)}...`);
    expect(byName.exact!.description).toBe("E".repeat(60));
    expect(byName.empty!.description).toBe("");
    expect(byName.short!.argumentHint).toBeUndefined();
  });

  test("auto-discovered prompt dirs are not searched recursively; dot-names and non-.md files are skipped", () => {
    const w = world();
    w.write(w.agentDir, { "prompts/a.md": "a", "prompts/sub/b.md": "b", "prompts/.c.md": "c", "prompts/d.txt": "d" });
    expect(w.load().templates.map((t) => t.name)).toEqual(["a"]);
  });

  test("symlinked template files are followed and deduped", () => {
    const w = world();
    w.write(w.root, { "shared/s.md": "shared" });
    mkdirSync(join(w.agentDir, "prompts"), { recursive: true });
    mkdirSync(join(w.project, "prompts"), { recursive: true });
    symlinkSync(join(w.root, "shared/s.md"), join(w.agentDir, "prompts/s.md"));
    symlinkSync(join(w.root, "shared/s.md"), join(w.project, "prompts/s.md"));
    const { templates, diagnostics } = w.load();
    expect(templates.map((t) => t.filePath)).toEqual([join(w.project, "prompts/s.md")]);
    expect(diagnostics).toEqual([]);
  });

  test("project beats user beats CLI; collisions name both files", () => {
    const w = world();
    w.write(w.project, { "prompts/fix.md": "project" });
    w.write(w.agentDir, { "prompts/fix.md": "user" });
    w.write(w.root, { "cli/fix.md": "cli", "cli/only.md": "only" });
    const { templates, diagnostics } = w.load({ cliPaths: [join(w.root, "cli")] });
    expect(templates.map((t) => [t.name, t.content])).toEqual([
      ["fix", "project"],
      ["only", "only"],
    ]);
    expect(diagnostics.map((d) => [d.type, d.collision?.winnerPath, d.collision?.loserPath])).toEqual([
      ["collision", join(w.project, "prompts/fix.md"), join(w.agentDir, "prompts/fix.md")],
      ["collision", join(w.project, "prompts/fix.md"), join(w.root, "cli/fix.md")],
    ]);
    expect(diagnostics[0]!.message).toContain("/fix");
  });

  test("--no-prompt-templates keeps only --prompt-template files", () => {
    const w = world();
    w.write(w.agentDir, { "prompts/u.md": "u" });
    w.write(w.cwd, { "mine.md": "m" });
    expect(w.load({ includeDiscovered: false, cliPaths: ["mine.md"] }).templates.map((t) => t.name)).toEqual(["mine"]);
    expect(w.load({ includeDiscovered: false }).templates).toEqual([]);
  });

  test("a missing --prompt-template path is an error", () => {
    const w = world();
    expect(w.load({ cliPaths: ["nope.md"] }).diagnostics).toEqual([
      { type: "error", message: "Prompt template path does not exist: nope.md", path: "nope.md" },
    ]);
  });

  test("invalid YAML frontmatter skips the template with a warning", () => {
    const w = world();
    w.write(w.agentDir, { "prompts/bad.md": "---\ndescription: [x\n---\nbody", "prompts/good.md": "ok" });
    const { templates, diagnostics } = w.load();
    expect(templates.map((t) => t.name)).toEqual(["good"]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.path).toBe(join(w.agentDir, "prompts/bad.md"));
  });

  test("untrusted projects contribute no templates", () => {
    const w = world();
    w.write(w.project, { "prompts/p.md": "p" });
    expect(w.load({ trusted: false }).templates).toEqual([]);
  });
});

describe("argument parsing", () => {
  test("spaces and tabs split; quotes group and are dropped; no escapes", () => {
    expect(parseTemplateArgs("")).toEqual([]);
    expect(parseTemplateArgs("  a\t\tb  ")).toEqual(["a", "b"]);
    expect(parseTemplateArgs(`"a b" 'c d'`)).toEqual(["a b", "c d"]);
    expect(parseTemplateArgs(`x"y z"w`)).toEqual(["xy zw"]);
    expect(parseTemplateArgs(`"it's" 'say "hi"'`)).toEqual(["it's", 'say "hi"']);
    expect(parseTemplateArgs(`a\\ b`)).toEqual(["a\\", "b"]);
    expect(parseTemplateArgs(`"" ''`)).toEqual([]);
    expect(parseTemplateArgs(`"open ended`)).toEqual(["open ended"]);
    expect(parseTemplateArgs("line\nbreak here")).toEqual(["line\nbreak", "here"]);
  });
});

describe("substitution", () => {
  const args = ["a", "b", "c"];

  test("positional: $1…, missing → empty, multi-digit indexes, $0 is empty", () => {
    expect(substituteArgs("$1-$2-$3-$4", args)).toBe("a-b-c-");
    const eleven = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "ten", "eleven"];
    expect(substituteArgs("$10 $11 $1", eleven)).toBe("ten eleven 1");
    expect(substituteArgs("$10", args)).toBe("");
    expect(substituteArgs("[$0]", args)).toBe("[]");
  });

  test("slices: ${@:N}, ${@:N:L}, N=0 treated as 1, past the end → empty", () => {
    expect(substituteArgs("${@:2}", args)).toBe("b c");
    expect(substituteArgs("${@:0}", args)).toBe("a b c");
    expect(substituteArgs("${@:2:1}", args)).toBe("b");
    expect(substituteArgs("${@:2:5}", args)).toBe("b c");
    expect(substituteArgs("${@:1:0}", args)).toBe("");
    expect(substituteArgs("[${@:4}]", args)).toBe("[]");
    expect(substituteArgs("${@:2}", ["only"])).toBe("");
  });

  test("$ARGUMENTS and $@ are all arguments joined by spaces", () => {
    expect(substituteArgs("$ARGUMENTS | $@", args)).toBe("a b c | a b c");
    expect(substituteArgs("$@", [])).toBe("");
    expect(substituteArgs("${@}", args)).toBe("${@}");
  });

  test("text that is not a placeholder stays", () => {
    expect(substituteArgs("cost: $ and $$ and ${@:x}", args)).toBe("cost: $ and $$ and ${@:x}");
  });

  test("substituted text is never expanded again", () => {
    expect(substituteArgs("$1", ["$2", "x"])).toBe("$2");
    expect(substituteArgs("$1", ["$@", "x"])).toBe("$@");
    expect(substituteArgs("$2", ["a", "${@:1}"])).toBe("${@:1}");
    expect(substituteArgs("$ARGUMENTS", ["$&", "$$"])).toBe("$& $$");
  });
});

describe("expansion", () => {
  const templates: PromptTemplate[] = [
    {
      name: "greet",
      description: "",
      content: "Hello $1! All: $@",
      filePath: "/t/greet.md",
      sourceInfo: { path: "/t/greet.md", source: "auto", scope: "user", origin: "top-level" },
    },
  ];

  test("/name with and without arguments", () => {
    expect(expandPromptTemplate("/greet", templates)).toBe("Hello ! All: ");
    expect(expandPromptTemplate(`/greet "Ada L" and Bob`, templates)).toBe("Hello Ada L! All: Ada L and Bob");
  });

  test("other text, unknown names and longer names are unchanged", () => {
    expect(expandPromptTemplate("greet me", templates)).toBe("greet me");
    expect(expandPromptTemplate("/greeting x", templates)).toBe("/greeting x");
    expect(expandPromptTemplate("/nope", templates)).toBe("/nope");
  });

  test("only a space ends the name, as upstream", () => {
    expect(expandPromptTemplate("/greet\tx", templates)).toBe("/greet\tx");
    expect(expandPromptTemplate("/greet\nx", templates)).toBe("/greet\nx");
  });
});
