/** The unified patch `edit` reports (Pi 0.87's `details.patch`), in the form diff(1) and jsdiff write. */
import { describe, expect, test } from "bun:test";
import { generateUnifiedPatch } from "../../src/tools/unified-patch.ts";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

describe("generateUnifiedPatch", () => {
  test("one hunk with four lines of context, counts on both sides", () => {
    const old = numbered(12);
    const patch = generateUnifiedPatch("a.txt", old, old.replace("line 6\n", "six\n"));
    expect(patch).toBe("--- a.txt\n+++ a.txt\n@@ -2,9 +2,9 @@\n line 2\n line 3\n line 4\n line 5\n-line 6\n+six\n line 7\n line 8\n line 9\n line 10\n");
  });

  test("changes more than eight unchanged lines apart get their own hunks; closer ones share one", () => {
    const old = numbered(30);
    const apart = generateUnifiedPatch("a", old, old.replace("line 3\n", "x\n").replace("line 20\n", "y\n"));
    expect(apart.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,7 +1,7 @@", "@@ -16,9 +16,9 @@"]);
    const close = generateUnifiedPatch("a", old, old.replace("line 3\n", "x\n").replace("line 12\n", "y\n"));
    expect(close.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,16 +1,16 @@"]);
  });

  test("an empty side names the line before it; a last line without a break is marked", () => {
    expect(generateUnifiedPatch("a", "", "new\n")).toBe("--- a\n+++ a\n@@ -0,0 +1,1 @@\n+new\n");
    expect(generateUnifiedPatch("a", "one\ntwo", "one\nTWO")).toBe(
      "--- a\n+++ a\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+TWO\n\\ No newline at end of file\n",
    );
  });
});
