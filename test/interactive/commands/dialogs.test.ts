/** The clack dialogs driven through fake streams: answers come back as values, a cancel as undefined/false. */
import { describe, expect, test } from "bun:test";
import { PassThrough, Writable } from "node:stream";
import { createDialogs, optionMatches } from "../../../src/modes/interactive/dialogs.ts";

function harness() {
  const input = new PassThrough();
  let screen = "";
  const output = new Writable({
    write(chunk, _encoding, done) {
      screen += chunk.toString();
      done();
    },
  });
  const dialogs = createDialogs({ input, output });
  /** Types keys once the prompt has rendered. */
  const type = async (...keys: string[]) => {
    for (const key of keys) {
      await Bun.sleep(15);
      input.write(key);
    }
  };
  return { dialogs, type, screen: () => screen };
}

const DOWN = "\x1b[B";
const ENTER = "\r";
const ESCAPE = "\x1b";

describe("dialogs", () => {
  test("pick returns the chosen option's value, objects included", async () => {
    const { dialogs, type } = harness();
    const a = { id: 1 };
    const b = { id: 2 };
    const answer = dialogs.pick("Which?", [
      { value: a, label: "first" },
      { value: b, label: "second", hint: "the other" },
    ]);
    await type(DOWN, ENTER);
    expect(await answer).toBe(b);
  });

  test("pick starts on the initial value", async () => {
    const { dialogs, type } = harness();
    const answer = dialogs.pick("Which?", [{ value: "x", label: "x" }, { value: "y", label: "y" }, { value: "z", label: "z" }], { initial: "y" });
    await type(DOWN, ENTER);
    expect(await answer).toBe("z");
  });

  test("a searchable pick filters by the words typed", async () => {
    const { dialogs, type } = harness();
    const answer = dialogs.pick("Model", [
      { value: "a", label: "openai/gpt-5.4" },
      { value: "b", label: "anthropic/claude-opus", hint: "reasoning" },
    ], { search: true });
    await type("cl", "aude", ENTER);
    expect(await answer).toBe("b");
  });

  test("a cancelled pick is undefined, a cancelled confirm false, a cancelled question undefined", async () => {
    const h1 = harness();
    const pick = h1.dialogs.pick("Which?", [{ value: 1, label: "one" }]);
    await h1.type(ESCAPE);
    expect(await pick).toBeUndefined();

    const h2 = harness();
    const confirm = h2.dialogs.confirm("Sure?", true);
    await h2.type(ESCAPE);
    expect(await confirm).toBe(false);

    const h3 = harness();
    const ask = h3.dialogs.ask("Name?");
    await h3.type(ESCAPE);
    expect(await ask).toBeUndefined();
  });

  test("confirm and ask return what was entered; a masked answer is not echoed", async () => {
    const h1 = harness();
    const confirm = h1.dialogs.confirm("Sure?", false);
    await h1.type("y");
    expect(await confirm).toBe(true);

    const h2 = harness();
    const ask = h2.dialogs.ask("Key?", { mask: true });
    await h2.type("s3cret", ENTER);
    expect(await ask).toBe("s3cret");
    expect(h2.screen()).not.toContain("s3cret");
  });

  test("an empty pick answers undefined without opening", async () => {
    const { dialogs } = harness();
    expect(await dialogs.pick("Nothing", [])).toBeUndefined();
  });

  test("search matches every word in label or hint", () => {
    expect(optionMatches("claude reas", { label: "anthropic/claude-opus", hint: "reasoning" })).toBe(true);
    expect(optionMatches("claude gpt", { label: "anthropic/claude-opus" })).toBe(false);
    expect(optionMatches("", { label: "x" })).toBe(true);
  });
});
