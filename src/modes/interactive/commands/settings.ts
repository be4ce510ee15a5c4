/**
 * `/settings`: a menu of the settings worth changing mid-session — every one of upstream's
 * `/settings` that pig has (docs/settings.md lists upstream's and where each stands), and pig's
 * own thinking level and auto-retry. Each change applies now (or, where the value is read once
 * at start, says so) and is saved to the global settings file; the menu comes back until it is
 * closed, so several things can be changed in one go.
 */
import { supportedThinkingLevels, THINKING_LEVELS } from "../../../ai/thinking.ts";
import type { QueueMode } from "../../../agent/queue.ts";
import type { EffectiveSettings } from "../../../resources/settings-effective.ts";
import type { ThinkingLevel } from "../../../session/format.ts";
import type { InteractiveHost, PickOption, SlashCommand } from "../host.ts";
import { detectThemeName, themeNames } from "../theme.ts";
import { FILTER_NAMES, FILTER_OF_SETTING } from "../tree/tree-rows.ts";
import { about } from "./about.ts";

interface Setting {
  label: string;
  current(host: InteractiveHost): string;
  /** Asks for the new value and applies it; false when the question was cancelled. */
  change(host: InteractiveHost): Promise<boolean>;
}

const onOff = (value: boolean) => (value ? "on" : "off");

async function pickValue<T extends string | boolean | number>(
  host: InteractiveHost,
  message: string,
  values: readonly T[],
  current: T,
  label: (value: T) => string = String,
): Promise<T | undefined> {
  const options: PickOption<T>[] = values.map((value) => ({
    value,
    label: label(value),
    ...(value === current ? { hint: "current" } : {}),
  }));
  return host.pick(message, options, { initial: current });
}

const QUEUE_MODES: readonly QueueMode[] = ["one-at-a-time", "all"];

/** A setting kept in the settings file, with the values offered: saved globally, then `apply` (if any) makes it count now. */
function choiceSetting<T extends string | boolean | number>(
  label: string,
  path: readonly string[],
  values: readonly T[],
  read: (settings: EffectiveSettings) => T,
  describe: (value: T) => string = String,
  apply?: (host: InteractiveHost) => void,
): Setting {
  return {
    label,
    current: (host) => describe(read(host.settings.effective())),
    async change(host) {
      const value = await pickValue(host, label, values, read(host.settings.effective()), describe);
      if (value === undefined) return false;
      host.settings.setGlobal([...path], value);
      apply?.(host);
      return true;
    },
  };
}

const onOffSetting = (label: string, path: readonly string[], read: (settings: EffectiveSettings) => boolean, apply?: (host: InteractiveHost) => void) =>
  choiceSetting(label, path, [true, false], read, onOff, apply);

/** Values pig reads once, when it starts: the row says so. */
const fromNextStart = (value: boolean) => `${onOff(value)} (from the next start)`;

function queueSetting(label: string, which: "steering" | "followUps"): Setting {
  return {
    label,
    current: (host) => host.session[which].mode,
    async change(host) {
      const mode = await pickValue(host, label, QUEUE_MODES, host.session[which].mode, (m) =>
        m === "all" ? "all: deliver every queued message at once" : "one-at-a-time: deliver queued messages one per turn",
      );
      if (mode === undefined) return false;
      if (which === "steering") host.session.setSteeringMode(mode);
      else host.session.setFollowUpMode(mode);
      return true;
    },
  };
}

function toggleSetting(label: string, get: (host: InteractiveHost) => boolean, set: (host: InteractiveHost, on: boolean) => void): Setting {
  return {
    label,
    current: (host) => onOff(get(host)),
    async change(host) {
      const value = await pickValue(host, label, [true, false], get(host), onOff);
      if (value === undefined) return false;
      set(host, value);
      return true;
    },
  };
}

export const SETTINGS: readonly Setting[] = [
  {
    label: "Thinking level",
    current: (host) => host.session.thinkingLevel,
    async change(host) {
      const model = host.session.model;
      const levels: readonly ThinkingLevel[] = model ? supportedThinkingLevels(model) : THINKING_LEVELS;
      if (levels.length < 2) {
        host.info(`${model ? `${model.provider}/${model.id}` : "This model"} does not support thinking levels.`);
        return true;
      }
      const level = await pickValue(host, "Thinking level", levels, host.session.thinkingLevel);
      if (level === undefined) return false;
      host.session.setThinkingLevel(level);
      return true;
    },
  },
  {
    label: "Theme",
    current: (host) => host.settings.settings.theme ?? detectThemeName(),
    async change(host) {
      const theme = await pickValue(host, "Theme", themeNames(host.resources.themes), host.settings.settings.theme ?? detectThemeName());
      if (theme === undefined) return false;
      host.settings.setGlobal(["theme"], theme);
      host.applyTheme(theme);
      return true;
    },
  },
  queueSetting("Steering mode", "steering"),
  queueSetting("Follow-up mode", "followUps"),
  toggleSetting(
    "Auto-compaction",
    (host) => host.session.autoCompactionEnabled,
    (host, on) => host.session.setAutoCompaction(on),
  ),
  toggleSetting(
    "Auto-retry",
    (host) => host.session.retry.enabled,
    (host, on) => host.session.setAutoRetry(on),
  ),
  onOffSetting("Quiet startup", ["quietStartup"], (s) => s.quietStartup),
  onOffSetting("Hide thinking", ["hideThinkingBlock"], (s) => s.hideThinkingBlock, (host) => host.applyDisplaySettings()),
  choiceSetting(
    "Double-escape action",
    ["doubleEscapeAction"],
    ["tree", "fork", "none"] as const,
    (s) => s.doubleEscapeAction,
    (action) => (action === "none" ? "none: two Escapes do nothing" : `${action}: two Escapes on an empty prompt open /${action}`),
  ),
  choiceSetting(
    "Tree filter mode",
    ["treeFilterMode"],
    ["default", "no-tools", "user-only", "labeled-only", "all"] as const,
    (s) => s.treeFilterMode,
    (mode) => `${mode}: /tree opens showing ${FILTER_NAMES[FILTER_OF_SETTING[mode]]}`,
  ),
  onOffSetting("Skill commands", ["enableSkillCommands"], (s) => s.enableSkillCommands),
  choiceSetting(
    "Autocomplete max items",
    ["autocompleteMaxVisible"],
    [3, 5, 7, 10, 15, 20],
    (s) => s.autocompleteMaxVisible,
    String,
    (host) => host.applyDisplaySettings(),
  ),
  onOffSetting("Block images", ["images", "blockImages"], (s) => s.images.blockImages),
  choiceSetting("Auto-resize images", ["images", "autoResize"], [true, false], (s) => s.images.autoResize, fromNextStart),
];

/** Says why a change was not saved (the settings store keeps it for this run only). */
function reportUnsaved(host: InteractiveHost): void {
  for (const diagnostic of host.settings.drainDiagnostics()) host.warn(diagnostic.message);
}

export const settingsCommand: SlashCommand = {
  ...about("settings"),
  async run(host) {
    let last: Setting | undefined;
    for (;;) {
      const options = SETTINGS.map((setting) => ({ value: setting, label: setting.label, hint: setting.current(host) }));
      const setting = await host.pick("Settings (type to filter, Escape to close)", options, { search: true, ...(last ? { initial: last } : {}) });
      if (!setting) return;
      last = setting;
      const before = setting.current(host);
      if (!(await setting.change(host))) continue;
      const after = setting.current(host);
      if (after !== before) host.info(`${setting.label}: ${after}`);
      reportUnsaved(host);
    }
  },
};
