import { describe, expect, test } from "bun:test";
import type { LlmMessage } from "../../src/ai/message-types.ts";
import { blockImages, IMAGE_BLOCKED_TEXT } from "../../src/session/convert.ts";

const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("images.blockImages", () => {
  test("images of user and tool-result messages become one text per run; other messages are untouched", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "look" }, image, image, { type: "text", text: "and" }, image], timestamp: 1 },
      { role: "toolResult", toolCallId: "c", toolName: "read", content: [image], isError: false, timestamp: 2 },
      { role: "user", content: "plain text", timestamp: 3 },
    ];
    const blocked = blockImages(messages);
    expect(blocked[0]!.content).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: IMAGE_BLOCKED_TEXT },
      { type: "text", text: "and" },
      { type: "text", text: IMAGE_BLOCKED_TEXT },
    ]);
    expect(blocked[1]!.content).toEqual([{ type: "text", text: IMAGE_BLOCKED_TEXT }]);
    expect(blocked[2]).toBe(messages[2]!);
    // The input is not changed.
    expect((messages[0]!.content as unknown[]).filter((b) => (b as { type: string }).type === "image")).toHaveLength(3);
  });
});
