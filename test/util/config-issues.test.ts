import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { closestName, editDistance } from "../../src/util/closest.ts";
import { checkConfig, joinIssues } from "../../src/util/config-issues.ts";
import { placeOf } from "../../src/util/jsonc.ts";

describe("closestName", () => {
  test("a swapped pair, a missing letter and a case slip are one edit", () => {
    expect(editDistance("defaultmodle", "defaultmodel")).toBe(1);
    expect(closestName("defaultModle", ["defaultProvider", "defaultModel"])).toBe("defaultModel");
    expect(closestName("modls", ["models", "modelOverrides"])).toBe("models");
    expect(closestName("Theme", ["theme"])).toBe("theme");
  });

  test("nothing close enough gives no suggestion", () => {
    expect(closestName("frobnicate", ["theme", "defaultModel"])).toBeUndefined();
  });
});

describe("placeOf", () => {
  const text = '{\n  "a": {\n    "b": 1\n  }\n}\n';
  test("a value, a key, and a missing key placed at its parent", () => {
    expect(placeOf(text, ["a", "b"])).toBe("line 3, column 10");
    expect(placeOf(text, ["a", "b"], "key")).toBe("line 3, column 5");
    expect(placeOf(text, ["a", "c"])).toBe("line 2, column 8");
  });
});

describe("issues and unknown keys", () => {
  const Schema = v.looseObject({
    level: v.optional(v.picklist(["low", "high"])),
    retry: v.optional(v.looseObject({ enabled: v.optional(v.boolean()) })),
    list: v.optional(v.array(v.object({ id: v.string() }))),
    open: v.optional(v.objectWithRest({ type: v.string() }, v.unknown())),
  });

  test("wrong types name the key and its place, and a near picklist value is suggested", () => {
    const text = '{\n  "level": "hgh",\n  "retry": { "enabled": "yes" },\n  "list": [{}]\n}';
    const checked = checkConfig(Schema, JSON.parse(text), text);
    expect(checked.success).toBe(false);
    const words = joinIssues(checked.issues);
    expect(words).toContain('"level" (line 2, column 12) must be "low" or "high", not "hgh" (did you mean "high"?)');
    expect(words).toContain('"retry.enabled" (line 3, column 25) must be true or false, not "yes"');
    expect(words).toContain('"list.0.id" is missing (in the object at line 4, column 12)');
  });

  test("a list where an object belongs is a mistake (valibot's object schemas take arrays); issues come in file order", () => {
    const text = '{\n  "retry": [],\n  "level": "x"\n}';
    const checked = checkConfig(Schema, JSON.parse(text), text);
    expect(checked.success).toBe(false);
    expect(joinIssues(checked.issues)).toBe('"retry" (line 2, column 12) must be an object, not a list; "level" (line 3, column 12) must be "low" or "high", not "x"');
    expect(checkConfig(Schema, [], "[]").issues.map((i) => i.words)).toEqual(["the top level must be an object, not a list"]);
  });

  test("unknown keys at any depth, with the closest known key; open objects take any key", () => {
    const text = '{\n  "levle": "low",\n  "retry": { "enabeld": true },\n  "list": [{ "id": "a", "idd": 1 }],\n  "open": { "type": "x", "anything": 1 }\n}';
    expect(checkConfig(Schema, JSON.parse(text), text).unknownKeys).toEqual([
      'unknown key "levle" at line 2, column 3 (did you mean "level"?)',
      'unknown key "retry.enabeld" at line 3, column 14 (did you mean "retry.enabled"?)',
      'unknown key "list.0.idd" at line 4, column 25 (did you mean "list.0.id"?)',
    ]);
  });
});
