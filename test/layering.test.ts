// The layering of shared/design.md, held by the sources: every import of every module in src/
// (type-only and dynamic ones too) goes from a layer to one it may use, and no two layers
// import each other. A failure names the file, the line and the rule. Within src/agent/ no class
// extends another of the module: the session is one object, its parts held by it, not inherited.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { importCycles } from "./helpers/import-cycles.ts";
import { ownSubclasses } from "./helpers/inheritance.ts";
import { checkLayering, importsOf, sourceFiles, withoutComments, type LayerViolation } from "./helpers/layering.ts";

const SRC = join(import.meta.dir, "..", "src");

const describeAll = (violations: readonly LayerViolation[]) =>
  violations.map((v) => `src/${v.file}:${v.line}: ${v.from} → ${v.to}: ${v.rule}`);

describe("layering", () => {
  test("no import in src/ goes against the layering", () => {
    const edges = sourceFiles(SRC).flatMap((file) => importsOf(file, SRC));
    // The scan sees the imports that are there: a sanity floor, not a count to keep up to date.
    expect(edges.filter((e) => e.file.startsWith("agent/") && e.target.startsWith("session/")).length).toBeGreaterThan(10);
    expect(describeAll(checkLayering(edges))).toEqual([]);
  });

  test("no files of src/ import each other in a circle", () => {
    const edges = sourceFiles(SRC).flatMap((file) => importsOf(file, SRC));
    expect(importCycles(edges)).toEqual([]);
  });

  test("a circle of imports is found with all its files, whatever its length; a chain is not a circle", () => {
    const edge = (file: string, target: string) => ({ file, line: 1, target });
    const edges = [edge("r/a.ts", "r/b.ts"), edge("r/b.ts", "r/c.ts"), edge("r/c.ts", "r/a.ts"), edge("r/d.ts", "r/a.ts"), edge("s/x.ts", "s/y.ts"), edge("s/y.ts", "s/x.ts"), edge("t/p.ts", "t/q.ts"), edge("t/q.ts", "t/q.ts")];
    expect(importCycles(edges)).toEqual([["r/a.ts", "r/b.ts", "r/c.ts"], ["s/x.ts", "s/y.ts"]]);
  });

  test("an import against a rule is reported with its file, line and rule", () => {
    const violations = checkLayering([
      { file: "ai/types.ts", line: 7, target: "session/format.ts" },
      { file: "modes/interactive/run.ts", line: 6, target: "cli/args.ts" },
      { file: "runtime/create.ts", line: 3, target: "modes/print.ts" },
      { file: "agent/session.ts", line: 9, target: "session/store.ts" },
    ]);
    expect(describeAll(violations)).toEqual([
      "src/ai/types.ts:7: ai → session: ai may import only util",
      "src/modes/interactive/run.ts:6: modes → cli: nothing imports cli but cli itself (it is the entry point)",
      "src/runtime/create.ts:3: runtime → modes: runtime may import only extensions, agent, mcp, compaction, resources, tools, session, ai, util",
    ]);
  });

  test("layers importing each other are reported as a cycle even when each import is allowed", () => {
    const loose = { a: ["b"], b: ["c"], c: ["a"], d: ["a"] };
    const violations = checkLayering(
      [
        { file: "a/x.ts", line: 1, target: "b/y.ts" },
        { file: "b/y.ts", line: 2, target: "c/z.ts" },
        { file: "c/z.ts", line: 3, target: "a/x.ts" },
        { file: "d/w.ts", line: 4, target: "a/x.ts" },
      ],
      loose,
    );
    expect(violations.map((v) => `${v.file}:${v.line}`)).toEqual(["a/x.ts:1", "b/y.ts:2", "c/z.ts:3"]);
    expect(violations[0]!.rule).toBe("no cycles between layers: a, b, c import each other");
  });

  test("a directory the rules do not know is reported", () => {
    const [violation] = checkLayering([{ file: "plugins/x.ts", line: 1, target: "agent/session.ts" }]);
    expect(violation?.rule).toBe("plugins is not a known layer: give it a place in the layering rules");
  });

  test("static, type-only, re-exported, dynamic and side-effect imports are all found, with their lines", () => {
    const text = [
      'import { a } from "../session/format.ts";',
      "import type {",
      "  B,",
      '} from "../agent/session.ts";',
      'export { c } from "./c.ts";',
      'const d = await import("../tools/index.ts");',
      'type E = typeof import("../cli/args.ts");',
      'import "../util/side-effect.ts";',
      'import { f } from "valibot";',
      'import text from "../../docs/x.md";',
    ].join("\n");
    const edges = importsOf(join(SRC, "ai", "x.ts"), SRC, text);
    expect(edges.map((e) => `${e.line} ${e.target}`)).toEqual([
      "1 session/format.ts",
      "2 agent/session.ts",
      "5 ai/c.ts",
      "6 tools/index.ts",
      "7 cli/args.ts",
      "8 util/side-effect.ts",
    ]);
  });

  test("imports written in comments, strings beside them and regular expressions are not imports", () => {
    const text = [
      '// import { a } from "../cli/args.ts";',
      '/* import("../modes/print.ts")',
      '   still a comment */ const url = "http://example.com"; const re = /["\']/;',
      'const t = `${"//"} ${`nested`}`; import { b } from "../session/format.ts";',
    ].join("\n");
    expect(withoutComments(text).split("\n")).toHaveLength(4);
    const edges = importsOf(join(SRC, "ai", "x.ts"), SRC, text);
    expect(edges.map((e) => `${e.line} ${e.target}`)).toEqual(["4 session/format.ts"]);
  });
});

// src/agent/ has no inheritance: the session is one façade holding its parts, each built from
// what it needs. The second test shows the scan finds a case where there is one.
describe("agent classes", () => {
  test("no class in src/agent/ extends a class of its own module", () => {
    const found = ownSubclasses(sourceFiles(join(SRC, "agent")), SRC);
    expect(found.map((s) => `src/${s.file}:${s.line}: ${s.child} extends ${s.parent}`)).toEqual([]);
  });

  test("a class extending one of its module is found with its file and line; Error and imports are not counted", () => {
    const files: Record<string, string> = {
      "/src/agent/a.ts": "export class Base {}\nexport class Failure extends Error {}",
      "/src/agent/b.ts": "import { Base } from './a.ts';\n// class Old extends Base {}\nexport class Child<T> extends Base {}\nclass Port extends EventTarget {}",
    };
    const found = ownSubclasses(Object.keys(files), "/src", (file) => files[file]!);
    expect(found).toEqual([{ file: "agent/b.ts", line: 3, child: "Child", parent: "Base" }]);
  });
});
