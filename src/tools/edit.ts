/**
 * `edit`: exact-text replacements in one file, all located in the original content. Keeps the
 * file's BOM and line-ending style; reports a compact diff.
 */
import { constants } from "node:fs";
import { asyncFs } from "../util/async-fs.ts";
import * as v from "valibot";
import { isPlainObject } from "../util/plain-object.ts";
import { abortable, throwIfAborted } from "./abort.ts";
import { defineBuiltinTool } from "./define.ts";
import { applyEdits, normalizeLineEndings } from "./edit-apply.ts";
import { generateDiffString } from "./edit-diff.ts";
import { withFileMutationQueue } from "./mutation-queue.ts";
import { resolveToCwd } from "./paths.ts";
import { argument, extra, pathArgument, stringArgument, type ExportedCall, type ExportedResult } from "./presentation.ts";
import type { ToolResult } from "./types.ts";
import { generateUnifiedPatch } from "./unified-patch.ts";

export interface EditDetails {
  diff: string;
  /** The unified patch of the change (Pi ≥ 0.87). */
  patch: string;
  firstChangedLine: number | undefined;
}

const EditArguments = () => v.object({
  path: v.pipe(v.string(), v.description("Path to the file to edit (relative or absolute)")),
  edits: v.pipe(
    v.array(
      v.object({
        oldText: v.pipe(
          v.string(),
          v.description(
            "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
          ),
        ),
        newText: v.pipe(v.string(), v.description("Replacement text for this targeted edit.")),
      }),
    ),
    v.description(
      "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    ),
  ),
});
export type EditArgs = v.InferOutput<ReturnType<typeof EditArguments>>;

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

/** The replacements as a diff, for a call whose result shows none (it failed, or is not there). */
function editsText(edits: Record<string, unknown>[]): string {
  return edits
    .map((edit) => {
      const minus = (stringArgument(edit, "oldText") ?? "").split("\n").map((l) => `-${l}`);
      const plus = (stringArgument(edit, "newText") ?? "").split("\n").map((l) => `+${l}`);
      return [...minus, ...plus].join("\n");
    })
    .join("\n...\n");
}

function exportEdit(args: Record<string, unknown>, result: ExportedResult | undefined): ExportedCall | undefined {
  const path = pathArgument(args);
  if (path === undefined) return undefined;
  // Sessions of every version: `edits`, or the single replacement at the top level.
  const edits = Array.isArray(args.edits) ? args.edits.filter(isPlainObject) : args.oldText !== undefined ? [args] : [];
  const hasDiff = result !== undefined && !result.isError && isPlainObject(result.details) && typeof result.details.diff === "string";
  const head = [argument(path), extra(`${edits.length} edit${edits.length === 1 ? "" : "s"}`)];
  return hasDiff || edits.length === 0 ? { head } : { head, body: { kind: "diff", text: editsText(edits) } };
}

export const editTool = defineBuiltinTool({
  name: "edit",
  description:
    "Change one file by replacing exact text. Each entry in edits[] names an oldText that must occur exactly once in the file as it is now, and no two entries may overlap; all of them are located in the original file, not one after another. Changes that touch the same or neighbouring lines belong in a single entry, and oldText should not carry long unchanged stretches just to bridge distant changes.",
  arguments: EditArguments,
  constrainedSampling: { type: "json_schema", strict: "prefer" },
  promptSnippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
  promptGuidelines: [
    "Use edit for targeted changes; every edits[].oldText has to match the file exactly",
    "For several changes in one file, make one edit call with several edits[] entries rather than several calls",
    "All edits[].oldText are located in the original file, not in the result of earlier entries, so they must not overlap or nest; combine nearby changes into one entry",
    "Make each edits[].oldText as short as it can be while still unique in the file; don't include long unchanged regions",
  ],
  prepareArguments: prepareEditArguments,
  presentation: {
    summary: (args) => args.text("path") ?? ".",
    keep: "head",
    output: "text",
    change: "diff",
    exportCall: exportEdit,
  },
  execute(_id, args, signal, _onUpdate, context): Promise<ToolResult<EditDetails>> {
    const path = resolveToCwd(args.path, context.cwd);
    return abortable(signal, () =>
      withFileMutationQueue(path, async () => {
        throwIfAborted(signal);
        if (args.edits.length === 0) {
          throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
        }
        try {
          await asyncFs().access(path, constants.R_OK | constants.W_OK);
        } catch (error) {
          throw new Error(`Could not edit file: ${args.path}. Error code: ${errorCode(error)}.`);
        }
        const raw = (await asyncFs().readFile(path)).toString("utf8");
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
        await asyncFs().writeFile(path, bom + (crlf ? result.replace(/\n/g, "\r\n") : result), "utf8");
        const { diff, firstChangedLine } = generateDiffString(base, result);
        const patch = generateUnifiedPatch(args.path, base, result);
        return {
          content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${args.path}.` }],
          details: { diff, patch, firstChangedLine },
        };
      }),
    );
  },
});

export const createEditTool = () => editTool.create(undefined);

