/** `pig sessions show`: the context of the active branch, as JSON or as readable text. */
import type { AgentMessage, MessageEntry } from "../session/format.ts";
import { isReplayableSystemMessage, systemPromptText } from "../session/system-messages.ts";
import type { SessionStore } from "../session/store.ts";
import type { Output } from "./output.ts";
import { withReadFd } from "../session/lines.ts";

/**
 * Writes `{"messages":[…],"thinkingLevel":…,"model":…}`. Stored messages are copied from the
 * file as written (they are the stored objects), so a large session is never parsed whole.
 */
export function writeContextJson(out: Output, store: SessionStore): void {
  const plan = store.planContext();
  const copy = (fd: number | undefined): void => {
    out.write('{"messages":[');
    let first = true;
    const separate = (): void => {
      if (!first) out.write(",");
      first = false;
    };
    const emit = (text: string): void => {
      separate();
      out.write(text);
    };
    for (const item of plan.items) {
      if (item.kind === "made") {
        emit(JSON.stringify(item.message));
        continue;
      }
      const source = item.record.source;
      if (fd !== undefined && source.kind === "file" && source.messageOffset !== undefined && source.messageLength !== undefined) {
        // The loader took this line unparsed only after checking it is valid JSON: copied as stored.
        separate();
        out.copyFrom(fd, source.messageOffset, source.messageLength);
      } else {
        const entry = store.readEntry(item.record) as MessageEntry | undefined;
        if (entry) emit(JSON.stringify(entry.message));
      }
    }
    out.write(`],"thinkingLevel":${JSON.stringify(plan.thinkingLevel)},"model":${JSON.stringify(plan.model)}}\n`);
  };
  if (store.path) withReadFd(store.path, copy);
  else copy(undefined);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string; thinking?: string; name?: string; arguments?: unknown; input?: unknown; mimeType?: string; media_type?: string }) => {
      switch (block.type) {
        case "text":
          return block.text ?? "";
        case "thinking":
          return `(thinking) ${block.thinking ?? ""}`;
        case "toolCall":
        case "tool_use":
          return `→ ${block.name}(${JSON.stringify(block.arguments ?? block.input ?? {})})`;
        case "image":
          return `[image ${block.mimeType ?? block.media_type ?? ""}]`;
        default:
          return `[${block.type ?? "block"}]`;
      }
    })
    .join("\n");
}

function describe(message: AgentMessage): { title: string; body: string } {
  const m = message as Record<string, unknown>;
  switch (message.role) {
    case "assistant": {
      const error = m.errorMessage ? ` — ${m.stopReason}: ${m.errorMessage}` : m.stopReason === "aborted" ? " — aborted" : "";
      return { title: `assistant (${m.provider}/${m.model})${error}`, body: textOf(m.content) };
    }
    case "toolResult":
      return { title: `tool result: ${m.toolName}${m.isError ? " (error)" : ""}`, body: textOf(m.content) };
    case "bashExecution":
      return { title: `! ${m.command} (exit ${m.exitCode ?? "?"})${m.excludeFromContext ? " (not in context)" : ""}`, body: String(m.output ?? "") };
    case "custom":
      return { title: `custom: ${m.customType}${m.display ? "" : " (hidden)"}`, body: textOf(m.content) };
    case "compactionSummary":
      return { title: `compaction summary (${m.tokensBefore} tokens before)`, body: String(m.summary) };
    case "branchSummary":
      return { title: `branch summary (from ${m.fromId})`, body: String(m.summary) };
    case "user":
      return { title: "user", body: textOf(m.content) };
    case "system": {
      if (!isReplayableSystemMessage(message)) return { title: "system (malformed: pig does not replay it)", body: JSON.stringify(message) };
      const system = message;
      const changes = [
        ...Object.entries(system.sections ?? {}).map(([name, text]) => (text === null ? `−${name}` : name)),
        ...(system.toolsAdded ?? []).map((t) => `+${t.name}`),
        ...(system.toolsRemoved ?? []).map((t) => `−${t.name}`),
      ];
      return { title: `system: prompt and tools${system.replace ? ", starting over" : ""} (${changes.join(" ") || "no change"})`, body: systemPromptText(system) };
    }
    default:
      return { title: `${message.role} (unknown role, not sent to the model)`, body: JSON.stringify(message) };
  }
}

/**
 * What to tell about the session's context edits (Pi ≥ 0.87's `context_edit` entries), which pig
 * keeps but does not apply (docs/sessions.md, "Context edits"); undefined when there are none.
 */
export function contextEditNote(store: SessionStore): string | undefined {
  const all = store.tree.records.filter((r) => r.type === "context_edit").length;
  if (all === 0) return undefined;
  const onBranch = store.branchRecords().filter((r) => r.type === "context_edit").length;
  const where = onBranch === all ? "" : ` (${onBranch} on the active branch)`;
  return (
    `this session has ${all} context edit${all === 1 ? "" : "s"}${where}, written by Pi, which pig keeps but does not apply: ` +
    "the messages they hide or replace stay in this context as they were written (see docs/sessions.md)"
  );
}

export function writeContextText(out: Output, store: SessionStore): void {
  const context = store.buildContext();
  const model = context.model ? `${context.model.provider}/${context.model.modelId}` : "(none)";
  out.shown(`session ${store.sessionId}  ${store.path ?? ""}`);
  if (store.name) out.shown(`name: ${store.name}`);
  out.shown(`model: ${model}  thinking: ${context.thinkingLevel}  messages: ${context.messages.length}`);
  const note = contextEditNote(store);
  if (note) out.shown(`note: ${note}`);
  for (const message of context.messages) {
    const { title, body } = describe(message);
    out.shown("");
    out.shown(`── ${title}`);
    if (body) out.shown(body);
  }
}
