/** Reading settings.json: merge, migrations, errors that say where, defaults. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSettings, mergeSettings, migrateSettings, readSettingsScope } from "../../src/resources/settings.ts";
import { effectiveSettings, retrySettings, settingsDefaults } from "../../src/resources/settings-effective.ts";
import { tempDir } from "../helpers/tmp.ts";

function dirs() {
  const root = tempDir("pig-settings-");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".pig"), { recursive: true });
  return { agentDir, cwd, global: join(agentDir, "settings.json"), project: join(cwd, ".pig", "settings.json") };
}

describe("merging scopes", () => {
  test("project objects merge one level into global ones; scalars and arrays replace", () => {
    const { agentDir, cwd, global, project } = dirs();
    writeFileSync(
      global,
      JSON.stringify({ defaultModel: "a", compaction: { enabled: false, reserveTokens: 1000 }, skills: ["g1", "g2"], retry: { provider: { timeoutMs: 5 } } }),
    );
    writeFileSync(project, JSON.stringify({ defaultModel: "b", compaction: { reserveTokens: 2000 }, skills: ["p1"], retry: { provider: { maxRetries: 1 } } }));
    const loaded = loadSettings(agentDir, cwd, true);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.settings.defaultModel).toBe("b");
    expect(loaded.settings.compaction).toEqual({ enabled: false, reserveTokens: 2000 });
    expect(loaded.settings.skills).toEqual(["p1"]);
    // One level only: the project's `retry.provider` replaces the global one wholesale.
    expect(loaded.settings.retry).toEqual({ provider: { maxRetries: 1 } });
  });

  test("the project file is not read when the project is left out", () => {
    const { agentDir, cwd, global, project } = dirs();
    writeFileSync(global, JSON.stringify({ theme: "dark" }));
    writeFileSync(project, JSON.stringify({ theme: "light" }));
    expect(loadSettings(agentDir, cwd, false).settings.theme).toBe("dark");
  });

  test("a project object over a global scalar replaces it", () => {
    expect(mergeSettings({ markdown: { codeBlockIndent: "    " } }, { markdown: { codeBlockIndent: "\t" } })).toEqual({
      markdown: { codeBlockIndent: "\t" },
    });
    expect(mergeSettings({ images: { autoResize: false } }, {})).toEqual({ images: { autoResize: false } });
  });

  test("comments and trailing commas are accepted, an empty file counts as {}", () => {
    const { agentDir, cwd, global, project } = dirs();
    writeFileSync(global, '{\n  // my model\n  "defaultModel": "x",\n}\n');
    writeFileSync(project, "");
    const loaded = loadSettings(agentDir, cwd, true);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.settings.defaultModel).toBe("x");
  });

  test("unknown keys survive loading", () => {
    const { agentDir, cwd, global } = dirs();
    writeFileSync(global, JSON.stringify({ somethingNew: { a: 1 }, terminal: { futureFlag: true } }));
    const loaded = loadSettings(agentDir, cwd, false);
    expect(loaded.settings).toEqual({ somethingNew: { a: 1 }, terminal: { futureFlag: true } });
  });
});

describe("migrations", () => {
  test("queueMode becomes steeringMode unless steeringMode is set", () => {
    expect(migrateSettings({ queueMode: "all" })).toEqual({ steeringMode: "all" });
    expect(migrateSettings({ queueMode: "all", steeringMode: "one-at-a-time" })).toEqual({
      queueMode: "all",
      steeringMode: "one-at-a-time",
    });
  });

  test("the websockets boolean becomes transport", () => {
    expect(migrateSettings({ websockets: true })).toEqual({ transport: "websocket" });
    expect(migrateSettings({ websockets: false })).toEqual({ transport: "sse" });
    expect(migrateSettings({ websockets: true, transport: "auto" })).toEqual({ websockets: true, transport: "auto" });
  });

  test("the old skills object becomes enableSkillCommands and a skills list", () => {
    expect(migrateSettings({ skills: { enableSkillCommands: false, customDirectories: ["~/s"] } })).toEqual({
      enableSkillCommands: false,
      skills: ["~/s"],
    });
    // No directories: no skills key at all.
    expect(migrateSettings({ skills: { customDirectories: [] } })).toEqual({});
    expect(migrateSettings({ enableSkillCommands: true, skills: { enableSkillCommands: false } })).toEqual({
      enableSkillCommands: true,
    });
  });

  test("retry.maxDelayMs moves to retry.provider.maxRetryDelayMs unless that is set", () => {
    expect(migrateSettings({ retry: { maxDelayMs: 5000, enabled: false } })).toEqual({
      retry: { enabled: false, provider: { maxRetryDelayMs: 5000 } },
    });
    expect(migrateSettings({ retry: { maxDelayMs: 5000, provider: { maxRetryDelayMs: 9, timeoutMs: 1 } } })).toEqual({
      retry: { provider: { maxRetryDelayMs: 9, timeoutMs: 1 } },
    });
    // A non-number is just dropped.
    expect(migrateSettings({ retry: { maxDelayMs: "soon" } })).toEqual({ retry: {} });
  });

  test("migrations apply when a file is loaded, and the input object is not changed", () => {
    const { agentDir, cwd, global } = dirs();
    writeFileSync(global, JSON.stringify({ queueMode: "all", websockets: true, retry: { maxDelayMs: 7 } }));
    const loaded = loadSettings(agentDir, cwd, false);
    expect(loaded.settings).toEqual({ steeringMode: "all", transport: "websocket", retry: { provider: { maxRetryDelayMs: 7 } } });
    const raw = { queueMode: "all" };
    migrateSettings(raw);
    expect(raw).toEqual({ queueMode: "all" });
  });
});

describe("errors", () => {
  test("invalid JSON names the file, line and column; the scope is ignored and the file untouched", () => {
    const { agentDir, cwd, global, project } = dirs();
    const broken = '{\n  "defaultModel": "x"\n  "theme": "dark"\n}\n';
    writeFileSync(global, broken);
    writeFileSync(project, JSON.stringify({ theme: "light" }));
    const loaded = loadSettings(agentDir, cwd, true);
    expect(loaded.diagnostics).toHaveLength(1);
    const message = loaded.diagnostics[0]!.message;
    expect(message).toContain(global);
    expect(message).toContain("line 3, column 3");
    expect(message).toContain("ignored for this run");
    expect(loaded.global).toEqual({});
    expect(loaded.settings).toEqual({ theme: "light" });
    expect(readFileSync(global, "utf8")).toBe(broken);
    expect(readSettingsScope(global).problem).toBe("syntax");
  });

  test("a wrong-typed value names the key, where it is and what was expected", () => {
    const { agentDir, cwd, project } = dirs();
    writeFileSync(project, '{\n  "compaction": {\n    "enabled": "yes"\n  },\n  "transport": "carrier-pigeon"\n}\n');
    const loaded = loadSettings(agentDir, cwd, true);
    expect(loaded.project).toEqual({});
    const message = loaded.diagnostics[0]!.message;
    expect(message).toContain(project);
    expect(message).toContain('"compaction.enabled" (line 3, column 16) must be true or false, not "yes"');
    expect(message).toContain('"transport" (line 5, column 16) must be "sse" or "websocket" or "websocket-cached" or "auto"');
    expect(readSettingsScope(project).problem).toBe("type");
  });

  test("shellEnvPassthrough takes names of environment variables only, and says which entry is not one", () => {
    const { agentDir, cwd, global } = dirs();
    writeFileSync(global, '{\n  "shellEnvPassthrough": ["GITHUB_TOKEN", "NPM TOKEN"]\n}\n');
    const loaded = loadSettings(agentDir, cwd, false);
    expect(loaded.global).toEqual({});
    const message = loaded.diagnostics[0]!.message;
    expect(message).toContain(global);
    expect(message).toContain('"shellEnvPassthrough.1" (line 2, column 43) must be the name of an environment variable');
  });

  test("an unknown key is a warning naming it and the closest setting; the file is used and the key kept", () => {
    const { agentDir, cwd, global } = dirs();
    writeFileSync(global, '{\n  "defaultModle": "m",\n  "retry": { "enabeld": false },\n  "theme": "light"\n}\n');
    const loaded = loadSettings(agentDir, cwd, false);
    expect(loaded.settings.theme).toBe("light");
    expect((loaded.global as Record<string, unknown>).defaultModle).toBe("m");
    expect(loaded.diagnostics.map((d) => d.message)).toEqual([
      `${global}: unknown key "defaultModle" at line 2, column 3 (did you mean "defaultModel"?); pig ignores it and leaves it in the file`,
      `${global}: unknown key "retry.enabeld" at line 3, column 14 (did you mean "retry.enabled"?); pig ignores it and leaves it in the file`,
    ]);
    expect(readSettingsScope(global).problem).toBeUndefined();
  });

  test("keys of newer upstream versions are accepted without a warning", () => {
    const { global } = dirs();
    writeFileSync(global, JSON.stringify({ tuiMode: "regular", retry: { maxAgentDelayMs: 1 }, markdown: { mermaid: "off" } }));
    expect(readSettingsScope(global).diagnostics).toEqual([]);
  });

  test("retry.provider.idleTimeoutMs must be a number of ms, 0 or more", () => {
    const { global } = dirs();
    for (const [value, received] of [['"5m"', '"5m"'], ["-1", "-1"]] as const) {
      writeFileSync(global, `{"retry": {"provider": {"idleTimeoutMs": ${value}}}}`);
      const result = readSettingsScope(global);
      expect(result.problem).toBe("type");
      expect(result.diagnostics[0]!.message).toContain(`"retry.provider.idleTimeoutMs" (line 1, column 42) must be`);
      expect(result.diagnostics[0]!.message).toContain(`not ${received}`);
    }
    writeFileSync(global, '{"retry": {"provider": {"idleTimeoutMs": 0}}}');
    expect(retrySettings(readSettingsScope(global).settings!).provider.idleTimeoutMs).toBe(0);
  });

  test("a top level that is not an object is reported", () => {
    const { global } = dirs();
    writeFileSync(global, "[1, 2]");
    const result = readSettingsScope(global);
    expect(result.problem).toBe("syntax");
    expect(result.diagnostics[0]!.message).toContain("expected a JSON object");
  });

  test("a file that cannot be read is reported as unreadable", () => {
    const { global } = dirs();
    mkdirSync(global);
    const result = readSettingsScope(global);
    expect(result.problem).toBe("unreadable");
    expect(result.diagnostics[0]!.message).toContain(`${global}: is a directory, not a file`);
  });

  test("every key of the reference validates with its documented type", () => {
    const { global } = dirs();
    const all = {
      defaultProvider: "anthropic",
      defaultModel: "m",
      defaultThinkingLevel: "xhigh",
      transport: "websocket-cached",
      steeringMode: "all",
      followUpMode: "one-at-a-time",
      theme: "light",
      compaction: { enabled: true, reserveTokens: 1, keepRecentTokens: 2 },
      branchSummary: { reserveTokens: 3, skipPrompt: true },
      retry: { enabled: true, maxRetries: 1, baseDelayMs: 2, provider: { timeoutMs: 3, maxRetries: 4, maxRetryDelayMs: 5, idleTimeoutMs: 6 } },
      hideThinkingBlock: true,
      shellPath: "/bin/sh",
      shellCommandPrefix: "set -e",
      shellEnvPassthrough: ["GITHUB_TOKEN"],
      quietStartup: true,
      npmCommand: ["bun"],
      collapseChangelog: true,
      lastChangelogVersion: "1.0.0",
      enableInstallTelemetry: false,
      packages: ["npm:foo", { source: "git:github.com/a/b", skills: [], extensions: ["x.ts"] }],
      extensions: ["e"],
      skills: ["s"],
      prompts: ["p"],
      themes: ["t"],
      enableSkillCommands: false,
      terminal: { showImages: false, imageWidthCells: 40, clearOnShrink: true, showTerminalProgress: true },
      images: { autoResize: false, blockImages: true },
      enabledModels: ["a/*"],
      doubleEscapeAction: "fork",
      treeFilterMode: "labeled-only",
      thinkingBudgets: { minimal: 1, low: 2, medium: 3, high: 4 },
      editorPaddingX: 2,
      autocompleteMaxVisible: 10,
      showHardwareCursor: true,
      markdown: { codeBlockIndent: "\t" },
      warnings: { anthropicExtraUsage: false },
      sessionDir: "~/s",
    };
    writeFileSync(global, JSON.stringify(all));
    const result = readSettingsScope(global);
    expect(result.diagnostics).toEqual([]);
    expect(result.settings as unknown).toEqual(all);
  });
});

describe("defaults", () => {
  test("an empty configuration gives upstream's defaults", () => {
    const s = effectiveSettings({}, {}, "/home/u");
    expect(s.defaultThinkingLevel).toBe("medium");
    expect(s.transport).toBe("auto");
    expect(s.steeringMode).toBe("one-at-a-time");
    expect(s.followUpMode).toBe("one-at-a-time");
    expect(s.compaction).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
    expect(s.branchSummary).toEqual({ reserveTokens: 16384, skipPrompt: false });
    expect(s.retry).toEqual({ enabled: true, maxRetries: 3, baseDelayMs: 2000, provider: { maxRetryDelayMs: 60000, idleTimeoutMs: 300000 } });
    expect(s.terminal).toEqual({ showImages: true, imageWidthCells: 60, clearOnShrink: false, showTerminalProgress: false });
    expect(s.images).toEqual({ autoResize: true, blockImages: false });
    expect(s.doubleEscapeAction).toBe("tree");
    expect(s.treeFilterMode).toBe("default");
    expect([s.hideThinkingBlock, s.quietStartup, s.collapseChangelog, s.showHardwareCursor]).toEqual([false, false, false, false]);
    expect([s.enableSkillCommands, s.enableInstallTelemetry, s.warnings.anthropicExtraUsage]).toEqual([true, true, true]);
    expect([s.editorPaddingX, s.autocompleteMaxVisible, s.codeBlockIndent]).toEqual([0, 5, "  "]);
    expect(s.sessionDir).toBeUndefined();
    expect(settingsDefaults.transport).toBe("auto");
  });

  test("set values win, partial objects are completed, ranges are clamped, ~ is expanded", () => {
    const s = effectiveSettings(
      { compaction: { enabled: false }, editorPaddingX: 9, autocompleteMaxVisible: 1, terminal: { imageWidthCells: 0.5 }, sessionDir: "~/sess" },
      {},
      "/home/u",
    );
    expect(s.compaction).toEqual({ enabled: false, reserveTokens: 16384, keepRecentTokens: 20000 });
    expect([s.editorPaddingX, s.autocompleteMaxVisible, s.terminal.imageWidthCells]).toEqual([3, 3, 1]);
    expect(s.sessionDir).toBe("/home/u/sess");
  });

  test("PI_CLEAR_ON_SHRINK and PI_HARDWARE_CURSOR apply only when the setting is absent", () => {
    const env = { PI_CLEAR_ON_SHRINK: "1", PI_HARDWARE_CURSOR: "1" };
    expect(effectiveSettings({}, env).terminal.clearOnShrink).toBe(true);
    expect(effectiveSettings({}, env).showHardwareCursor).toBe(true);
    expect(effectiveSettings({ terminal: { clearOnShrink: false }, showHardwareCursor: false }, env).terminal.clearOnShrink).toBe(false);
    expect(effectiveSettings({ showHardwareCursor: false }, env).showHardwareCursor).toBe(false);
  });

  test("retrySettings keeps provider limits only when given", () => {
    expect(retrySettings({ retry: { provider: { timeoutMs: 10 } } }).provider).toEqual({ timeoutMs: 10, maxRetryDelayMs: 60000, idleTimeoutMs: 300000 });
  });
});
