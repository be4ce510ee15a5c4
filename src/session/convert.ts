/**
 * From session messages to the three roles a model understands (user, assistant, toolResult),
 * with upstream Pi's wrapper texts, and the alternative block spellings read as Pi's blocks.
 */
import {
  checkMessage,
  type AgentMessage,
  type AssistantMessage,
  type BashExecutionMessage,
  type ToolResultMessage,
  type UserMessage,
} from "./format.ts";
import type {
  LlmImage,
  LlmMessage,
  LlmText,
  LlmThinking,
  LlmToolCall,
  LlmUserMessage,
} from "../ai/message-types.ts";
import { beginsWithSame } from "../util/same-start.ts";

export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** The user-message text of a `!command` run, as the model sees it. */
export function bashExecutionText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (message.exitCode !== undefined && message.exitCode !== null && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  }
  return text;
}

type Block = { type: string; [key: string]: unknown };

/** Pi's image and tool-call blocks for the alternative spellings; undefined for unknown blocks. */
export function canonicalBlock(block: Block): LlmText | LlmImage | LlmThinking | LlmToolCall | undefined {
  switch (block.type) {
    case "text":
    case "thinking":
    case "toolCall":
      return block as unknown as LlmText | LlmThinking | LlmToolCall;
    case "image": {
      if (typeof block.mimeType === "string") return block as unknown as LlmImage;
      const image: LlmImage = { type: "image", mimeType: String(block.media_type) };
      if (typeof block.data === "string") image.data = block.data;
      if (typeof block.url === "string") image.url = block.url;
      return image;
    }
    case "tool_use":
      return {
        type: "toolCall",
        id: String(block.id),
        name: String(block.name),
        arguments: (block.input ?? {}) as Record<string, unknown>,
      };
    default:
      return undefined;
  }
}

function canonicalContent<T>(content: readonly Block[]): T[] {
  const out: T[] = [];
  for (const block of content) {
    const canonical = canonicalBlock(block);
    if (canonical) out.push(canonical as T);
  }
  return out;
}

function userContent(content: string | readonly Block[]): (LlmText | LlmImage)[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : canonicalContent(content);
}

function userText(text: string, timestamp: number): LlmUserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

// Messages are not changed once made, and every request converts the whole history: each message
// object is checked and converted once (null: the model does not see it), so a request late in a
// long run converts only the messages new since the one before, and the providers can key their
// own per-message work on the same converted objects.
const converted = new WeakMap<object, LlmMessage | null>();

/**
 * Converts one message. Messages pig cannot send (unknown roles, bash runs excluded from
 * context, messages that fail their role's schema) give undefined.
 */
export function toLlmMessage(message: AgentMessage): LlmMessage | undefined {
  const known = converted.get(message);
  if (known !== undefined) return known ?? undefined;
  if (!checkMessage(message).ok) return undefined;
  const made = convertMessage(message);
  converted.set(message, made ?? null);
  return made;
}

function convertMessage(message: AgentMessage): LlmMessage | undefined {
  const m = message;
  switch (m.role) {
    case "user": {
      const user = m as UserMessage;
      return {
        ...user,
        content: typeof user.content === "string" ? user.content : canonicalContent(user.content as Block[]),
      } as LlmUserMessage;
    }
    case "assistant": {
      // A deferred answer (Pi ≥ 0.87) is a placeholder for one the provider has not given yet; a
      // pending one was still streaming when it was written.
      const answer = m as AssistantMessage;
      if (answer.stopReason === "deferred" || answer.stopReason === "pending") return undefined;
      return {
        ...answer,
        stopReason: answer.stopReason,
        content: canonicalContent<LlmText | LlmThinking | LlmToolCall>(answer.content as Block[]),
      };
    }
    case "toolResult":
      return {
        ...(m as ToolResultMessage),
        content: canonicalContent<LlmText | LlmImage>((m as ToolResultMessage).content as Block[]),
      };
    case "custom":
      return { role: "user", content: userContent(m.content as string | Block[]), timestamp: m.timestamp as number };
    case "bashExecution": {
      const bash = m as BashExecutionMessage;
      return bash.excludeFromContext ? undefined : userText(bashExecutionText(bash), bash.timestamp);
    }
    case "branchSummary":
      return userText(BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX, m.timestamp as number);
    case "compactionSummary":
      return userText(COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX, m.timestamp as number);
    // The prompt and tools: requests take them from the context's system messages as a whole
    // (system-messages.ts), not message by message.
    case "system":
    default:
      return undefined;
  }
}

/**
 * The latest list converted and what it gave. A long run converts its growing transcript before
 * every request: a list that begins with the very messages of the latest converts only the rest.
 */
let latestConverted: { read: AgentMessage[]; out: LlmMessage[] } | undefined;

/** Upstream's `convertToLlm`: every message a model can take, in order. */
export function convertToLlm(messages: readonly AgentMessage[]): LlmMessage[] {
  const known = latestConverted !== undefined && beginsWithSame(messages, latestConverted.read) ? latestConverted : undefined;
  // Goes on with the kept lists themselves: they are the latest again below.
  const walk = known ?? { read: [], out: [] };
  for (let i = walk.read.length; i < messages.length; i++) {
    const message = messages[i]!;
    // Converted before either list grows: a message that throws leaves the kept lists as they were.
    const converted = toLlmMessage(message);
    walk.read.push(message);
    if (converted) walk.out.push(converted);
  }
  latestConverted = walk;
  return walk.out.slice();
}

/** The text blocks of a message's content, joined (a plain string content is itself). */
export function contentText(content: unknown, separator = ""): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block: { type?: unknown; text?: unknown }) => (block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join(separator);
}

/** What replaces an image when `images.blockImages` is on. */
export const IMAGE_BLOCKED_TEXT = "Image reading is disabled.";

/**
 * `images.blockImages`: every image of a user or tool-result message becomes the text
 * IMAGE_BLOCKED_TEXT, and a run of those in one message becomes one (upstream's rule).
 */
export function blockImages(messages: readonly LlmMessage[]): LlmMessage[] {
  return messages.map((message) => {
    if (message.role === "assistant" || typeof message.content === "string") return message;
    if (!message.content.some((block) => block.type === "image")) return message;
    const content: (LlmText | LlmImage)[] = [];
    for (const block of message.content) {
      const next: LlmText | LlmImage = block.type === "image" ? { type: "text", text: IMAGE_BLOCKED_TEXT } : block;
      const previous = content.at(-1);
      if (next.type === "text" && next.text === IMAGE_BLOCKED_TEXT && previous?.type === "text" && previous.text === IMAGE_BLOCKED_TEXT) continue;
      content.push(next);
    }
    return { ...message, content } as LlmMessage;
  });
}
