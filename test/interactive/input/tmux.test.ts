/**
 * The input editor in a real terminal: demo.ts runs inside tmux at 80×24 and the tests type,
 * paste and read the screen back. Every wait has a timeout and every session is killed.
 */
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { TmuxSession, tmuxAvailable } from "../../helpers/tmux.ts";
import { describeNeeding } from "../../helpers/needs.ts";

const DEMO = join(import.meta.dir, "demo.ts");
const TIMEOUT = 60_000;

async function withDemo(env: Record<string, string>, run: (session: TmuxSession) => Promise<void>): Promise<void> {
  const session = TmuxSession.start({
    command: [process.execPath, DEMO],
    width: 80,
    height: 24,
    env: { DEMO_AGENT_DIR: tempDir(), NO_COLOR: "1", ...env },
  });
  try {
    await session.waitFor("demo ready");
    await session.waitFor(/^›/m);
    await run(session);
  } finally {
    session.kill();
  }
}

/** The screen row the prompt marker is on, and the rows below it. */
function promptRows(screen: string): string[] {
  const lines = screen.split("\n");
  const start = lines.findIndex((line) => line.startsWith("›"));
  return start === -1 ? [] : lines.slice(start).filter((line, i) => i === 0 || line.startsWith("  ") || line.startsWith("▸"));
}

/** The last non-empty row of a screen. */
function lastLine(screen: string): string {
  const lines = screen.replace(/\n+$/, "").split("\n");
  return lines[lines.length - 1] ?? "";
}

async function waitUntil(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(30);
  }
}

/** The demo echoes each submission as submit[kind]: <json>. */
function submission(kind: string, text: string): string {
  return `submit[${kind}]: ${JSON.stringify(text)}`;
}

describeNeeding("tmux", tmuxAvailable(), "input editor in tmux", () => {
  test(
    "typing and editing: word delete, line start/end, wide characters with the cursor after them",
    async () => {
      await withDemo({}, async (s) => {
        s.type("hello world");
        s.sendKeys("C-w");
        s.type("there");
        s.sendKeys("C-a");
        s.type(">> ");
        s.sendKeys("C-e");
        s.type(" 中文");
        await s.waitFor("› >> hello there 中文");
        const row = s.lines().findIndex((line) => line.startsWith("›"));
        // The cursor is placed after the text is drawn: wait for it rather than read it at once.
        await waitUntil(() => s.cursor().x === 2 + ">> hello there ".length + 4);
        expect(s.cursor()).toEqual({ x: 2 + ">> hello there ".length + 4, y: row });
        s.sendKeys("Left");
        await waitUntil(() => s.cursor().x === 2 + ">> hello there ".length + 2);
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", ">> hello there 中文"));
      });
    },
    TIMEOUT,
  );

  test(
    "Shift+Enter (both encodings) and Alt+Enter insert newlines when idle; when busy Alt+Enter submits a follow-up",
    async () => {
      await withDemo({}, async (s) => {
        s.type("a");
        s.sendRaw("\x1b[13;2u");
        s.type("b");
        s.sendRaw("\x1b[27;2;13~");
        s.type("c");
        s.sendKeys("M-Enter");
        s.type("d");
        const screen = await s.waitFor("  d");
        expect(promptRows(screen)).toEqual(["› a", "  b", "  c", "  d"]);
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "a\nb\nc\nd"));
        s.type("/busy");
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "/busy"));
        s.type("follow up");
        s.sendKeys("M-Enter");
        await s.waitFor(submission("alt-enter", "follow up"));
        s.type("steer");
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "steer"));
      });
    },
    TIMEOUT,
  );

  test(
    "history survives a restart: Up recalls older entries, Down returns to the draft",
    async () => {
      const agentDir = tempDir();
      await withDemo({ DEMO_AGENT_DIR: agentDir }, async (s) => {
        s.type("first entry");
        s.sendKeys("Enter");
        s.type("second entry");
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "second entry"));
        s.sendKeys("C-c", "C-c");
        await s.waitForExit();
      });
      await withDemo({ DEMO_AGENT_DIR: agentDir }, async (s) => {
        s.type("my draft");
        s.sendKeys("Up");
        await s.waitFor("› second entry");
        s.sendKeys("Up");
        await s.waitFor("› first entry");
        s.sendKeys("Down");
        await s.waitFor("› second entry");
        s.sendKeys("Down");
        await s.waitFor("› my draft");
      });
    },
    TIMEOUT,
  );

  test(
    "a multi-line paste is inserted whole and submitted as one message",
    async () => {
      await withDemo({}, async (s) => {
        s.paste("line one\nline two\n  indented");
        const screen = await s.waitFor("    indented");
        expect(promptRows(screen)).toEqual(["› line one", "  line two", "    indented"]);
        s.sendKeys("Enter");
        const after = await s.waitFor("submit[");
        expect(after.match(/submit\[/g)?.length).toBe(1);
        expect(after).toContain(submission("enter", "line one\nline two\n  indented"));
      });
    },
    TIMEOUT,
  );

  test(
    "Tab completes a slash command; with several matches a list opens, Tab moves, Enter accepts",
    async () => {
      await withDemo({}, async (s) => {
        s.type("/he");
        s.sendKeys("Tab");
        await s.waitFor("› /help");
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "/help "));
        s.type("/se");
        s.sendKeys("Tab");
        const list = await s.waitFor("▸ /session");
        expect(list).toContain("  /settings");
        s.sendKeys("Tab");
        await s.waitFor("▸ /settings");
        s.sendKeys("Enter");
        await s.waitFor((screen) => screen.includes("› /settings") && !screen.includes("/session"));
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "/settings "));
      });
    },
    TIMEOUT,
  );

  test(
    "Tab completes @src/ap to @src/app.ts, leaving ignored files out",
    async () => {
      const project = tempDir();
      mkdirSync(join(project, ".git"));
      mkdirSync(join(project, "src", "tools"), { recursive: true });
      mkdirSync(join(project, "dist"));
      writeFileSync(join(project, ".gitignore"), "dist/\n");
      for (const file of ["src/app.ts", "src/tools/apply.ts", "dist/app.js"]) writeFileSync(join(project, file), "");
      await withDemo({ DEMO_CWD: project }, async (s) => {
        s.type("read @src/ap");
        s.sendKeys("Tab");
        const list = await s.waitFor("▸ src/app.ts");
        expect(list).toContain("  src/tools/apply.ts");
        expect(list).not.toContain("dist");
        s.sendKeys("Enter");
        await s.waitFor("› read @src/app.ts");
        s.type("please");
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "read @src/app.ts please"));
      });
    },
    TIMEOUT,
  );

  test(
    "Ctrl+C clears the input; a second Ctrl+C right after exits",
    async () => {
      await withDemo({}, async (s) => {
        s.type("some text");
        await s.waitFor("› some text");
        s.sendKeys("C-c");
        await s.waitFor((screen) => screen.includes("cleared") && !screen.includes("some text"));
        // Longer than the double-press window (a longer pause under load only makes it surer).
        await Bun.sleep(600);
        // One send: the second press comes right after the first, within the window.
        s.sendKeys("C-c", "C-c");
        await s.waitFor("cleared\ncleared\nbye");
        await s.waitForExit();
      });
    },
    TIMEOUT,
  );

  test(
    "Escape and keys the caller handles are reported",
    async () => {
      await withDemo({}, async (s) => {
        s.sendKeys("Escape");
        await s.waitFor("escape");
        s.sendKeys("M-Up");
        await s.waitFor("key: alt+up");
        s.sendKeys("C-l");
        await s.waitFor("key: ctrl+l");
      });
    },
    TIMEOUT,
  );

  test(
    "lines streamed every 100 ms scroll above the prompt without corrupting what is typed",
    async () => {
      await withDemo({ DEMO_MODE: "stream" }, async (s) => {
        const typed = "typing while it streams";
        for (const ch of typed) {
          s.type(ch);
          await Bun.sleep(15);
        }
        // A capture taken between erasing and redrawing the prompt is simply taken again.
        const screen = await s.waitFor((sc) => sc.includes("stream line 30") && lastLine(sc) === `› ${typed}`);
        const lines = screen.replace(/\n+$/, "").split("\n");
        const output = lines.slice(0, -1).filter((line) => line !== "demo ready");
        for (const line of output) expect(line).toMatch(/^stream line \d+$/);
        const numbers = output.map((line) => Number(line.slice("stream line ".length)));
        expect(numbers.length).toBeGreaterThan(15);
        for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBe((numbers[i - 1] as number) + 1);
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", typed));
      });
    },
    TIMEOUT,
  );

  test(
    "text streamed without newlines appears progressively above the prompt",
    async () => {
      await withDemo({ DEMO_MODE: "partial" }, async (s) => {
        s.type("still intact");
        await s.waitFor(/word2\b/);
        const screen = await s.waitFor((sc) => sc.includes("word23") && lastLine(sc) === "› still intact");
        const lines = screen.replace(/\n+$/, "").split("\n");
        const output = lines.slice(0, -1).filter((line) => line !== "demo ready");
        // Every output row holds whole words in order: five per finished line, and the line
        // still being streamed sits right above the prompt.
        const words = output.map((line) => line.split(" ").map((word) => Number(/^word(\d+)$/.exec(word)?.[1])));
        expect(words.flat().every((n) => Number.isInteger(n))).toBe(true);
        for (const row of words.slice(0, -1)) expect(row.length).toBe(5);
        const all = words.flat();
        for (let i = 1; i < all.length; i++) expect(all[i]).toBe((all[i - 1] as number) + 1);
        expect(all).toContain(23);
      });
    },
    TIMEOUT,
  );

  test(
    "Ctrl+G edits the buffer in $EDITOR and takes the result back",
    async () => {
      const dir = tempDir();
      const editor = join(dir, "fake-editor.sh");
      writeFileSync(editor, "#!/bin/sh\nprintf ' +edited\\nsecond line\\n' >> \"$1\"\n");
      chmodSync(editor, 0o755);
      await withDemo({ EDITOR: editor }, async (s) => {
        s.type("draft text");
        s.sendKeys("C-g");
        const screen = await s.waitFor("  second line");
        expect(promptRows(screen)).toEqual(["› draft text +edited", "  second line"]);
        s.sendKeys("Enter");
        await s.waitFor(submission("enter", "draft text +edited\nsecond line"));
      });
    },
    TIMEOUT,
  );
});
