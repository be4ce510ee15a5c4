/**
 * `/export [file]`: the session as a self-contained HTML page (default name in the working
 * directory), or with a `.jsonl` name the current branch as a session file of its own.
 */
import { rmSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { defaultExportName, exportSessionHtml } from "../../../export/html.ts";
import { presentBuiltinCall } from "../../../tools/index.ts";
import { writeExportFile } from "../../../export/write-export.ts";
import { exportBranchJsonl } from "../../../session/export-jsonl.ts";
import type { SlashCommand } from "../host.ts";
import { messageOf } from "./format.ts";
import { about } from "./about.ts";

export const exportCommand: SlashCommand = {
  ...about("export"),
  async run(host, args) {
    const store = host.session.store;
    if (!store.path) {
      host.error("Cannot export: this session is kept in memory only (--no-session).");
      return;
    }
    if (!store.isFlushed) {
      host.error("Nothing to export yet: the session is written once the first answer arrives.");
      return;
    }
    const target = args.trim() || defaultExportName(store.path);
    const path = isAbsolute(target) ? target : resolve(host.cwd, target);
    const jsonl = path.toLowerCase().endsWith(".jsonl");
    try {
      // A session file is never replaced by an export (it may be this very session, or another):
      // `wx` refuses an existing file.
      writeExportFile(path, jsonl ? exportBranchJsonl(store) : exportSessionHtml(store, { presentCall: presentBuiltinCall }), { exclusive: jsonl });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        host.error(`Cannot export: ${path} already exists. Choose another name.`);
        return;
      }
      // A session export that failed half-way is removed (it was created just now).
      if (jsonl) rmSync(path, { force: true });
      host.error(`Could not write ${path}: ${messageOf(error)}`);
      return;
    }
    host.info(`Exported to ${path}`);
  },
};
