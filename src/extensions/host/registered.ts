/**
 * Commands, shortcuts and flags as plain lists for pig's registries (which own naming rules:
 * numbering duplicate commands, refusing reserved keys). Running one sends the request to the
 * extension that registered it.
 */
import * as v from "valibot";
import { CommandCompleteResultSchema, type CompletionItem } from "../protocol.ts";
import type { Registration } from "./registry.ts";

export type RunRequest = (extension: string, method: string, params: unknown) => Promise<unknown>;

export interface ExtensionCommand {
  name: string;
  description?: string;
  /** The extension's id (its path). */
  extension: string;
  run(args: string): Promise<void>;
  /** Present when the extension offers completions; null = no suggestions. */
  complete?(prefix: string): Promise<CompletionItem[] | null>;
}

export interface ExtensionShortcut {
  key: string;
  description?: string;
  extension: string;
  run(): Promise<void>;
}

export interface ExtensionFlag {
  name: string;
  description?: string;
  type: "boolean" | "string";
  default?: boolean | string;
  extension: string;
}

type Entries = ReadonlyArray<readonly [string, Registration]>;

export function listCommands(entries: Entries, request: RunRequest): ExtensionCommand[] {
  const out: ExtensionCommand[] = [];
  for (const [extension, r] of entries) {
    for (const c of r.commands.values()) {
      out.push({
        name: c.name,
        ...(c.description !== undefined ? { description: c.description } : {}),
        extension,
        run: async (args) => {
          await request(extension, "command.run", { extension, name: c.name, args });
        },
        ...(c.hasCompletions
          ? {
              complete: async (prefix: string) => {
                const raw = await request(extension, "command.complete", { extension, name: c.name, prefix });
                const parsed = v.safeParse(CommandCompleteResultSchema, raw);
                return parsed.success ? parsed.output.items : null;
              },
            }
          : {}),
      });
    }
  }
  return out;
}

export function listShortcuts(entries: Entries, request: RunRequest): ExtensionShortcut[] {
  const out: ExtensionShortcut[] = [];
  for (const [extension, r] of entries) {
    for (const s of r.shortcuts.values()) {
      out.push({
        key: s.key,
        ...(s.description !== undefined ? { description: s.description } : {}),
        extension,
        run: async () => {
          await request(extension, "shortcut.run", { extension, key: s.key });
        },
      });
    }
  }
  return out;
}

export function listFlags(entries: Entries): ExtensionFlag[] {
  const out: ExtensionFlag[] = [];
  for (const [extension, r] of entries) {
    for (const f of r.flags.values()) {
      out.push({
        name: f.name,
        type: f.type,
        extension,
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(f.default !== undefined ? { default: f.default } : {}),
      });
    }
  }
  return out;
}
