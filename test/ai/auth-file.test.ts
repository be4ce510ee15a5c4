import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadAuthFile, saveApiKey } from "../../src/ai/auth.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("auth.json", () => {
  test("an entry with a mistake is named with its place and left out; the others are used", () => {
    const path = join(tempDir(), "auth.json");
    writeFileSync(path, '{\n  "openai": { "type": "api_key", "key": 5 },\n  "groq": { "type": "api_key", "key": "g" }\n}\n');
    const read = loadAuthFile(path);
    expect(read.auth).toEqual({ groq: { type: "api_key", key: "g" } });
    expect(read.problems).toEqual([
      { what: `${path}: "openai.key" (line 2, column 41) must be a string, not 5`, unused: 'the "openai" entry is not used for this run' },
    ]);
  });

  test("comments are a syntax error (pig rewrites the file whole); nothing is written over a broken file", () => {
    const path = join(tempDir(), "auth.json");
    const text = '{\n  // mine\n  "groq": { "type": "api_key", "key": "g" }\n}\n';
    writeFileSync(path, text);
    expect(loadAuthFile(path).problems[0]!.what).toBe(`${path}: not valid JSON: comments are not allowed in this file at line 2, column 3`);
    expect(() => saveApiKey(path, "openai", "k")).toThrow("pig does not rewrite a file it could not fully read");
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  test("unknown keys of an API-key entry are warned about and kept; OAuth entries may hold anything", () => {
    const path = join(tempDir(), "auth.json");
    writeFileSync(path, JSON.stringify({ groq: { type: "api_key", key: "g", kee: "x" }, copilot: { type: "oauth", refresh: "r", enterpriseUrl: "e" } }));
    const read = loadAuthFile(path, new Set(["groq", "openai"]));
    expect(read.warnings).toEqual([`${path}: unknown key "groq.kee" at line 1, column 37 (did you mean "groq.key"?); pig ignores it`]);
    saveApiKey(path, "openai", "k");
    const written = JSON.parse(readFileSync(path, "utf8"));
    expect(written.groq.kee).toBe("x");
    expect(written.copilot.enterpriseUrl).toBe("e");
  });

  test("a provider name one slip away from a known one is named; other programs' providers are not", () => {
    const path = join(tempDir(), "auth.json");
    writeFileSync(path, JSON.stringify({ opnai: { type: "api_key", key: "k" }, "github-copilot": { type: "oauth" } }));
    expect(loadAuthFile(path, new Set(["openai", "groq"])).warnings).toEqual([
      `${path}: "opnai" (line 1, column 2) is not a provider pig knows (did you mean "openai"?); its key is not used`,
    ]);
  });
});
