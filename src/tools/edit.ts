/**
 * `edit`: exact-text replacements in one file, all located in the original content. Keeps the
 * file's BOM and line-ending style; reports a compact diff.
 */
import { constants } from "node:fs";
import { access, readFile, writeFile } from "node:fs/promises";
import { abortable, throwIfAborted } from "./abort.ts";
import { applyEdits, normalizeLineEndings, type Replacement } from "./edit-apply.ts";
import { generateDiffString } from "./edit-diff.ts";
import { generateUnifiedPatch } from "./unified-patch.ts";
import { withFileMutationQueue } from "./mutation-queue.ts";
import { resolveToCwd } from "./paths.ts";
import type { ToolDefinition } from "./types.ts";

export interface EditArgs {
  path: string;
  edits: Replacement[];
}

export interface EditDetails {
  diff: string;
  /** The unified patch of the change (Pi ≥ 0.87). */
  patch: string;
  firstChangedLine: number | undefined;
}

export const EDIT_PARAMETERS = {
  type: "object",
  required: ["path", "edits"],
  properties: {
    path: { type: "string", description: "Path to the file to edit (relative or absolute)" },
    edits: {
      type: "array",
      items: {
        type: "object",
        required: ["oldText", "newText"],
        properties: {
          oldText: {
            type: "string",
            description:
              "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
          },
          newText: { type: "string", description: "Replacement text for this targeted edit." },
        },
      },
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    },
  },
};

/**
 * Accepts the shapes older sessions and sloppier models send: `edits` as a JSON string, and the
 * single-edit form with top-level oldText/newText (appended to `edits`).
 */
export function prepareEditArguments(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  if (typeof out.edits === "string") {
    try {
      const parsed: unknown = JSON.parse(out.edits);
      if (Array.isArray(parsed)) out.edits = parsed;
    } catch {
      // Left as a string: validation reports it.
    }
  }
  if ("oldText" in out || "newText" in out) {
    const legacy = { oldText: out.oldText, newText: out.newText };
    delete out.oldText;
    delete out.newText;
    out.edits = Array.isArray(out.edits) ? [...out.edits, legacy] : [legacy];
  }
  return out;
}

const BOM = "\uFEFF";

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

export function createEditTool(): ToolDefinition<EditArgs, EditDetails> {
  return {
    name: "edit",
    label: "edit",
    description:
      "Change one file by replacing exact text. Each entry in edits[] names an oldText that must occur exactly once in the file as it is now, and no two entries may overlap; all of them are located in the original file, not one after another. Changes that touch the same or neighbouring lines belong in a single entry, and oldText should not carry long unchanged stretches just to bridge distant changes.",
    parameters: EDIT_PARAMETERS,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    promptSnippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    promptGuidelines: [
      "Use edit for targeted changes; every edits[].oldText has to match the file exactly",
      "For several changes in one file, make one edit call with several edits[] entries rather than several calls",
      "All edits[].oldText are located in the original file, not in the result of earlier entries, so they must not overlap or nest; combine nearby changes into one entry",
      "Make each edits[].oldText as short as it can be while still unique in the file; don't include long unchanged regions",
    ],
    prepareArguments: prepareEditArguments,
    execute(_id, args, signal, _onUpdate, context) {
      const path = resolveToCwd(args.path, context.cwd);
      return abortable(signal, () =>
        withFileMutationQueue(path, async () => {
          throwIfAborted(signal);
          if (args.edits.length === 0) {
            throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
          }
          try {
            await access(path, constants.R_OK | constants.W_OK);
          } catch (error) {
            throw new Error(`Could not edit file: ${args.path}. Error code: ${errorCode(error)}.`);
          }
          const raw = (await readFile(path)).toString("utf8");
          throwIfAborted(signal);
          const bom = raw.startsWith(BOM) ? BOM : "";
          const text = bom ? raw.slice(1) : raw;
          const firstLf = text.indexOf("\n");
          const crlf = firstLf > 0 && text[firstLf - 1] === "\r";
          const edits = args.edits.map((edit) => ({
            oldText: normalizeLineEndings(edit.oldText),
            newText: normalizeLineEndings(edit.newText),
          }));
          const { base, result } = applyEdits(normalizeLineEndings(text), edits, args.path);
          throwIfAborted(signal);
          await writeFile(path, bom + (crlf ? result.replace(/\n/g, "\r\n") : result), "utf8");
          const { diff, firstChangedLine } = generateDiffString(base, result);
          const patch = generateUnifiedPatch(args.path, base, result);
          return {
            content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${args.path}.` }],
            details: { diff, patch, firstChangedLine },
          };
        }),
      );
    },
  };
}
