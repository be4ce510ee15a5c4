import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findPiglets, loadPiglet, parsePiglet, PigletError, UnknownPigletError } from "../../src/resources/piglets.ts";
import { tempDir } from "../helpers/tmp.ts";

const EXAMPLES = join(import.meta.dir, "..", "..", "examples", "piglets");

function failure(run: () => unknown): PigletError {
  try {
    run();
  } catch (error) {
    if (error instanceof PigletError) return error;
    throw error;
  }
  throw new Error("expected a PigletError");
}

describe("parsing a Piglet", () => {
  test("Markdown: the frontmatter's fields, the body as the text to append, paths from the file's directory", () => {
    const text = "---\ndescription: Reviews\nmodel: fake/fake-model\nthinking: high\ntools: read, grep\nskills: [../skills/review]\nextensions: ext.ts\n---\nYou review.\n";
    const { piglet, warnings } = parsePiglet("/home/u/.pig/agent/piglets/reviewer.md", text, "user");
    expect(piglet).toEqual({
      name: "reviewer",
      description: "Reviews",
      filePath: "/home/u/.pig/agent/piglets/reviewer.md",
      scope: "user",
      model: "fake/fake-model",
      thinking: "high",
      tools: ["read", "grep"],
      extensions: ["/home/u/.pig/agent/piglets/ext.ts"],
      skills: ["/home/u/.pig/agent/skills/review"],
      appendSystem: "You review.",
    });
    expect(warnings).toEqual([]);
  });

  test("JSON: the same fields, system replacing the prompt", () => {
    const { piglet } = parsePiglet("/p/docs.json", JSON.stringify({ description: "Docs", system: "Write docs.", prompts: ["t"] }), "project");
    expect(piglet).toMatchObject({ name: "docs", scope: "project", system: "Write docs.", prompts: ["/p/t"] });
    expect(piglet.appendSystem).toBeUndefined();
  });

  test("a bad field is named with its file and line", () => {
    const md = failure(() => parsePiglet("/a/r.md", "---\ndescription: x\nthinking: loud\n---\n", "user"));
    expect(md.message).toBe('/a/r.md:3: field "thinking": must be one of off, minimal, low, medium, high, xhigh, max (got "loud")');
    expect([md.line, md.field]).toEqual([3, "thinking"]);
    const json = failure(() => parsePiglet("/a/r.json", '{\n  "description": "x",\n  "tools": 7\n}', "user"));
    expect(json.message).toBe('/a/r.json:3: field "tools": must be a list of names (or one comma-separated string) (got 7)');
  });

  test("invalid YAML and JSON say where", () => {
    expect(failure(() => parsePiglet("/a/r.md", "---\ndescription: x\ntools: [read\n---\n", "user")).message).toStartWith("/a/r.md:3: invalid YAML frontmatter at line 3");
    expect(failure(() => parsePiglet("/a/r.json", '{\n  "tools": [\n', "user")).message).toStartWith("/a/r.json:3: invalid JSON: ");
    expect(failure(() => parsePiglet("/a/r.json", '{\n  "description": "x",\n  "tools": ["read" "bash"]\n}', "user")).message).toBe(
      "/a/r.json:3: invalid JSON: ',' is expected at line 3, column 20",
    );
    // Hand-written JSON may carry comments and a trailing comma, as settings do.
    expect(parsePiglet("/a/r.json", '{\n  // the reviewer\n  "description": "x",\n}', "user").piglet.description).toBe("x");
    expect(failure(() => parsePiglet("/a/r.json", "[1]", "user")).message).toBe("/a/r.json:1: must be a JSON object of fields");
  });

  test("a name other than the file's, and appendSystem beside a body, are refused", () => {
    expect(failure(() => parsePiglet("/a/r.md", "---\nname: other\n---\n", "user")).message).toBe(
      '/a/r.md:2: field "name": is "other" but the file is named "r.md": a Piglet\'s name is its file\'s name',
    );
    expect(failure(() => parsePiglet("/a/r.md", "---\nappendSystem: x\n---\nbody", "user")).field).toBe("appendSystem");
  });

  test("a misspelt field is a warning naming its line", () => {
    const { warnings } = parsePiglet("/a/r.md", "---\ndescripton: x\n---\n", "user");
    expect(warnings).toEqual(['/a/r.md: frontmatter field "descripton" (line 2) is not one pig knows (did you mean "description"?); ignored']);
  });

  test("the examples parse", () => {
    for (const file of ["reviewer.md", "release-helper.json"]) {
      const { piglet, warnings } = parsePiglet(join(EXAMPLES, file), readFileSync(join(EXAMPLES, file), "utf8"), "user");
      expect(piglet.description).not.toBe("");
      expect(piglet.tools?.length).toBeGreaterThan(0);
      expect(warnings).toEqual([]);
    }
  });
});

describe("finding Piglets", () => {
  function world() {
    const root = tempDir("pig-piglets-");
    const agentDir = join(root, "agent");
    const cwd = join(root, "repo");
    mkdirSync(join(agentDir, "piglets"), { recursive: true });
    mkdirSync(join(cwd, ".pig", "piglets"), { recursive: true });
    writeFileSync(join(agentDir, "piglets", "reviewer.md"), "---\ndescription: mine\n---\n");
    writeFileSync(join(agentDir, "piglets", "writer.json"), '{"description": "writes"}');
    writeFileSync(join(cwd, ".pig", "piglets", "reviewer.md"), "---\ndescription: the project's\n---\n");
    writeFileSync(join(cwd, ".pig", "piglets", "local.md"), "---\ndescription: local\n---\n");
    return { agentDir, cwd };
  }

  test("a trusted project's Piglet overrides the user's of the same name", () => {
    const where = world();
    const catalog = findPiglets({ ...where, trusted: true });
    expect(catalog.files.map((f) => `${f.name}:${f.scope}`)).toEqual(["local:project", "reviewer:project", "writer:user"]);
    expect(loadPiglet("reviewer", { ...where, trusted: true }).piglet.description).toBe("the project's");
  });

  test("an untrusted project's Piglets are not read; asking for one says why", () => {
    const where = world();
    expect(loadPiglet("reviewer", { ...where, trusted: false }).piglet.description).toBe("mine");
    expect(() => loadPiglet("local", { ...where, trusted: false })).toThrow(/Piglet "local" is the project's .* and the project is not trusted/);
  });

  test("an unknown name lists the known ones", () => {
    const where = world();
    let error: unknown;
    try {
      loadPiglet("nope", { ...where, trusted: true });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UnknownPigletError);
    expect((error as Error).message).toStartWith('unknown Piglet "nope"; the Piglets there are: local, reviewer, writer');
  });
});
