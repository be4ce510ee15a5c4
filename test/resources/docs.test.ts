import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDocs } from "../../src/resources/docs.ts";
import { VERSION } from "../../src/version.ts";

const ROOT = join(import.meta.dir, "..", "..");
let agentDir: string | undefined;
afterEach(() => {
  if (agentDir) rmSync(agentDir, { recursive: true, force: true });
  agentDir = undefined;
});

describe("ensureDocs", () => {
  test("writes this version's docs once, each file as in the repository", () => {
    agentDir = mkdtempSync(join(tmpdir(), "pig-docs-"));
    const dir = ensureDocs(agentDir);
    expect(dir).toBe(join(agentDir, "docs", VERSION));
    expect(readdirSync(dir!).sort()).toEqual(["README.md", "keybindings.md", "models.md", "prompt-templates.md", "sessions.md", "settings.md", "skills.md", "usage.md"]);
    expect(readFileSync(join(dir!, "README.md"), "utf8")).toBe(readFileSync(join(ROOT, "README.md"), "utf8"));
    expect(readFileSync(join(dir!, "usage.md"), "utf8")).toBe(readFileSync(join(ROOT, "docs", "usage.md"), "utf8"));
    // Already there: left as it is.
    writeFileSync(join(dir!, "usage.md"), "changed");
    expect(ensureDocs(agentDir)).toBe(dir);
    expect(readFileSync(join(dir!, "usage.md"), "utf8")).toBe("changed");
  });
});
