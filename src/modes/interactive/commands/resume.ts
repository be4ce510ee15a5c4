/** `/resume [search]`: continue another session, chosen in the session picker. */
import type { SlashCommand } from "../host.ts";
import { chooseSession, defaultResumeDeps, sessionTitle, type ResumeDeps } from "../session-picker.ts";
import { refuseWhileRunning } from "./guards.ts";
import { about } from "./about.ts";

export type { ResumeDeps } from "../session-picker.ts";

export function createResumeCommand(deps: ResumeDeps = defaultResumeDeps): SlashCommand {
  return {
    ...about("resume"),
    async run(host, args) {
      if (refuseWhileRunning(host, "resume another session")) return;
      const currentPath = host.session.store.path;
      const chosen = await chooseSession(host, args, currentPath, deps);
      if (!chosen) return;
      if (chosen.path === currentPath) {
        host.info("That is the current session.");
        return;
      }
      if ((await host.session.switchSession(chosen.path)).cancelled) return;
      host.info(`Resumed "${sessionTitle(chosen)}"`);
    },
  };
}

export const resumeCommand = createResumeCommand();
