/** `/extensions`: each loaded extension, its process and how it is doing. */
import { formatExtensionRows } from "../../../extensions/status.ts";
import type { SlashCommand } from "../host.ts";

export const extensionsCommand: SlashCommand = {
  name: "extensions",
  description: "List the loaded extensions: process, state, events, calls and errors",
  async run(host) {
    host.print(formatExtensionRows(host.extensionStatus?.() ?? []).join("\n"));
  },
};
