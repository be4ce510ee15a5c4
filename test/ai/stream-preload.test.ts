// Importing an API's implementation ahead of the first request (pig does while its extensions
// load): an API that is not built in is left alone, a second preload changes nothing, and the
// request then goes out as it would have.
import { expect, test } from "bun:test";
import { preloadStream } from "../../src/ai/stream.ts";
import { fakeModel } from "../helpers/fake-model.ts";
import { sentRequest } from "../helpers/sent-request.ts";

test("a preloaded API serves the next request; an unknown one is ignored", async () => {
  expect(() => preloadStream("no-such-api")).not.toThrow();
  preloadStream("openai-completions");
  preloadStream("openai-completions");
  const sent = await sentRequest(fakeModel(), { systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: "k" });
  expect(sent.path).toBe("/v1/chat/completions");
});
