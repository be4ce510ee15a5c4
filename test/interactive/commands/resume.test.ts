import { describe, expect, setSystemTime, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { newAssistantMessage } from "../../../src/ai/types.ts";
import { createResumeCommand, type ResumeDeps } from "../../../src/modes/interactive/commands/resume.ts";
import { SessionStore } from "../../../src/session/store.ts";
import { makeHost, type FakeHost } from "./fake-host.ts";

function deps(trash: string | null, runs: string[][] = []): ResumeDeps {
  return {
    which: (command) => (command === "trash" ? trash : null),
    async run(argv) {
      runs.push(argv);
      return 0;
    },
    now: () => new Date(),
  };
}

/**
 * Two written sessions of the project; the host is in the second ("second"). Each is begun and
 * written a second apart (a session's time is when it was last written, its header included):
 * written within one millisecond, the two would tie in the order.
 */
async function twoSessions(host: FakeHost): Promise<string> {
  const base = Date.now() - 10_000;
  try {
    setSystemTime(new Date(base));
    await host.session.newSession();
    await host.session.prompt("first session");
    const first = host.session.store.path!;
    setSystemTime(new Date(base + 1000));
    await host.session.newSession();
    await host.session.prompt("second");
    // Only what the command under test changes is counted.
    host.changes = 0;
    return first;
  } finally {
    setSystemTime();
  }
}

/** A session of another project under <agentDir>/sessions. */
function otherProjectSession(agentDir: string): string {
  const dir = join(agentDir, "sessions", "--elsewhere--");
  mkdirSync(dir, { recursive: true });
  const store = SessionStore.create({ cwd: "/elsewhere", dir });
  store.appendMessage({ role: "user", content: "from elsewhere", timestamp: Date.now() });
  const answer = newAssistantMessage(registryModel());
  answer.content.push({ type: "text", text: "hi" });
  store.appendMessage(answer);
  store.flush();
  store.close();
  return store.path!;
}

function registryModel() {
  return { id: "m", name: "m", api: "openai-completions" as const, provider: "test", baseUrl: "", reasoning: false, input: ["text" as const], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1, maxTokens: 1 };
}

describe("/resume", () => {
  test("lists this project's sessions newest first with message count and age, and opens one", async () => {
    const host = makeHost();
    const first = await twoSessions(host);
    host.pickAnswers = [{ label: "first session" }];
    await createResumeCommand(deps(null)).run(host, "");
    const { options, config } = host.picks[0]!;
    expect(config?.search).toBe(true);
    expect(options.map((o) => o.label)).toEqual(["second", "first session", "↺ Show all projects", "✕ Delete a session…"]);
    // The system message declaring the prompt counts, as in Pi 0.87's session list.
    expect(options[0]!.hint).toBe("3 msgs · just now · current");
    expect(options[1]!.hint).toBe("3 msgs · just now");
    expect(host.session.store.path).toBe(first);
    expect(host.session.messages).toHaveLength(3);
    expect(host.changes).toBe(1);
  });

  test("a session's name is shown instead of its first message", async () => {
    const host = makeHost();
    await host.session.prompt("first session");
    host.session.setSessionName("Named one");
    host.pickAnswers = ["cancel"];
    await createResumeCommand(deps(null)).run(host, "");
    expect(host.picks[0]!.options[0]!.label).toBe("Named one");
  });

  test("an argument filters the list", async () => {
    const host = makeHost();
    await twoSessions(host);
    host.pickAnswers = ["cancel"];
    await createResumeCommand(deps(null)).run(host, "first");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["first session", "↺ Show all projects", "✕ Delete a session…"]);
  });

  test("a search also finds words said later in a session, not JSON field names", async () => {
    const host = makeHost();
    host.runtime.replies.push("the answer mentions kumquats");
    await twoSessions(host);
    host.pickAnswers = ["cancel", "cancel"];
    await createResumeCommand(deps(null)).run(host, "kumquats");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["first session", "↺ Show all projects", "✕ Delete a session…"]);
    await createResumeCommand(deps(null)).run(host, "assistant");
    expect(host.picks[1]!.options.map((o) => o.label)).toEqual(["↺ Show all projects"]);
  });

  test("the toggle switches to every project's sessions, showing their directory", async () => {
    const host = makeHost();
    await twoSessions(host);
    otherProjectSession(host.agentDir);
    host.pickAnswers = [{ label: "Show all projects" }, "cancel"];
    await createResumeCommand(deps(null)).run(host, "");
    const all = host.picks[1]!;
    expect(all.message).toContain("all projects");
    expect(all.options[0]!.label).toBe("from elsewhere");
    expect(all.options[0]!.hint).toContain("/elsewhere");
    expect(all.options.some((o) => o.label.includes("Show this project only"))).toBe(true);
  });

  test("choosing the current session leaves it as it is", async () => {
    const host = makeHost();
    await twoSessions(host);
    const path = host.session.store.path;
    host.pickAnswers = [{ label: "second" }];
    await createResumeCommand(deps(null)).run(host, "");
    expect(host.session.store.path).toBe(path);
    expect(host.changes).toBe(0);
  });

  test("delete uses trash when installed, after one confirmation", async () => {
    const host = makeHost();
    const first = await twoSessions(host);
    const runs: string[][] = [];
    host.pickAnswers = [{ label: "Delete" }, { label: "first session" }, "cancel"];
    host.confirmAnswers = [true];
    await createResumeCommand(deps("/usr/bin/trash", runs)).run(host, "");
    expect(runs).toEqual([["/usr/bin/trash", first]]);
    expect(host.text).toContain("Moved to the trash");
  });

  test("without trash, deleting for good needs a second confirmation", async () => {
    const host = makeHost();
    const first = await twoSessions(host);
    host.pickAnswers = [{ label: "Delete" }, { label: "first session" }, "cancel"];
    host.confirmAnswers = [true, false];
    await createResumeCommand(deps(null)).run(host, "");
    expect(existsSync(first)).toBe(true);
    expect(host.confirms[1]).toContain("permanently");

    host.pickAnswers = [{ label: "Delete" }, { label: "first session" }, "cancel"];
    host.confirmAnswers = [true, true];
    await createResumeCommand(deps(null)).run(host, "");
    expect(existsSync(first)).toBe(false);
    // The list shown after deleting no longer has it.
    expect(host.picks.at(-1)!.options.map((o) => o.label)).not.toContain("first session");
  });

  test("the current session cannot be deleted", async () => {
    const host = makeHost();
    await twoSessions(host);
    const current = host.session.store.path!;
    host.pickAnswers = [{ label: "Delete" }, { label: "second" }, "cancel"];
    await createResumeCommand(deps(null)).run(host, "");
    expect(existsSync(current)).toBe(true);
    expect(host.confirms).toHaveLength(0);
    expect(host.text).toContain("the session you are in");
  });

  test("with --no-session there is no project directory: every project is listed", async () => {
    const host = makeHost({ inMemory: true, noSessionDir: true });
    otherProjectSession(host.agentDir);
    host.pickAnswers = ["cancel"];
    await createResumeCommand(deps(null)).run(host, "");
    expect(host.picks[0]!.options.map((o) => o.label)).toEqual(["from elsewhere", "✕ Delete a session…"]);
  });
});
