/** A scripted `LoginIO` for driving a login from a test, and the overrides file for a fake server. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoginIO, LoginNotice, LoginQuestion } from "../../../src/ai/oauth/types.ts";
import type { FakeOAuth } from "../../helpers/fake-oauth.ts";
import { tempDir } from "../../helpers/tmp.ts";

export interface ScriptedIO extends LoginIO {
  notices: LoginNotice[];
  questions: LoginQuestion[];
  controller: AbortController;
}

/**
 * `answer` answers each question (a promise that never settles leaves it to the browser);
 * `onNotice` sees each notice as it is told.
 */
export function scriptedIO(answer: (q: LoginQuestion) => Promise<string>, onNotice: (n: LoginNotice) => void = () => {}): ScriptedIO {
  const controller = new AbortController();
  const notices: LoginNotice[] = [];
  const questions: LoginQuestion[] = [];
  return {
    notices,
    questions,
    controller,
    signal: controller.signal,
    tell(notice) {
      notices.push(notice);
      onNotice(notice);
    },
    ask(question) {
      questions.push(question);
      return new Promise((resolve, reject) => {
        question.signal?.addEventListener("abort", () => reject(new Error("question withdrawn")), { once: true });
        answer(question).then(resolve, reject);
      });
    },
  };
}

export const never = () => new Promise<string>(() => {});

/** An agent dir and the env whose `PIG_OAUTH_ENDPOINTS` points `providers` at `fake`. */
export function loginWorld(fake: FakeOAuth, providers: string[]): { agentDir: string; authPath: string; env: NodeJS.ProcessEnv } {
  const agentDir = tempDir();
  const overrides = Object.fromEntries(providers.map((p) => [p, fake.overridesFor(p)]));
  const file = join(agentDir, "oauth-endpoints.json");
  writeFileSync(file, JSON.stringify(overrides));
  return { agentDir, authPath: join(agentDir, "auth.json"), env: { PIG_OAUTH_ENDPOINTS: file } };
}
