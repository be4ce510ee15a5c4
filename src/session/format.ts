/**
 * Schemas of the session file format (Pi's v3 JSONL), and the types derived from them.
 *
 * Every object schema is loose: fields pig does not know are kept in the parsed value, so a
 * value that passed validation still holds everything the writer put there. Validation never
 * changes what is written back: pig re-emits the original line bytes, not the parsed value.
 */
import * as v from "valibot";
import { AgentMessageSchema, SystemMessageSchema, ThinkingLevelSchema, UsageSchema, UserBlockSchema, type AgentMessage } from "./message-format.ts";

// The messages (message-format.ts) are part of the format: importers of either get both.
export * from "./message-format.ts";

export const CURRENT_SESSION_VERSION = 3;

// ── header and entries ──────────────────────────────────────────────────────

export const SessionHeaderSchema = v.looseObject({
  type: v.literal("session"),
  version: v.optional(v.number()),
  id: v.string(),
  timestamp: v.string(),
  cwd: v.optional(v.string()),
  parentSession: v.optional(v.string()),
});
export type SessionHeader = v.InferOutput<typeof SessionHeaderSchema>;

/** The fields every tree entry carries. `parentId` may be null (a root) or, in foreign files, absent. */
export const EntryBaseSchema = v.looseObject({
  type: v.string(),
  id: v.string(),
  parentId: v.optional(v.nullable(v.string())),
  timestamp: v.string(),
});
export type EntryBase = v.InferOutput<typeof EntryBaseSchema>;

const base = {
  id: v.string(),
  parentId: v.optional(v.nullable(v.string())),
  timestamp: v.string(),
};

export const MessageEntrySchema = v.looseObject({
  type: v.literal("message"),
  ...base,
  message: AgentMessageSchema,
});

export const ModelChangeEntrySchema = v.looseObject({
  type: v.literal("model_change"),
  ...base,
  provider: v.string(),
  modelId: v.string(),
});

export const ThinkingLevelChangeEntrySchema = v.looseObject({
  type: v.literal("thinking_level_change"),
  ...base,
  thinkingLevel: ThinkingLevelSchema,
});

export const CompactionEntrySchema = v.looseObject({
  type: v.literal("compaction"),
  ...base,
  summary: v.string(),
  firstKeptEntryId: v.optional(v.string()),
  tokensBefore: v.number(),
  details: v.optional(v.unknown()),
  /** What making the summary cost (Pi ≥ 0.87); counted in session totals. */
  usage: v.optional(UsageSchema),
  fromHook: v.optional(v.boolean()),
  /** The prompt and tools in force when it was made: the compacted context starts with it (Pi ≥ 0.87). */
  // A damaged checkpoint loses only itself, not the summary: it never fails the entry, and readers
  // replay it only once `isReplayableSystemMessage` says it is one (the entry keeps it as written).
  systemMessage: v.fallback(v.optional(SystemMessageSchema), undefined),
});

export const BranchSummaryEntrySchema = v.looseObject({
  type: v.literal("branch_summary"),
  ...base,
  fromId: v.string(),
  summary: v.string(),
  details: v.optional(v.unknown()),
  usage: v.optional(UsageSchema),
  fromHook: v.optional(v.boolean()),
});

export const CustomEntrySchema = v.looseObject({
  type: v.literal("custom"),
  customType: v.string(),
  data: v.optional(v.unknown()),
  ...base,
});

export const CustomMessageEntrySchema = v.looseObject({
  type: v.literal("custom_message"),
  customType: v.string(),
  content: v.union([v.string(), v.array(UserBlockSchema)]),
  display: v.boolean(),
  details: v.optional(v.unknown()),
  ...base,
});

export const LabelEntrySchema = v.looseObject({
  type: v.literal("label"),
  ...base,
  targetId: v.string(),
  label: v.optional(v.string()),
});

export const SessionInfoEntrySchema = v.looseObject({
  type: v.literal("session_info"),
  ...base,
  name: v.optional(v.string()),
});

/**
 * Pi ≥ 0.87 hides or replaces an earlier message in later contexts with this entry. pig keeps it
 * exactly as written and does not apply it (docs/sessions.md, "Context edits").
 */
export const ContextEditEntrySchema = v.looseObject({
  type: v.literal("context_edit"),
  ...base,
  targetId: v.string(),
  replacement: v.nullable(v.looseObject({ content: v.unknown() })),
});

/** Model usage that is not an answer (e.g. cache warming): counted in totals, never context. */
export const UsageEntrySchema = v.looseObject({
  type: v.literal("usage"),
  ...base,
  kind: v.string(),
  provider: v.string(),
  model: v.string(),
  usage: UsageSchema,
  note: v.optional(v.string()),
});

export const KNOWN_ENTRY_SCHEMAS = {
  message: MessageEntrySchema,
  model_change: ModelChangeEntrySchema,
  thinking_level_change: ThinkingLevelChangeEntrySchema,
  compaction: CompactionEntrySchema,
  branch_summary: BranchSummaryEntrySchema,
  custom: CustomEntrySchema,
  custom_message: CustomMessageEntrySchema,
  label: LabelEntrySchema,
  session_info: SessionInfoEntrySchema,
  context_edit: ContextEditEntrySchema,
  usage: UsageEntrySchema,
} as const;

export type KnownEntryType = keyof typeof KNOWN_ENTRY_SCHEMAS;

export function isKnownEntryType(type: string): type is KnownEntryType {
  return Object.hasOwn(KNOWN_ENTRY_SCHEMAS, type);
}

export type MessageEntry = v.InferOutput<typeof MessageEntrySchema>;
export type ModelChangeEntry = v.InferOutput<typeof ModelChangeEntrySchema>;
export type ThinkingLevelChangeEntry = v.InferOutput<typeof ThinkingLevelChangeEntrySchema>;
export type CompactionEntry = v.InferOutput<typeof CompactionEntrySchema>;
export type BranchSummaryEntry = v.InferOutput<typeof BranchSummaryEntrySchema>;
export type CustomEntry = v.InferOutput<typeof CustomEntrySchema>;
export type CustomMessageEntry = v.InferOutput<typeof CustomMessageEntrySchema>;
export type LabelEntry = v.InferOutput<typeof LabelEntrySchema>;
export type SessionInfoEntry = v.InferOutput<typeof SessionInfoEntrySchema>;
export type ContextEditEntry = v.InferOutput<typeof ContextEditEntrySchema>;
export type UsageEntry = v.InferOutput<typeof UsageEntrySchema>;

/** An entry of a type pig does not know (a newer writer's): kept, never interpreted. */
export type UnknownEntry = EntryBase & { readonly unknown: true };

export type KnownSessionEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | ContextEditEntry
  | UsageEntry;

export type SessionEntry = KnownSessionEntry | EntryBase;

/** Describes why a value failed a schema, naming the field path: `message.content[0].text: expected string`. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (!first) return "invalid value";
  const path = v.getDotPath(first);
  return path ? `${path}: ${first.message}` : first.message;
}

/**
 * What loading needs of a `message` entry: a message object with a role. The full message
 * schemas are applied where a message is used (building a provider request), not on load, so
 * that a message pig cannot use still stays in the session as the writer left it.
 */
const MessageEntryShapeSchema = v.looseObject({
  type: v.literal("message"),
  ...base,
  message: v.looseObject({ role: v.string() }),
});

export type EntryCheck =
  | { kind: "known"; entry: KnownSessionEntry }
  | { kind: "unknown-type"; entry: EntryBase }
  | { kind: "invalid"; entry: EntryBase; reason: string }
  | { kind: "not-entry"; reason: string };

/** Classifies a parsed line: a known entry, an entry of an unknown type, or not usable. */
export function checkEntry(value: unknown): EntryCheck {
  const baseResult = v.safeParse(EntryBaseSchema, value);
  if (!baseResult.success) return { kind: "not-entry", reason: describeIssues(baseResult.issues) };
  // The original object is kept, not valibot's output: it has the writer's key order.
  const entry = value as EntryBase;
  if (!isKnownEntryType(entry.type)) return { kind: "unknown-type", entry };
  const schema = entry.type === "message" ? MessageEntryShapeSchema : KNOWN_ENTRY_SCHEMAS[entry.type];
  const full = v.safeParse(schema, value);
  if (!full.success) {
    return { kind: "invalid", entry, reason: `${entry.type} entry: ${describeIssues(full.issues)}` };
  }
  return { kind: "known", entry: value as KnownSessionEntry };
}

/** Validates a message against the schema of its role (unknown roles pass as unknown). */
export function checkMessage(value: unknown): { ok: true; message: AgentMessage } | { ok: false; reason: string } {
  const result = v.safeParse(AgentMessageSchema, value);
  if (!result.success) return { ok: false, reason: describeIssues(result.issues) };
  return { ok: true, message: value as AgentMessage };
}
