/**
 * The session boundaries open right now (a `turn_end` or `agent_before_settle` being asked), so
 * an extension can ask for the context a list of drafts would make (`session.boundaryContext`)
 * while its handler runs. The preview is computed on demand: the event itself carries no copy of
 * the context.
 */
import type { BoundaryContext, BoundaryDraft, BoundaryPreview } from "../../agent/hooks.ts";
import { RpcError } from "../connection.ts";
import { ErrorCode } from "../protocol.ts";

export class OpenBoundaries {
  private next = 1;
  private readonly open = new Map<string, BoundaryPreview>();

  /** Runs `body` with the boundary open under a fresh id. */
  async during<T>(preview: BoundaryPreview, body: (id: string) => Promise<T>): Promise<T> {
    const id = `b${this.next++}`;
    this.open.set(id, preview);
    try {
      return await body(id);
    } finally {
      this.open.delete(id);
    }
  }

  context(id: string, drafts: readonly BoundaryDraft[]): BoundaryContext {
    const preview = this.open.get(id);
    if (!preview) throw new RpcError(ErrorCode.InvalidParams, `boundary ${id} is not open (its event was answered)`);
    try {
      return preview(drafts);
    } catch (error) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid boundary entries: ${(error as Error).message}`);
    }
  }
}
