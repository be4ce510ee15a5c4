/**
 * pig's own documentation, embedded in the binary and written out once per version to
 * `<agent dir>/docs/<version>/`, so the model can read it when someone asks about pig.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import readme from "../../README.md" with { type: "file" };
import keybindings from "../../docs/keybindings.md" with { type: "file" };
import models from "../../docs/models.md" with { type: "file" };
import promptTemplates from "../../docs/prompt-templates.md" with { type: "file" };
import sessions from "../../docs/sessions.md" with { type: "file" };
import settings from "../../docs/settings.md" with { type: "file" };
import skills from "../../docs/skills.md" with { type: "file" };
import usage from "../../docs/usage.md" with { type: "file" };
import { VERSION } from "../version.ts";

// Embedded as files, read only when a version's docs are written: as text imports, ~140 KB of
// strings would be part of the code every run loads.
const DOCS: Record<string, string> = {
  "README.md": readme,
  "usage.md": usage,
  "models.md": models,
  "settings.md": settings,
  "skills.md": skills,
  "prompt-templates.md": promptTemplates,
  "sessions.md": sessions,
  "keybindings.md": keybindings,
};

/** The directory holding this version's docs, written if missing. Undefined if it cannot be written. */
export function ensureDocs(agentDir: string): string | undefined {
  const dir = join(agentDir, "docs", VERSION);
  if (existsSync(join(dir, "README.md"))) return dir;
  const temp = `${dir}.tmp-${process.pid}`;
  try {
    mkdirSync(temp, { recursive: true });
    for (const [name, embedded] of Object.entries(DOCS)) writeFileSync(join(temp, name), readFileSync(embedded));
    // Another pig may have written it meanwhile; either copy is the same text.
    if (existsSync(dir)) rmSync(temp, { recursive: true, force: true });
    else renameSync(temp, dir);
    return dir;
  } catch {
    rmSync(temp, { recursive: true, force: true });
    return undefined;
  }
}
