/** Reading `<agentDir>/keybindings.json`. A missing file means the defaults; a broken one, a warning. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonc } from "../../util/jsonc.ts";
import { KeyBindings, resolveKeybindings, type ResolvedKeybindings } from "./input/keybindings.ts";

export function loadKeybindings(agentDir: string): ResolvedKeybindings {
  const path = join(agentDir, "keybindings.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { bindings: KeyBindings.defaults(), warnings: [] };
    return { bindings: KeyBindings.defaults(), warnings: [`${path}: ${(error as Error).message}; using the default keys`] };
  }
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    return { bindings: KeyBindings.defaults(), warnings: [`${path}: not valid JSON: ${(error as Error).message}; using the default keys`] };
  }
  return resolveKeybindings(json, path);
}
