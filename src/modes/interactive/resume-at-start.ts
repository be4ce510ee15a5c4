/**
 * `pig -r` / `pig --resume`: the session picker of `/resume`, opened before interactive mode
 * starts. The session chosen is then opened as `--session <file>` opens one; cancelling leaves
 * pig (the caller says so), as upstream does.
 */
import { loadSettings } from "../../resources/settings.ts";
import type { RuntimeConfig } from "../../runtime/config.ts";
import { agentDir as defaultAgentDir, resolveSessionDir } from "../../session/paths.ts";
import { confirmDialog, pickDialog } from "./dialogs.ts";
import { chooseSession, sessionTitle, type PickerHost } from "./session-picker.ts";
import { terminalSafe } from "../../util/terminal-safe.ts";
import { writeStderr } from "../../util/stdio.ts";

/** The file of the session chosen, or undefined when the picker was cancelled or had nothing to offer. */
export async function pickSessionAtStart(config: Pick<RuntimeConfig, "cwd" | "env" | "sessionDir">): Promise<string | undefined> {
  const { cwd, env } = config;
  const agent = defaultAgentDir(env);
  // The directory `--session` looks in before trust is decided: the global settings' sessionDir.
  const setting = loadSettings(agent, cwd, false).settings.sessionDir;
  const sessionDir = resolveSessionDir(cwd, { flag: config.sessionDir, setting, env });
  const say = (message: string) => process.stdout.write(`${terminalSafe(message)}\n`);
  const host: PickerHost = {
    agentDir: agent,
    sessionDir,
    pick: pickDialog,
    confirm: confirmDialog,
    info: say,
    warn: say,
    error: (message) => writeStderr(`pig: ${message}\n`),
  };
  const chosen = await chooseSession(host, "", undefined);
  if (chosen) say(`Resumed "${sessionTitle(chosen)}"`);
  return chosen?.path;
}
