/**
 * pig's own documentation, embedded in the binary and written out once per version to
 * `<agent dir>/docs/<version>/`, so the model can read it when someone asks about pig.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import readme from "../../README.md" with { type: "text" };
import keybindings from "../../docs/keybindings.md" with { type: "text" };
import models from "../../docs/models.md" with { type: "text" };
import promptTemplates from "../../docs/prompt-templates.md" with { type: "text" };
import sessions from "../../docs/sessions.md" with { type: "text" };
import settings from "../../docs/settings.md" with { type: "text" };
import skills from "../../docs/skills.md" with { type: "text" };
import usage from "../../docs/usage.md" with { type: "text" };
import { VERSION } from "../version.ts";

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
    for (const [name, text] of Object.entries(DOCS)) writeFileSync(join(temp, name), text);
    // Another pig may have written it meanwhile; either copy is the same text.
    if (existsSync(dir)) rmSync(temp, { recursive: true, force: true });
    else renameSync(temp, dir);
    return dir;
  } catch {
    rmSync(temp, { recursive: true, force: true });
    return undefined;
  }
}
