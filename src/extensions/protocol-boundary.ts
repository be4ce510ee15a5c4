/**
 * pig-ext/1 shapes of the session boundaries (`turn_end`, `agent_before_settle`) and of
 * `project_trust`: the entry drafts a handler may return, the boundary result, the request for
 * a boundary's context preview, and the trust answer. Kept apart from protocol.ts, which
 * re-exports them.
 */
import * as v from "valibot";

const Content = v.union([
  v.string(),
  v.array(
    v.variant("type", [
      v.looseObject({ type: v.literal("text"), text: v.string() }),
      v.looseObject({ type: v.literal("image"), data: v.string(), mimeType: v.string() }),
    ]),
  ),
]);

export const BoundaryDraftSchema = v.variant("type", [
  v.looseObject({ type: v.literal("custom"), customType: v.string(), data: v.optional(v.unknown()) }),
  v.looseObject({
    type: v.literal("custom_message"),
    customType: v.string(),
    content: Content,
    display: v.boolean(),
    details: v.optional(v.unknown()),
  }),
  v.looseObject({
    type: v.literal("context_edit"),
    targetId: v.string(),
    replacement: v.nullable(v.looseObject({ content: v.unknown() })),
  }),
  v.looseObject({
    type: v.literal("compaction"),
    summary: v.string(),
    firstKeptEntryId: v.nullable(v.string()),
    details: v.optional(v.unknown()),
    usage: v.optional(v.looseObject({})),
  }),
]);
export type WireBoundaryDraft = v.InferOutput<typeof BoundaryDraftSchema>;

/** A `turn_end` / `agent_before_settle` answer: the drafts so far (replacing the earlier list) and `continue`. */
export const BoundaryResultSchema = v.looseObject({
  entries: v.optional(v.array(BoundaryDraftSchema)),
  continue: v.optional(v.boolean()),
});

/** `session.boundaryContext`: the context of the open boundary `boundary` with `entries` appended. */
export const BoundaryContextParamsSchema = v.looseObject({
  boundary: v.string(),
  entries: v.array(BoundaryDraftSchema),
});

/** A `project_trust` answer; the first `yes` or `no` in load order decides. */
export const ProjectTrustResultSchema = v.looseObject({
  trusted: v.picklist(["yes", "no", "undecided"]),
  remember: v.optional(v.boolean()),
});
