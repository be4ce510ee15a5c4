/**
 * Thinking levels: which ones a model supports, clamping a requested level to a supported one,
 * and the effort value an API receives for a level.
 *
 * A model's `thinkingLevelMap` decides (as upstream Pi 0.87.1):
 * - a string value is the wire value sent for that level (e.g. `{ max: "max" }`);
 * - `null` marks the level unsupported;
 * - a missing key means supported with the default value (the level's own name), except the
 *   opt-in levels above `high` (`xhigh`, `max`), which are only supported when the map names them.
 * A model without `reasoning` supports `off` only.
 */
import { THINKING_LEVELS } from "./message-types.ts";
import type { Model, ThinkingLevel } from "./types.ts";

export { THINKING_LEVELS };

export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}

function levelSupported(model: Model, level: ThinkingLevel): boolean {
  if (!model.reasoning) return level === "off";
  const map = model.thinkingLevelMap;
  const value = map?.[level];
  if (value === null) return false;
  if (isOptIn(level)) return typeof value === "string";
  return true;
}

/** The levels above `high`: a model offers them only when its map names them. */
function isOptIn(level: ThinkingLevel): boolean {
  return level === "xhigh" || level === "max";
}

/** The levels `model` accepts, from `off` up. */
export function supportedThinkingLevels(model: Model): ThinkingLevel[] {
  return THINKING_LEVELS.filter((level) => levelSupported(model, level));
}

/**
 * The level actually used for `level` on `model`: itself when supported, else the next higher
 * supported level, else the closest lower one. Models without reasoning always get `off`.
 */
export function clampThinkingLevel(model: Model, level: ThinkingLevel): ThinkingLevel {
  if (!model.reasoning) return "off";
  if (levelSupported(model, level)) return level;
  const index = THINKING_LEVELS.indexOf(level);
  for (let i = index + 1; i < THINKING_LEVELS.length; i++) {
    const candidate = THINKING_LEVELS[i]!;
    if (levelSupported(model, candidate)) return candidate;
  }
  for (let i = index - 1; i >= 0; i--) {
    const candidate = THINKING_LEVELS[i]!;
    if (levelSupported(model, candidate)) return candidate;
  }
  return "off";
}

/**
 * The effort value an API receives for `level`, or undefined when nothing is to be sent:
 * - `off`: the map's `off` string if there is one (some models need an explicit "none"/"minimal"),
 *   else undefined;
 * - a level mapped to a string: that string; mapped to `null`: undefined (unsupported);
 * - unmapped `minimal`/`low`/`medium`/`high`: the level's name; unmapped `xhigh`/`max`: undefined.
 * The level is not clamped here; callers pass an already clamped level.
 */
export function reasoningEffortFor(model: Model, level: ThinkingLevel | undefined): string | undefined {
  if (!model.reasoning) return undefined;
  const value = model.thinkingLevelMap?.[level ?? "off"];
  if (level === undefined || level === "off") return typeof value === "string" ? value : undefined;
  if (value === null) return undefined;
  if (typeof value === "string") return value;
  return isOptIn(level) ? undefined : level;
}

/** True when `level` asks for reasoning on `model` (a reasoning model and a level other than off). */
export function thinkingEnabled(model: Model, level: ThinkingLevel | undefined): boolean {
  return model.reasoning && level !== undefined && level !== "off" && reasoningEffortFor(model, level) !== undefined;
}
