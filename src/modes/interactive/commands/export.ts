/** `/export [file]`: the session as a self-contained HTML page (default name in the working directory). */
import { writeFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { defaultExportName, exportSessionHtml } from "../../../export/html.ts";
import type { SlashCommand } from "../host.ts";
import { messageOf } from "./format.ts";

export const exportCommand: SlashCommand = {
  name: "export",
  description: "Export the session to an HTML file",
  argumentHint: "[file.html]",
  async run(host, args) {
    const store = host.controller.session.store;
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
    try {
      writeFileSync(path, exportSessionHtml(store));
    } catch (error) {
      host.error(`Could not write ${path}: ${messageOf(error)}`);
      return;
    }
    host.info(`Exported to ${path}`);
  },
};
