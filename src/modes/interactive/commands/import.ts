/**
 * `/import <file.jsonl>`: copies a session file into this project's session directory (same
 * file name) and continues it. Nothing is overwritten: a different file of that name already
 * there is an error; the same file is simply opened.
 */
import { constants, copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { SessionStore } from "../../../session/store.ts";
import type { SlashCommand } from "../host.ts";
import { messageOf } from "./format.ts";
import { refuseWhileRunning } from "./guards.ts";

export const importCommand: SlashCommand = {
  name: "import",
  description: "Copy a session file into this project and continue it",
  argumentHint: "<file.jsonl>",
  async run(host, args) {
    const target = args.trim();
    if (!target) {
      host.error("Usage: /import <file.jsonl>");
      return;
    }
    if (refuseWhileRunning(host, "import a session")) return;
    if (!host.sessionDir) {
      host.error("Cannot import: sessions are not saved in this run (--no-session).");
      return;
    }
    const source = isAbsolute(target) ? target : resolve(host.cwd, target);
    if (!existsSync(source)) {
      host.error(`No such file: ${source}`);
      return;
    }
    try {
      // Read once to check it is a session file pig can open; the copy is what gets continued.
      SessionStore.open(source).close();
    } catch (error) {
      host.error(`Cannot import ${source}: ${messageOf(error)}`);
      return;
    }
    const dest = join(host.sessionDir, basename(source));
    let copied = false;
    if (resolve(dest) !== resolve(source)) {
      if (existsSync(dest)) {
        if (!readFileSync(dest).equals(readFileSync(source))) {
          host.error(`Cannot import: ${dest} already exists with different content. Rename the file to import it.`);
          return;
        }
      } else {
        try {
          copyFileSync(source, dest, constants.COPYFILE_EXCL);
          copied = true;
        } catch (error) {
          host.error(`Could not copy ${source} to ${dest}: ${messageOf(error)}`);
          return;
        }
      }
    }
    try {
      host.controller.switchSession(dest);
    } catch (error) {
      if (copied) rmSync(dest, { force: true });
      host.error(messageOf(error));
      return;
    }
    host.sessionChanged();
    host.info(`Imported ${source}${copied ? ` as ${dest}` : ""}`);
  },
};
