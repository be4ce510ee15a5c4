/**
 * `pig-extension.json`: how an extension that is not a plain TS/JS/Python file tells pig to run
 * it, and what it offers before it runs (pre-declared tools and commands, so a process can be
 * started only when one of them is first used).
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import * as v from "valibot";
import { EXTENSION_MANIFEST_FILE } from "../resources/resource-files.ts";
import { describeIssues } from "./issue-text.ts";
import { CommandSpecSchema, PROTOCOL, ToolSpecSchema } from "./protocol.ts";

export const MANIFEST_FILE = EXTENSION_MANIFEST_FILE;

const ActivationSchema = v.union([
  v.literal("onStartup"),
  v.pipe(v.string(), v.regex(/^onTool:.+$/, 'must be "onStartup", "onTool:<name>" or "onCommand:<name>"')),
  v.pipe(v.string(), v.regex(/^onCommand:.+$/, 'must be "onStartup", "onTool:<name>" or "onCommand:<name>"')),
]);

export const ManifestSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1, "must not be empty")),
  protocol: v.optional(v.literal(PROTOCOL, `must be "${PROTOCOL}"`)),
  /** argv; the first element is resolved against the manifest's directory when it contains a "/". */
  command: v.optional(v.pipe(v.array(v.string()), v.minLength(1, "must name a program"))),
  /** `typescript` runs `main` in pig's TypeScript runner instead of a command. */
  runtime: v.optional(v.picklist(["typescript", "command"])),
  main: v.optional(v.string()),
  env: v.optional(v.array(v.string()), []),
  tools: v.optional(v.array(ToolSpecSchema), []),
  commands: v.optional(v.array(CommandSpecSchema), []),
  activation: v.optional(v.array(ActivationSchema), ["onStartup"]),
  process: v.optional(v.picklist(["own", "shared"])),
});
export type Manifest = v.InferOutput<typeof ManifestSchema>;

export class ManifestError extends Error {}

export interface ResolvedManifest {
  manifest: Manifest;
  /** For `runtime: "typescript"`: the absolute module path. */
  main?: string;
  /** For commands: the argv with its program resolved. */
  command?: string[];
}

/** Reads and checks a manifest; errors name the file and the field. */
export function readManifest(file: string): ResolvedManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ManifestError(`${file}: ${(err as Error).message}`);
  }
  const parsed = v.safeParse(ManifestSchema, raw);
  if (!parsed.success) throw new ManifestError(`${file}: ${describeIssues(parsed.issues)}`);
  const manifest = parsed.output;
  const dir = dirname(file);
  if (manifest.runtime === "typescript") {
    if (!manifest.main) throw new ManifestError(`${file}: main: required when runtime is "typescript"`);
    return { manifest, main: resolve(dir, manifest.main) };
  }
  if (!manifest.command) throw new ManifestError(`${file}: command: required (or runtime "typescript" with main)`);
  const [program, ...args] = manifest.command;
  const resolved = program!.includes("/") && !isAbsolute(program!) ? resolve(dir, program!) : program!;
  return { manifest, command: [resolved, ...args] };
}
