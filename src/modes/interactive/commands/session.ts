/** Commands that replace, name or leave the session: `/new`, `/clone`, `/name`, `/reload`, `/quit` (and `/exit`). */
import type { SlashCommand } from "../host.ts";
import { refuseWhileRunning } from "./guards.ts";
import { about } from "./about.ts";

export const newCommand: SlashCommand = {
  ...about("new"),
  async run(host) {
    if (refuseWhileRunning(host, "start a new session")) return;
    if ((await host.session.newSession()).cancelled) return;
    host.info("New session started.");
  },
};

export const cloneCommand: SlashCommand = {
  ...about("clone"),
  async run(host) {
    if (refuseWhileRunning(host, "clone the session")) return;
    if ((await host.session.clone()).cancelled) return;
    host.info("Cloned the current branch into a new session.");
  },
};

export const nameCommand: SlashCommand = {
  ...about("name"),
  async run(host, args) {
    let name: string | undefined = args;
    if (!name) {
      const current = host.session.store.name;
      name = await host.ask("Session name", current ? { initial: current } : { placeholder: "e.g. refactor auth" });
      if (name === undefined || !name.trim()) return;
    }
    // The session announces the new name (session_info_changed), which the view prints.
    host.session.setSessionName(name);
  },
};

export const reloadCommand: SlashCommand = {
  ...about("reload"),
  async run(host) {
    // The host reports what was loaded.
    await host.reload();
  },
};

export const quitCommand: SlashCommand = {
  ...about("quit"),
  async run(host) {
    host.exit();
  },
};

export const exitCommand: SlashCommand = { ...quitCommand, ...about("exit") };
