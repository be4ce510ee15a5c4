/** AGENTS.md / CLAUDE.md: which files load, in which order. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadContextFiles } from "../../src/resources/context-files.ts";
import { tempDir } from "../helpers/tmp.ts";

function setup() {
  const root = realpathSync(tempDir("pig-context-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "a", "b", "c");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, agentDir, cwd };
}

/** Files above the temp dir (say a stray /tmp/AGENTS.md) are not this test's business. */
function load(options: { cwd: string; agentDir: string; enabled?: boolean }, root: string) {
  const result = loadContextFiles(options);
  return { ...result, files: result.files.filter((f) => f.path.startsWith(root)) };
}

describe("context files", () => {
  test("agent dir first, then root-to-cwd with the closest last, one file per directory", () => {
    const { root, agentDir, cwd } = setup();
    writeFileSync(join(agentDir, "AGENTS.md"), "global");
    writeFileSync(join(root, "CLAUDE.md"), "root");
    writeFileSync(join(root, "a", "AGENTS.md"), "a-agents");
    writeFileSync(join(root, "a", "CLAUDE.md"), "a-claude (shadowed)");
    writeFileSync(join(cwd, "AGENTS.md"), "c");
    const { files, diagnostics } = load({ cwd, agentDir }, root);
    expect(diagnostics).toEqual([]);
    expect(files).toEqual([
      { path: join(agentDir, "AGENTS.md"), content: "global" },
      { path: join(root, "CLAUDE.md"), content: "root" },
      { path: join(root, "a", "AGENTS.md"), content: "a-agents" },
      { path: join(cwd, "AGENTS.md"), content: "c" },
    ]);
  });

  test("upper-case names count, after the usual spelling of the same name", () => {
    const { root, agentDir, cwd } = setup();
    writeFileSync(join(root, "a", "AGENTS.MD"), "upper agents");
    writeFileSync(join(root, "a", "CLAUDE.md"), "claude");
    writeFileSync(join(root, "a", "b", "CLAUDE.MD"), "upper claude");
    writeFileSync(join(cwd, "AGENTS.md"), "lower");
    writeFileSync(join(cwd, "AGENTS.MD"), "upper (shadowed)");
    const { files } = load({ cwd, agentDir }, root);
    expect(files.map((f) => f.content)).toEqual(["upper agents", "upper claude", "lower"]);
  });

  test("content is verbatim", () => {
    const { root, agentDir, cwd } = setup();
    writeFileSync(join(cwd, "AGENTS.md"), "\n  keep  this \r\n\n");
    expect(load({ cwd, agentDir }, root).files.at(-1)?.content).toBe("\n  keep  this \r\n\n");
  });

  test("a file that cannot be read is reported and the next name in that directory is tried", () => {
    const { root, agentDir, cwd } = setup();
    mkdirSync(join(cwd, "AGENTS.md")); // a directory: exists, cannot be read as a file
    writeFileSync(join(cwd, "CLAUDE.md"), "fallback");
    const { files, diagnostics } = load({ cwd, agentDir }, root);
    expect(files.at(-1)).toEqual({ path: join(cwd, "CLAUDE.md"), content: "fallback" });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ level: "warning", path: join(cwd, "AGENTS.md") });
    expect(diagnostics[0]!.message).toContain(`Could not read ${join(cwd, "AGENTS.md")}`);
  });

  test("the agent dir inside the cwd chain is loaded once, in the agent-dir position", () => {
    const { root, cwd } = setup();
    const agentDir = join(root, "a");
    writeFileSync(join(agentDir, "AGENTS.md"), "both");
    writeFileSync(join(cwd, "AGENTS.md"), "c");
    expect(load({ cwd, agentDir }, root).files.map((f) => f.content)).toEqual(["both", "c"]);
  });

  test("disabled (--no-context-files): none at all", () => {
    const { agentDir, cwd } = setup();
    writeFileSync(join(agentDir, "AGENTS.md"), "global");
    writeFileSync(join(cwd, "AGENTS.md"), "c");
    expect(loadContextFiles({ cwd, agentDir, enabled: false })).toEqual({ files: [], diagnostics: [] });
  });
});
