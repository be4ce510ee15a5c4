/** `/extensions`: each loaded extension, its process and how it is doing. */
import { formatExtensionRows } from "../../../extensions/status.ts";
import type { InteractiveHost, SlashCommand } from "../host.ts";
import { about } from "./about.ts";

export const extensionsCommand: SlashCommand = {
  ...about("extensions"),
  async run(host) {
    host.print(formatExtensionRows(host.extensionStatus?.() ?? []).join("\n"));
  },
};

/** What `/reload` says of the extensions it restarted. */
export function reportExtensionReload(host: Pick<InteractiveHost, "info" | "warn" | "error">, result: { loaded: readonly string[]; loadErrors: readonly string[]; warnings: readonly string[] }): void {
  host.info(`Reloaded ${result.loaded.length} ${result.loaded.length === 1 ? "extension" : "extensions"}.`);
  for (const error of result.loadErrors) host.error(error);
  for (const warning of result.warnings) host.warn(warning);
}
