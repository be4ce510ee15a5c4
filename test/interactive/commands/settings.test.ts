import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settingsCommand } from "../../../src/modes/interactive/commands/settings.ts";
import { themeNames } from "../../../src/modes/interactive/theme.ts";
import { makeHost } from "./fake-host.ts";

const saved = (agentDir: string) => JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as Record<string, unknown>;

describe("/settings", () => {
  test("the menu shows each setting's current value", async () => {
    const host = makeHost();
    host.pickAnswers = ["cancel"];
    await settingsCommand.run(host, "");
    expect(host.picks[0]!.options.map((o) => `${o.label}=${o.hint}`)).toEqual([
      "Thinking level=medium",
      "Theme=dark",
      "Steering mode=one-at-a-time",
      "Follow-up mode=one-at-a-time",
      "Auto-compaction=off",
      "Auto-retry=off",
      "Quiet startup=off",
      "Hide thinking=off",
      "Double-escape action=tree: two Escapes on an empty prompt open /tree",
      "Tree filter mode=default: /tree opens showing conversation",
      "Skill commands=on",
      "Autocomplete max items=5",
      "Block images=off",
      "Auto-resize images=on (from the next start)",
    ]);
    // Typing filters the menu.
    expect(host.picks[0]!.config?.search).toBe(true);
  });

  test("several changes in one visit apply now and are saved globally", async () => {
    const host = makeHost();
    host.pickAnswers = [
      { label: "Thinking level" },
      { label: "high" },
      { label: "Steering mode" },
      { label: "all" },
      { label: "Auto-compaction" },
      { value: true },
      { label: "Quiet startup" },
      { value: true },
      "cancel",
    ];
    await settingsCommand.run(host, "");
    expect(host.session.thinkingLevel).toBe("high");
    expect(host.session.steering.mode).toBe("all");
    expect(host.session.autoCompactionEnabled).toBe(true);
    expect(saved(host.agentDir)).toMatchObject({
      defaultThinkingLevel: "high",
      steeringMode: "all",
      compaction: { enabled: true },
      quietStartup: true,
    });
    expect(host.text).toContain("info: Thinking level: high");
    expect(host.text).toContain("info: Quiet startup: on");
  });

  test("thinking levels offered are the model's own", async () => {
    const host = makeHost();
    host.pickAnswers = [{ label: "Thinking level" }, "cancel", "cancel"];
    await settingsCommand.run(host, "");
    expect(host.picks[1]!.options.map((o) => o.label)).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect(host.picks[1]!.config?.initial).toBe("medium");
  });

  test("a model without reasoning has no levels to choose", async () => {
    const host = makeHost();
    host.session.setModel("test", "beta");
    host.pickAnswers = [{ label: "Thinking level" }, "cancel"];
    await settingsCommand.run(host, "");
    expect(host.picks).toHaveLength(2);
    expect(host.text).toContain("does not support thinking levels");
  });

  test("themes: the built-ins and each theme file by name, the first of a name winning", async () => {
    const host = makeHost();
    mkdirSync(join(host.agentDir, "themes"));
    const files = [join(host.agentDir, "themes", "solarized.json"), join(host.agentDir, "themes", "file-name.json"), join(host.agentDir, "themes", "again.json")];
    writeFileSync(files[0]!, "{}");
    writeFileSync(files[1]!, JSON.stringify({ name: "nord", colors: {} }));
    writeFileSync(files[2]!, JSON.stringify({ name: "solarized", colors: {} }));
    host.resources.themes = files;
    expect(themeNames(files)).toEqual(["dark", "light", "solarized", "nord"]);
    host.pickAnswers = [{ label: "Theme" }, { label: "solarized" }, "cancel"];
    await settingsCommand.run(host, "");
    expect(saved(host.agentDir).theme).toBe("solarized");
    expect(host.themesApplied).toEqual(["solarized"]);
  });

  test("a settings file that cannot be saved is reported", async () => {
    const host = makeHost();
    writeFileSync(join(host.agentDir, "settings.json"), "{ not json");
    host.settings.reload();
    host.settings.drainDiagnostics();
    host.pickAnswers = [{ label: "Quiet startup" }, { value: true }, "cancel"];
    await settingsCommand.run(host, "");
    expect(host.text).toContain("warn: ");
    expect(host.text).toContain("not saving quietStartup");
    expect(readFileSync(join(host.agentDir, "settings.json"), "utf8")).toBe("{ not json");
  });

  test("the display settings apply at once, the others are read where they are used; all are saved globally", async () => {
    const host = makeHost();
    host.pickAnswers = [
      { label: "Hide thinking" },
      { value: true },
      { label: "Autocomplete max items" },
      { value: 10 },
      { label: "Double-escape action" },
      { value: "fork" },
      { label: "Skill commands" },
      { value: false },
      { label: "Block images" },
      { value: true },
      { label: "Auto-resize images" },
      { value: false },
      "cancel",
    ];
    await settingsCommand.run(host, "");
    expect(saved(host.agentDir)).toMatchObject({
      hideThinkingBlock: true,
      autocompleteMaxVisible: 10,
      doubleEscapeAction: "fork",
      enableSkillCommands: false,
      images: { blockImages: true, autoResize: false },
    });
    // Thinking shown and the list's rows are the screen's: it reads them again after each of the two.
    expect(host.displaySettingsApplied).toBe(2);
    const effective = host.settings.effective();
    expect([effective.hideThinkingBlock, effective.doubleEscapeAction, effective.images.blockImages]).toEqual([true, "fork", true]);
    expect(host.text).toContain("info: Auto-resize images: off (from the next start)");
    expect(host.text).toContain("info: Double-escape action: fork: two Escapes on an empty prompt open /fork");
  });
});
