/** Reading `<agentDir>/keybindings.json`. A missing file means the defaults; a broken one, a warning. */
import { join } from "node:path";
import { readConfigText } from "../../util/config-read.ts";
import { parseJsonc } from "../../util/jsonc.ts";
import { KeyBindings, resolveKeybindings, type ResolvedKeybindings } from "./input/keybindings.ts";

export function loadKeybindings(agentDir: string): ResolvedKeybindings {
  const path = join(agentDir, "keybindings.json");
  const read = readConfigText(path);
  if (read.kind === "absent") return { bindings: KeyBindings.defaults(), warnings: [] };
  if (read.kind === "unreadable") return { bindings: KeyBindings.defaults(), warnings: [`${path}: ${read.reason}; using the default keys`] };
  let json: unknown;
  try {
    json = parseJsonc(read.text);
  } catch (error) {
    return { bindings: KeyBindings.defaults(), warnings: [`${path}: not valid JSON: ${(error as Error).message}; using the default keys`] };
  }
  return resolveKeybindings(json, path);
}
