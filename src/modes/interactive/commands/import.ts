/**
 * `/import <file.jsonl>`: copies a session file into this project's session directory (same
 * file name, the header's working directory set to this project's: the file may come from
 * another machine) and continues it. Nothing is overwritten: a different file of that name
 * already there is an error; the same session imported before is simply opened.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { SessionStore } from "../../../session/store.ts";
import type { SlashCommand } from "../host.ts";
import { messageOf } from "./format.ts";
import { refuseWhileRunning } from "./guards.ts";
import { about } from "./about.ts";

/** The file as it is imported: the header's working directory becomes this project's. */
function importedText(text: string, cwd: string): { text: string; id: unknown; body: string } {
  const end = text.indexOf("\n");
  const header = JSON.parse(end === -1 ? text : text.slice(0, end)) as Record<string, unknown>;
  const body = end === -1 ? "" : text.slice(end + 1);
  header.cwd = cwd;
  return { text: `${JSON.stringify(header)}\n${body}`, id: header.id, body };
}

export const importCommand: SlashCommand = {
  ...about("import"),
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
    if (!source.toLowerCase().endsWith(".jsonl")) {
      host.error(`Cannot import ${source}: a session file's name ends in .jsonl`);
      return;
    }
    if (!existsSync(source)) {
      host.error(`No such file: ${source}`);
      return;
    }
    let imported: ReturnType<typeof importedText>;
    try {
      // Opened once to check it is a session file pig can read.
      SessionStore.open(source).close();
      imported = importedText(readFileSync(source, "utf8"), host.cwd);
    } catch (error) {
      host.error(`Cannot import ${source}: ${messageOf(error)}`);
      return;
    }
    const dest = join(host.sessionDir, basename(source));
    let copied = false;
    if (resolve(dest) !== resolve(source)) {
      if (existsSync(dest)) {
        // Imported before (its header names this project now): the same id and entries is the same session.
        let same = false;
        try {
          const existing = importedText(readFileSync(dest, "utf8"), host.cwd);
          same = existing.id === imported.id && existing.body === imported.body;
        } catch {
          same = false;
        }
        if (!same) {
          host.error(`Cannot import: ${dest} already exists with different content. Rename the file to import it.`);
          return;
        }
      } else {
        try {
          writeFileSync(dest, imported.text, { flag: "wx" });
          copied = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") rmSync(dest, { force: true });
          host.error(`Could not copy ${source} to ${dest}: ${messageOf(error)}`);
          return;
        }
      }
    }
    try {
      if ((await host.session.switchSession(dest)).cancelled) {
        if (copied) rmSync(dest, { force: true });
        return;
      }
    } catch (error) {
      if (copied) rmSync(dest, { force: true });
      host.error(messageOf(error));
      return;
    }
    host.info(`Imported ${source}${copied ? ` as ${dest}` : ""}`);
  },
};
