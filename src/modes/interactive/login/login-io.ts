/**
 * `LoginIO` for a terminal: questions are pig's dialogs, notices are lines in the scrollback.
 * One login, one `LoginIO`: cancelling any of its dialogs (Escape, Ctrl+C) cancels the whole
 * login, as does the caller's `cancel` (Escape while no dialog is open). A question the flow no
 * longer needs (a pasted code, once the browser answered the callback server) closes itself.
 */
import { LoginCancelled, type LoginIO, type LoginNotice, type LoginQuestion } from "../../../ai/oauth/types.ts";
import type { PickOption } from "../host.ts";
import { noticeLines, type NoticeStyle } from "./login-notices.ts";
import { browserUnavailable, openBrowser } from "../../../util/open-browser.ts";

/** The dialogs and printing a login needs (the host's, or the first-run setup's). */
export interface LoginSurface {
  ask(message: string, config?: { placeholder?: string; mask?: boolean; signal?: AbortSignal; abortedAs?: string; answeredAs?: string }): Promise<string | undefined>;
  pick<T>(message: string, options: PickOption<T>[], config?: { signal?: AbortSignal }): Promise<T | undefined>;
  /** Writes lines pig styled (their outside parts already made safe). */
  print(text: string): void;
}

export interface LoginIOOptions extends NoticeStyle {
  /** Aborted when the whole login is cancelled; the IO aborts it too when a dialog is cancelled. */
  cancel: AbortController;
  /** Where a browser is opened from; the environment decides whether it is tried. */
  env?: Record<string, string | undefined>;
  /** Injectable for tests: tries to open a page, true when an opener was started. */
  open?: (url: string) => boolean;
}

export function createLoginIO(surface: LoginSurface, options: LoginIOOptions): LoginIO {
  const { cancel } = options;
  const env = options.env ?? process.env;
  const open = options.open ?? ((url: string) => openBrowser(url, env));

  async function answer(question: LoginQuestion, signal: AbortSignal): Promise<string | undefined> {
    switch (question.kind) {
      case "text":
        return surface.ask(question.message, { ...(question.placeholder ? { placeholder: question.placeholder } : {}), signal });
      case "secret":
        return surface.ask(question.message, { mask: true, signal });
      case "select":
        return surface.pick(
          question.message,
          question.options.map((option) => ({ value: option.id, label: option.label, ...(option.description ? { hint: option.description } : {}) })),
          { signal },
        );
      case "pasted_code":
        return surface.ask(question.message, {
          ...(question.placeholder ? { placeholder: question.placeholder } : {}),
          signal,
          abortedAs: "not needed: the browser answered",
          // The redirect URL carries the authorization code: it is not left on the screen.
          answeredAs: "pasted",
        });
    }
  }

  return {
    signal: cancel.signal,
    async ask(question) {
      if (cancel.signal.aborted) throw new LoginCancelled();
      const signal = question.signal ? AbortSignal.any([cancel.signal, question.signal]) : cancel.signal;
      const typed = await answer(question, signal);
      if (typed === undefined) {
        // Closed by the person, not by the flow: the whole login ends.
        if (!question.signal?.aborted) cancel.abort();
        throw new LoginCancelled();
      }
      return typed.trim();
    },
    tell(notice: LoginNotice) {
      if (cancel.signal.aborted) return;
      let browser: { opened: boolean; why?: string } | undefined;
      if (notice.kind === "open_url") {
        const why = browserUnavailable(env);
        browser = why ? { opened: false, why } : { opened: open(notice.url) };
      }
      surface.print(noticeLines(notice, options, browser).join("\n"));
    },
  };
}
