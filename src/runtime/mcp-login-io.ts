/**
 * A sign-in's questions and notices through a command's UI (`ctx.ui`), so `/mcp login` works the
 * same in every mode: the interactive dialogs, an RPC client's `extension_ui_request`s, or a
 * print run's notices. The authorization page is also opened in a browser when pig runs in a
 * terminal with a display; it is always shown, for a browser on another machine.
 */
import { LoginCancelled, type LoginIO, type LoginNotice } from "../ai/oauth/types.ts";
import type { ExtensionUI } from "../extensions/ui.ts";
import { browserUnavailable, openBrowser } from "../util/open-browser.ts";

export interface CommandLoginOptions {
  /** Aborted to cancel the sign-in; the IO aborts it when the user closes a dialog. */
  cancel: AbortController;
  /** Whether pig may open a browser on this machine (the interactive mode). */
  openPages: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

function noticeText(notice: LoginNotice, opened: string | undefined): string {
  switch (notice.kind) {
    case "open_url":
      return [notice.instructions ?? "Open this page in a browser:", notice.url, ...(opened ? [opened] : [])].join("\n");
    case "device_code":
      return `Open ${notice.verificationUri} and enter the code ${notice.userCode}`;
    case "info":
      return [notice.message, ...(notice.links ?? []).map((link) => `${link.label ? `${link.label}: ` : ""}${link.url}`)].join("\n");
    case "progress":
      return notice.message;
  }
}

export function commandLoginIO(ui: ExtensionUI, options: CommandLoginOptions): LoginIO {
  const { cancel } = options;
  return {
    signal: cancel.signal,
    tell(notice) {
      if (cancel.signal.aborted) return;
      let opened: string | undefined;
      if (notice.kind === "open_url" && options.openPages) {
        const why = browserUnavailable(options.env);
        opened = why ? `(pig did not open a browser: ${why})` : openBrowser(notice.url, options.env) ? "pig asked your browser to open it; if nothing opened, open the link yourself." : undefined;
      }
      ui.notify(noticeText(notice, opened), "info");
    },
    async ask(question) {
      if (cancel.signal.aborted) throw new LoginCancelled();
      const signal = question.signal ? AbortSignal.any([cancel.signal, question.signal]) : cancel.signal;
      let answer: string | undefined;
      if (!ui.hasUI && question.kind === "pasted_code") {
        if (signal.aborted) throw new LoginCancelled();
        // Nobody can paste (print mode): wait for the browser's callback (or the end of the sign-in).
        return new Promise<string>((_, reject) => signal.addEventListener("abort", () => reject(new LoginCancelled()), { once: true }));
      }
      if (question.kind === "select") {
        const labels = question.options.map((option) => option.label);
        const picked = await ui.select(question.message, labels, { signal });
        answer = question.options.find((option) => option.label === picked)?.id;
      } else {
        answer = await ui.input(question.message, question.placeholder, { signal });
      }
      // An empty paste is no answer either: the sign-in ends, as when the dialog is closed.
      if (answer === undefined || (question.kind === "pasted_code" && !answer.trim())) {
        if (!question.signal?.aborted) cancel.abort();
        throw new LoginCancelled();
      }
      return answer.trim();
    },
  };
}
