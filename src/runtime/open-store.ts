/**
 * The settings, trust and session file of a run. They decide each other: trust is decided once,
 * for the directory the session runs in, and a session opened by name runs where it was started,
 * so that session is found with the global settings before trust is asked.
 */
import { existsSync, statSync } from "node:fs";
import { mergeSettings, type Settings } from "../resources/settings.ts";
import { SettingsStore } from "../resources/settings-store.ts";
import { decideTrust, type TrustOutcome } from "../resources/trust.ts";
import { mostRecentSession } from "../session/catalog.ts";
import { resolveSessionDir } from "../session/paths.ts";
import { fileKind } from "../session/regular-file.ts";
import { SessionStore } from "../session/store.ts";
import type { RuntimeConfig } from "./config.ts";
import { UserError } from "./errors.ts";
import { findSession } from "./find-session.ts";
import type { TrustAsking } from "./project-trust-stage.ts";

export interface OpenedSession {
  store: SessionStore;
  /** Where the session runs: the stored directory of a session opened by name, else the config's. */
  cwd: string;
  /** The session directory; absent for a session kept in memory. */
  sessionDir: string | undefined;
  trust: TrustOutcome;
  settings: SettingsStore;
  /**
   * The settings in force now. The store replaces its merged settings on every write (`/model`
   * saves the default model), so whatever runs later reads them through this, never a copy.
   */
  liveSettings: () => Settings;
}

async function trustAndSettings(config: RuntimeConfig, cwd: string, agentDir: string, asking: TrustAsking | undefined) {
  const trust = await decideTrust({
    cwd,
    agentDir,
    interactive: config.interactive,
    ...(config.trust !== undefined ? { flag: config.trust } : {}),
    ...(asking ? { askExtensions: () => asking.ask(cwd) } : {}),
  });
  const settings = SettingsStore.load({ agentDir, cwd, includeProject: trust.trusted });
  return { trust, settings };
}

function openStore(config: RuntimeConfig, dir: string, agentDir: string, warnings: string[]): SessionStore {
  const { cwd, session } = config;
  if (session.kind === "none") return SessionStore.create({ cwd });
  if (session.kind === "open") {
    const match = findSession(session.pathOrId, cwd, dir, agentDir);
    if (!existsSync(match.path)) return SessionStore.create({ cwd, path: match.path });
    return SessionStore.open(match.path, { write: true });
  }
  if (session.kind === "continue") {
    const recent = mostRecentSession(dir);
    for (const path of recent.skipped) {
      warnings.push(`${path} ${whyNotSession(path)}; left as it is, ${recent.path ? `continuing ${recent.path}` : "starting a new session"}`);
    }
    if (recent.path) return SessionStore.open(recent.path, { write: true });
  }
  return SessionStore.create({ cwd, dir });
}

/** Why a `.jsonl` file of the sessions folder is no session: not a regular file at all, or not one in form. */
function whyNotSession(path: string): string {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return `is ${fileKind(stats)}, not a session file`;
  } catch {
    // Gone meanwhile: say what was seen.
  }
  return "is not a session file (its first line is not a session header)";
}

/** `asking`: the extensions that may decide project trust (project-trust-stage.ts). */
export async function openSettingsAndSession(config: RuntimeConfig, agentDir: string, warnings: string[], asking?: TrustAsking): Promise<OpenedSession> {
  const byName = config.session.kind === "open";
  let decided = byName ? undefined : await trustAndSettings(config, config.cwd, agentDir, asking);
  const dirSettings = decided?.settings ?? SettingsStore.load({ agentDir, cwd: config.cwd, includeProject: false });
  const dir = resolveSessionDir(config.cwd, { flag: config.sessionDir, setting: dirSettings.settings.sessionDir, env: config.env });
  const store = openStore(config, dir, agentDir, warnings);
  // A session opened by name runs where it was started; --continue stays here (upstream 0.73.1).
  const cwd = byName && store.cwd ? store.cwd : config.cwd;
  if (!existsSync(cwd)) {
    store.close();
    throw new UserError(
      `Stored session working directory does not exist: ${cwd}\nSession file: ${store.path}\nCurrent working directory: ${config.cwd}`,
    );
  }
  try {
    decided ??= await trustAndSettings(config, cwd, agentDir, asking);
  } catch (error) {
    // The caller gets no store to close: a failure deciding trust lets go of its lock here.
    store.close();
    throw error;
  }
  const { trust, settings } = decided;
  if (asking) warnings.push(...asking.warnings);
  if (trust.message) warnings.push(trust.message);
  warnings.push(...trust.diagnostics, ...settings.drainDiagnostics().map((d) => d.message));
  const overrides = config.settingsOverrides;
  return {
    store,
    cwd,
    sessionDir: config.session.kind === "none" ? undefined : dir,
    trust,
    settings,
    liveSettings: () => (overrides ? mergeSettings(settings.settings, overrides) : settings.settings),
  };
}
