/**
 * The contract between a subscription (OAuth) login and whoever drives it: the interactive
 * `/login`, the first-start wizard and the headless `pig login <provider>`. A flow never touches
 * the terminal itself: it asks questions and tells notices through `LoginIO`, so one flow serves
 * every surface and a test can answer for the user.
 */

/** Something a login needs from the user. `signal` aborts the question when it is no longer needed. */
export type LoginQuestion =
  | { kind: "text"; message: string; placeholder?: string; signal?: AbortSignal }
  | { kind: "secret"; message: string; placeholder?: string; signal?: AbortSignal }
  | { kind: "select"; message: string; options: readonly { id: string; label: string; description?: string }[]; signal?: AbortSignal }
  /**
   * The redirect URL (or bare code) from a browser on another machine. Asked while the loopback
   * callback server also waits; whichever answers first wins and the other is aborted.
   */
  | { kind: "pasted_code"; message: string; placeholder?: string; signal?: AbortSignal };

/** Something a login shows the user. URLs and codes are shown whole, never shortened. */
export type LoginNotice =
  | { kind: "info"; message: string; links?: readonly { url: string; label?: string }[] }
  /** Open this URL in a browser (the driver may also try to open it itself). */
  | { kind: "open_url"; url: string; instructions?: string }
  /** Device-code flow: enter `userCode` at `verificationUri`. */
  | { kind: "device_code"; userCode: string; verificationUri: string; expiresInSeconds?: number }
  | { kind: "progress"; message: string };

export interface LoginIO {
  /** Resolves with the answer; rejects with `LoginCancelled` when the user cancels. */
  ask(question: LoginQuestion): Promise<string>;
  tell(notice: LoginNotice): void;
  /** Aborted when the user cancels the whole login (Escape, Ctrl+C). */
  signal: AbortSignal;
}

/** A provider that offers a subscription login, as the pickers list it. */
export interface SubscriptionLogin {
  /** The provider id the credential is stored under in auth.json ("anthropic", "openai-codex", …). */
  provider: string;
  /** What the user signs in with, e.g. "Claude Pro/Max", "ChatGPT Plus/Pro (Codex)". */
  name: string;
  flow: "browser" | "device";
}

/** The user cancelled the login; nothing was stored. */
export class LoginCancelled extends Error {
  constructor(message = "Login cancelled") {
    super(message);
    this.name = "LoginCancelled";
  }
}

/** The login could not finish; the message says what went wrong and what to do. Nothing was stored. */
export class LoginFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoginFailed";
  }
}
