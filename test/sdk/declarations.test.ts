/**
 * Which `.d.ts` files the SDK package ships: those its entry points reach, with the sources'
 * `.ts` names rewritten, refused when they need what a consumer lacks.
 */
import { describe, expect, test } from "bun:test";
import { declarationClosure, importSpecifiers, rewriteRelativeSpecifiers } from "../../scripts/sdk/declarations.ts";

describe("SDK declarations", () => {
  test("every kind of import is found", () => {
    const text = [
      'import type { A } from "../a.ts";',
      'export { b } from "./b.ts";',
      'export * from "./c.ts";',
      'type D = import("./d.ts").D;',
      'import "./e.ts";',
      'import * as v from "valibot";',
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["../a.ts", "./b.ts", "./c.ts", "./d.ts", "./e.ts", "valibot"]);
  });

  test("relative .ts names become .js; packages and other text stay", () => {
    expect(rewriteRelativeSpecifiers('import { a } from "../a/b.ts";\nexport * from \'./c.ts\';\nimport "valibot";\nconst s = "x.ts";')).toBe(
      'import { a } from "../a/b.js";\nexport * from \'./c.js\';\nimport "valibot";\nconst s = "x.ts";',
    );
  });

  test("only the files the entries reach are kept", () => {
    const files: Record<string, string> = {
      "sdk/index.d.ts": 'export * from "./client.ts";',
      "sdk/client.d.ts": 'import type { M } from "../session/format.ts";\nimport type * as v from "valibot";',
      "session/format.d.ts": "export type M = string;",
      "cli/main.d.ts": "export {};",
    };
    const closure = declarationClosure(["sdk/index.d.ts"], (p) => files[p], new Set(["valibot"]));
    expect(closure).toEqual({ files: ["sdk/client.d.ts", "sdk/index.d.ts", "session/format.d.ts"], problems: [], packages: ["valibot"] });
  });

  test("Bun's types, a text import, a package not depended on and a missing file are each named", () => {
    const files: Record<string, string> = {
      "index.d.ts": 'import "./a.ts";\nimport "./b.ts";\nimport "./c.ts";\nimport "./gone.ts";',
      "a.d.ts": "export declare const proc: Bun.Subprocess;",
      "b.d.ts": 'import text from "../docs/x.md";',
      "c.d.ts": 'import type { Express } from "express";',
    };
    const { problems } = declarationClosure(["index.d.ts"], (p) => files[p], new Set());
    expect(problems).toEqual([
      "a.d.ts: names Bun's types, which a Node consumer does not have",
      "b.d.ts: imports the file ../docs/x.md",
      "c.d.ts: imports express, which is not a dependency of the package",
      "gone.d.ts: not written by tsc",
    ]);
  });
});
