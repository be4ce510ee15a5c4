/**
 * Details a new user notices in interactive pig, checked in a real terminal (tmux): what
 * `/session` counts, what `/label` says, `/copy` without a clipboard tool, long pastes, the
 * `/tree` drawing and Ctrl+C while the agent works.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { CLIPBOARD_TOOLS } from "../../src/util/clipboard.ts";
import { interactivePig, sessionMessages } from "../helpers/interactive-pig.ts";
import { type TmuxSession, tmuxAvailable } from "../helpers/tmux.ts";
import { describeNeeding } from "../helpers/needs.ts";

const { start } = interactivePig();

/** PATH without the directories that hold a clipboard tool (as over ssh on a server). */
function pathWithoutClipboardTools(): string {
  const tools = CLIPBOARD_TOOLS.map(([command]) => command!);
  return (process.env.PATH ?? "/usr/bin:/bin")
    .split(delimiter)
    .filter((dir) => dir && !tools.some((tool) => existsSync(join(dir, tool))))
    .join(delimiter);
}

async function ask(tmux: TmuxSession, text: string, wait: string | RegExp | ((screen: string) => boolean)) {
  tmux.type(text);
  tmux.sendKeys("Enter");
  return tmux.waitFor(wait);
}

describeNeeding("tmux", tmuxAvailable(), "interactive details", () => {
  test("/session: the message counts add up to the total, and ! commands are counted as shell commands", async () => {
    const { tmux } = await start([
      { text: "Looking.", toolCalls: [{ name: "bash", arguments: { command: "echo from-tool" } }] },
      { text: "Done looking." },
    ]);
    await ask(tmux, "look around", /Done looking\.[\s\S]*↑\d/);
    await ask(tmux, "!echo from-shell", (s) => s.includes("│ from-shell") && !s.includes("Esc to stop"));
    const screen = await ask(tmux, "/session", "Tool calls:");
    const line = screen.match(/Messages:\s+(\d+) \(([^)]*)\)/);
    expect(line).not.toBeNull();
    const parts = line![2]!.split(", ");
    expect(parts).toEqual(["1 user", "1 prompt message", "2 assistant", "1 tool result", "1 shell command"]);
    const sum = parts.reduce((total, part) => total + Number.parseInt(part, 10), 0);
    expect(sum).toBe(Number(line![1]));
    expect(screen).toMatch(/Tool calls: 1\b/);
  });

  test("/label without text on an entry that has no label says so", async () => {
    const { tmux } = await start(undefined);
    await ask(tmux, "hello", /↑\d/);
    const screen = await ask(tmux, "/label", "has no label to remove");
    expect(screen).not.toContain("Label cleared.");
    await ask(tmux, "/label milestone", "Labelled: milestone");
    await ask(tmux, "/label", "Label cleared.");
  });

  test("/copy without a clipboard tool goes through the terminal (OSC 52): tmux's buffer holds the answer", async () => {
    const answer = "Copy me over ssh: ünïcode and all.";
    const { tmux } = await start([{ text: answer }], { env: { PATH: pathWithoutClipboardTools() } });
    // tmux takes OSC 52 from programs into a paste buffer when set-clipboard is on.
    tmux.setGlobalOption("set-clipboard", "on");
    await ask(tmux, "say something", /Copy me over ssh[\s\S]*↑\d/);
    expect(tmux.showBuffer()).toBeUndefined();
    const screen = await ask(tmux, "/copy", "clipboard (OSC 52");
    expect(screen).toContain(`Sent the last answer (${answer.length} characters) to the terminal's clipboard (OSC 52;`);
    expect(tmux.showBuffer()).toBe(answer);
  });

  test("a paste of 100 lines shows as [pasted 100 lines] and is sent whole", async () => {
    const { tmux, world } = await start(undefined);
    const lines = Array.from({ length: 100 }, (_, i) => `pasted line ${i + 1}`);
    tmux.type("Explain: ");
    tmux.paste(lines.join("\n"));
    const screen = await tmux.waitFor("› Explain: [pasted 100 lines]");
    expect(screen).not.toContain("pasted line 1");
    tmux.sendKeys("Enter");
    await tmux.waitFor(/↑\d/);
    const body = world.llm.requests.at(-1)!.body as { messages: { role: string; content: string | { text: string }[] }[] };
    const user = body.messages.findLast((m) => m.role === "user")!;
    const text = typeof user.content === "string" ? user.content : user.content.map((c) => c.text).join("");
    expect(text).toBe(`Explain: ${lines.join("\n")}`);
  });

  test("/tree draws its branches with connectors and dims the folded model and thinking level changes", async () => {
    const { tmux } = await start(undefined, { settings: { branchSummary: { skipPrompt: true } } });
    await ask(tmux, "question one", /↑\d/);
    await ask(tmux, "question two", /question two[\s\S]*↑\d/);
    await ask(tmux, "/tree", "Session tree · conversation");
    tmux.type("question one");
    await tmux.waitFor("Session tree · conversation · 1/1");
    tmux.sendKeys("Enter");
    // The move is done once pig has printed where it is now and the question is back in the editor
    // (at the end of the screen: the question's own line higher up is no sign).
    await tmux.waitFor((screen) => /Session [0-9a-f]{8,} · \d+ messages?/.test(screen) && /› question one\s*$/.test(screen));
    tmux.sendKeys("C-u");
    await ask(tmux, "another way", /another way[\s\S]*↑\d/);
    const screen = await ask(tmux, "/tree", "← here");
    expect(screen).toMatch(/├─ {3}user: question one\n.*│ {4}assistant: ok\n.*│ {4}user: question two\n.*│ {4}assistant: ok\n.*└─ • user: another way\n.* {3}• assistant: ok ← here/);
    // The folded settings entries have a colour of their own (the theme's dim); messages keep the text colour.
    const styled = tmux.captureStyled().split("\n");
    const row = (text: string) => styled.find((line) => line.includes(text))!;
    expect(row("model → fake/fake-model")).toMatch(/\x1b\[38;[\d;]+m⋯ model → fake\/fake-model · thinking → off/);
    const question = styled.find((line) => line.includes("user:") && line.includes("question two"))!;
    expect(question).toMatch(/user: (\x1b\[[\d;]*m)*question two/);
    expect(question).not.toMatch(/\x1b\[38;[\d;]+mquestion two/);
  });

  test("Ctrl+C while the agent works stops it and keeps the draft; a second Ctrl+C quits", async () => {
    const slow = { text: "working on it slowly", chunkSize: 2, stallAfterChunks: 3 };
    const { tmux, world } = await start([slow, slow]);
    const stopped = "Stopped. Press Ctrl+C again to quit.";
    await ask(tmux, "first", "Esc to stop");
    tmux.type("draft");
    await tmux.waitFor("› draft");
    tmux.sendKeys("C-c");
    const screen = await tmux.waitFor((s) => s.includes(stopped) && !s.includes("Esc to stop"));
    expect(screen).toContain("(aborted)");
    expect(screen).toMatch(/› draft\s*$/);
    expect(tmux.exited()).toBe(false);
    expect(sessionMessages(world).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });

    // With the draft cleared, another run is stopped the same way; on the empty prompt the next Ctrl+C quits.
    tmux.sendKeys("C-u");
    await tmux.waitFor(/›\s*$/);
    await ask(tmux, "second", (s) => s.includes("Esc to stop") && s.split(stopped).length === 2);
    tmux.sendKeys("C-c");
    await tmux.waitFor((s) => s.split(stopped).length === 3 && !s.includes("Esc to stop"));
    tmux.sendKeys("C-c");
    await tmux.waitForExit();
  });
});
