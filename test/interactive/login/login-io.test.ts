import { describe, expect, test } from "bun:test";
import { LoginCancelled } from "../../../src/ai/oauth/types.ts";
import { createLoginIO, type LoginSurface } from "../../../src/modes/interactive/login/login-io.ts";
import type { PickOption } from "../../../src/modes/interactive/host.ts";
import { stripAnsi } from "../../../src/util/width.ts";

/** A surface whose ask waits until the test answers, or until its signal closes it (as a dialog does). */
function surface() {
  const printed: string[] = [];
  const asked: { message: string; config?: { mask?: boolean; abortedAs?: string; placeholder?: string } }[] = [];
  let answer: ((value: string | undefined) => void) | undefined;
  const s: LoginSurface = {
    ask(message, config) {
      asked.push({ message, ...(config ? { config } : {}) });
      return new Promise((resolve) => {
        answer = resolve;
        config?.signal?.addEventListener("abort", () => resolve(undefined), { once: true });
      });
    },
    async pick<T>(message: string, options: PickOption<T>[]) {
      asked.push({ message });
      return options[1]?.value;
    },
    print: (text) => printed.push(stripAnsi(text)),
  };
  return { s, printed, asked, answer: (value: string | undefined) => answer!(value) };
}

describe("LoginIO for the terminal", () => {
  test("a pasted code the flow no longer needs closes itself; the login goes on", async () => {
    const { s, asked } = surface();
    const cancel = new AbortController();
    const io = createLoginIO(s, { cancel, hyperlinks: false, env: { PIG_NO_BROWSER: "1" } });
    const question = new AbortController();
    const pending = io.ask({ kind: "pasted_code", message: "Paste the URL", placeholder: "http://localhost/cb", signal: question.signal });
    question.abort();
    await expect(pending).rejects.toBeInstanceOf(LoginCancelled);
    expect(cancel.signal.aborted).toBe(false);
    expect(asked[0]!.config).toMatchObject({ abortedAs: "not needed: the browser answered", answeredAs: "pasted", placeholder: "http://localhost/cb" });
  });

  test("a dialog the person cancels cancels the whole login", async () => {
    const { s, answer } = surface();
    const cancel = new AbortController();
    const io = createLoginIO(s, { cancel, hyperlinks: false });
    const pending = io.ask({ kind: "text", message: "Enterprise domain" });
    answer(undefined);
    await expect(pending).rejects.toBeInstanceOf(LoginCancelled);
    expect(io.signal.aborted).toBe(true);
    await expect(io.ask({ kind: "text", message: "again" })).rejects.toBeInstanceOf(LoginCancelled);
  });

  test("Escape outside a dialog (the cancel) closes an open question too", async () => {
    const { s } = surface();
    const cancel = new AbortController();
    const io = createLoginIO(s, { cancel, hyperlinks: false });
    const pending = io.ask({ kind: "pasted_code", message: "Paste" });
    cancel.abort();
    await expect(pending).rejects.toBeInstanceOf(LoginCancelled);
  });

  test("answers are trimmed; a secret is masked; a select answers the option's id", async () => {
    const { s, asked, answer } = surface();
    const io = createLoginIO(s, { cancel: new AbortController(), hyperlinks: false });
    const typed = io.ask({ kind: "secret", message: "Token" });
    answer("  tok-123  ");
    expect(await typed).toBe("tok-123");
    expect(asked[0]!.config?.mask).toBe(true);
    expect(await io.ask({ kind: "select", message: "Where", options: [{ id: "a", label: "A" }, { id: "b", label: "B" }] })).toBe("b");
  });

  test("an open_url notice tries the browser unless it is turned off, and says which", () => {
    const opened: string[] = [];
    const on = surface();
    createLoginIO(on.s, { cancel: new AbortController(), hyperlinks: false, env: { DISPLAY: ":0" }, open: (url) => (opened.push(url), true) }).tell({ kind: "open_url", url: "https://a.example/auth" });
    expect(opened).toEqual(["https://a.example/auth"]);
    expect(on.printed.join("\n")).toContain("pig asked your browser to open it");
    const off = surface();
    createLoginIO(off.s, { cancel: new AbortController(), hyperlinks: false, env: { PIG_NO_BROWSER: "1", DISPLAY: ":0" }, open: (url) => (opened.push(url), true) }).tell({ kind: "open_url", url: "https://b.example/auth" });
    expect(opened).toEqual(["https://a.example/auth"]);
    expect(off.printed.join("\n")).toContain("https://b.example/auth\nOpen it in a browser (pig did not open one: PIG_NO_BROWSER is set).");
  });
});
