import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { InputEditor, type InputEditorOptions, type SubmitKind } from "../../../src/modes/interactive/input/editor.ts";
import { PromptHistory } from "../../../src/modes/interactive/input/history.ts";
import { resolveKeybindings } from "../../../src/modes/interactive/input/keybindings.ts";
import { slashCommandProvider } from "../../../src/modes/interactive/input/slash-commands.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { FakeTerminal } from "./fake-terminal.ts";

class FakeInput extends EventEmitter {
  isTTY = true;
  raw = false;
  paused = true;
  setRawMode(mode: boolean): void {
    this.raw = mode;
  }
  resume(): void {
    this.paused = false;
  }
  pause(): void {
    this.paused = true;
  }
  type(text: string): void {
    this.emit("data", Buffer.from(text));
  }
}

function setup(options: InputEditorOptions = {}) {
  const input = new FakeInput();
  const terminal = new FakeTerminal(40, 10);
  let now = 1000;
  const submitted: [string, SubmitKind][] = [];
  const calls: string[] = [];
  const editor = new InputEditor({
    input,
    output: terminal,
    colors: false,
    now: () => now,
    onSubmit: (text, kind) => submitted.push([text, kind]),
    onEscape: () => calls.push("escape"),
    onClear: () => calls.push("clear"),
    onExit: () => calls.push("exit"),
    onKey: (key, action) => calls.push(action ? `${key.id}=${action}` : key.id),
    ...options,
  });
  editor.start();
  return {
    input,
    terminal,
    editor,
    submitted,
    calls,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("submitting", () => {
  test("Enter submits the buffer and clears it", () => {
    const { input, editor, submitted, terminal } = setup();
    input.type("hello\r");
    expect(submitted).toEqual([["hello", "enter"]]);
    expect(editor.getText()).toBe("");
    expect(terminal.lines()).toEqual(["›"]);
  });

  test("a blank buffer is not submitted", () => {
    const { input, submitted } = setup();
    input.type("  \r");
    expect(submitted).toEqual([]);
  });

  test("when idle, Shift+Enter, Alt+Enter and Ctrl+J insert newlines", () => {
    const { input, submitted } = setup();
    input.type("a\x1b[13;2ub\x1b\rc\nd\r");
    expect(submitted).toEqual([["a\nb\nc\nd", "enter"]]);
  });

  test("when busy, Enter submits as a steer and Alt+Enter as a follow-up", () => {
    const { input, editor, submitted } = setup();
    editor.setBusy(true);
    input.type("steer\r");
    input.type("later\x1b\r");
    input.type("two\x1b[13;2ulines\r");
    expect(submitted).toEqual([
      ["steer", "enter"],
      ["later", "alt-enter"],
      ["two\nlines", "enter"],
    ]);
  });

  test("on Windows, Ctrl+Q queues a follow-up while busy (and Alt+Enter still does)", () => {
    const { input, editor, submitted } = setup({ keybindings: resolveKeybindings({}, "keybindings.json", "win32").bindings });
    editor.setBusy(true);
    input.type("later\x11");
    input.type("also\x1b\r");
    expect(submitted).toEqual([
      ["later", "alt-enter"],
      ["also", "alt-enter"],
    ]);
  });

  test("submissions are recorded in history and Up recalls them", () => {
    const history = new PromptHistory(`${tempDir()}/h.jsonl`);
    const { input, editor } = setup({ history });
    input.type("first\rsecond\r");
    expect(history.entries()).toEqual(["first", "second"]);
    input.type("\x1b[A");
    expect(editor.getText()).toBe("second");
  });
});

describe("Ctrl+C, Ctrl+D and Escape", () => {
  test("Ctrl+C clears; a second within 500 ms exits", () => {
    const { input, editor, calls, advance } = setup();
    input.type("text");
    input.type("\x03");
    expect(editor.getText()).toBe("");
    advance(400);
    input.type("\x03");
    expect(calls).toEqual(["clear", "exit"]);
  });

  test("a second Ctrl+C after 500 ms clears again", () => {
    const { input, calls, advance } = setup();
    input.type("\x03");
    advance(600);
    input.type("\x03");
    expect(calls).toEqual(["clear", "clear"]);
  });

  test("Ctrl+C while something runs stops it and keeps the draft; the next Ctrl+C quits", () => {
    let running = true;
    const { input, editor, calls, advance } = setup({ onInterrupt: () => running && !(running = false) });
    input.type("draft");
    input.type("\x03");
    expect(editor.getText()).toBe("draft");
    expect(calls).toEqual([]);
    // Later than a double press, but with no other key between and soon after the stop.
    advance(2000);
    input.type("\x03");
    expect(calls).toEqual(["exit"]);
  });

  test("after a stop, a key between or a late Ctrl+C on a draft does not quit", () => {
    let runs = 2;
    const { input, editor, calls, advance } = setup({ onInterrupt: () => runs-- > 0 });
    input.type("\x03");
    input.type("x");
    input.type("\x03");
    // The second run was stopped too: nothing was cleared, nothing quit.
    expect(editor.getText()).toBe("x");
    advance(5000);
    input.type("\x03");
    expect(editor.getText()).toBe("");
    expect(calls).toEqual(["clear"]);
  });

  test("after a stop, a Ctrl+C on an empty prompt quits however late", () => {
    const { input, calls, advance } = setup({ onInterrupt: () => calls.length === 0 && calls.push("stopped") > 0 });
    input.type("\x03");
    advance(60_000);
    input.type("\x03");
    expect(calls).toEqual(["stopped", "exit"]);
  });

  test("Ctrl+D exits on an empty buffer and deletes forward otherwise", () => {
    const { input, editor, calls } = setup();
    input.type("ab\x1b[D\x04");
    expect(editor.getText()).toBe("a");
    input.type("\x01\x0b\x04");
    expect(calls).toEqual(["exit"]);
  });

  test("a lone ESC is reported after the timeout", async () => {
    const { input, calls } = setup({ escapeTimeoutMs: 20 });
    input.type("\x1b");
    expect(calls).toEqual([]);
    await Bun.sleep(60);
    expect(calls).toEqual(["escape"]);
  });
});

describe("keys for the caller", () => {
  test("Ctrl+L/P/T/O, Shift+Tab and Alt+Up go to onKey", () => {
    const { input, calls } = setup();
    input.type("\x0c\x10\x14\x0f\x1b[Z\x1b[1;3A");
    expect(calls).toEqual([
      "ctrl+l=app.model.select",
      "ctrl+p=app.model.cycleForward",
      "ctrl+t=app.thinking.toggle",
      "ctrl+o=app.tools.expand",
      "shift+tab=app.thinking.cycle",
      "alt+up=app.message.dequeue",
    ]);
  });

  test("a key the caller intercepts (an extension shortcut) does nothing else, even an editing key", () => {
    const taken: string[] = [];
    const { input, editor, calls } = setup({ interceptKey: (key) => (key.id === "ctrl+a" || key.id === "f1" ? (taken.push(key.id), true) : false) });
    input.type("abcOP");
    expect(taken).toEqual(["ctrl+a", "f1"]);
    // Ctrl+A did not move the cursor to the start: "c" follows "ab".
    expect(editor.getText()).toBe("abc");
    expect(calls).toEqual([]);
  });

  test("an unbound key reaches onKey without an action", () => {
    const { input, calls } = setup();
    input.type("\x1bOP"); // F1
    expect(calls).toEqual(["f1"]);
  });
});

describe("user keybindings", () => {
  test("rebinding submit to Ctrl+S: Enter is no longer bound, Ctrl+S sends", () => {
    const { bindings } = resolveKeybindings({ "tui.input.submit": "ctrl+s", newLine: ["enter"] }, "keybindings.json");
    const { input, editor, submitted } = setup({ keybindings: bindings });
    input.type("one\rtwo");
    expect(editor.getText()).toBe("one\ntwo");
    input.type("\x13");
    expect(submitted).toEqual([["one\ntwo", "enter"]]);
  });

  test("a key taken from a default action runs the user's action instead", () => {
    const { bindings } = resolveKeybindings({ "app.tools.expand": "ctrl+l" }, "keybindings.json");
    const { input, calls } = setup({ keybindings: bindings });
    input.type("\x0c\x0f");
    expect(calls).toEqual(["ctrl+l=app.tools.expand", "ctrl+o"]);
  });

  test("editing actions follow their keys", () => {
    const { bindings } = resolveKeybindings({ cursorLineStart: "ctrl+x", deleteToLineEnd: "alt+k" }, "keybindings.json");
    const { input, editor } = setup({ keybindings: bindings });
    input.type("hello\x18>\x1bk");
    expect(editor.getText()).toBe(">");
  });
});

describe("buffer API", () => {
  test("prependText puts restored messages before the draft", () => {
    const { input, editor } = setup();
    input.type("draft");
    editor.prependText("queued");
    expect(editor.getText()).toBe("queued\ndraft");
  });

  test("a bracketed paste is inserted whole and submitted as one message", () => {
    const { input, submitted } = setup();
    input.type("\x1b[200~one\rtwo\x1b[201~\r");
    expect(submitted).toEqual([["one\ntwo", "enter"]]);
  });

  test("a large paste shows as a token, is sent and recorded in full, and one Backspace removes it", () => {
    const history = new PromptHistory(`${tempDir()}/h.jsonl`);
    const { input, editor, terminal, submitted } = setup({ history });
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    input.type(`see \x1b[200~${lines.join("\r")}\x1b[201~ please`);
    expect(terminal.lines()[0]).toBe("› see [pasted 12 lines] please");
    expect(editor.getText()).toBe(`see ${lines.join("\n")} please`);
    input.type("\r");
    expect(submitted).toEqual([[`see ${lines.join("\n")} please`, "enter"]]);
    expect(history.entries()).toEqual([`see ${lines.join("\n")} please`]);

    input.type(`\x1b[200~${lines.join("\r")}\x1b[201~`);
    expect(terminal.lines()[0]).toBe("› [pasted 12 lines]");
    input.type("\x7f");
    expect(editor.getText()).toBe("");
  });
});

describe("completion", () => {
  const completion = slashCommandProvider([{ name: "help" }, { name: "session" }, { name: "settings" }]);

  test("Tab with one match inserts it", async () => {
    const { input, editor } = setup({ completion });
    input.type("/he\t");
    await Bun.sleep(0);
    expect(editor.getText()).toBe("/help ");
  });

  test("Tab with several matches lists them; Tab cycles, Enter accepts without submitting", async () => {
    const { input, editor, terminal, submitted } = setup({ completion });
    input.type("/s\t");
    await Bun.sleep(0);
    expect(editor.getText()).toBe("/se");
    expect(terminal.lines()).toEqual(["› /se", "▸ /session", "  /settings"]);
    input.type("\t\r");
    expect(editor.getText()).toBe("/settings ");
    expect(submitted).toEqual([]);
  });

  test("Escape closes the list without reaching the caller", async () => {
    const { input, terminal, calls } = setup({ completion, escapeTimeoutMs: 5 });
    input.type("/se\t");
    await Bun.sleep(0);
    input.type("\x1b");
    await Bun.sleep(30);
    expect(terminal.lines()).toEqual(["› /se"]);
    expect(calls).toEqual([]);
  });

  test("typing with the list open narrows it", async () => {
    const { input, terminal } = setup({ completion });
    input.type("/se\t");
    await Bun.sleep(0);
    input.type("t");
    await Bun.sleep(0);
    expect(terminal.lines()).toEqual(["› /set", "▸ /settings"]);
  });
});

describe("external editor", () => {
  test("Ctrl+G hands the terminal over and takes the edited text back", async () => {
    let rawDuringEdit: boolean | undefined;
    const { input, editor, terminal } = setup({
      externalEditor: async (text) => {
        rawDuringEdit = input.raw;
        return `${text} edited`;
      },
    });
    input.type("draft\x07");
    await Bun.sleep(0);
    expect(rawDuringEdit).toBe(false);
    expect(input.raw).toBe(true);
    expect(editor.getText()).toBe("draft edited");
    expect(terminal.lines()).toEqual(["› draft edited"]);
  });

  test("output printed while the editor runs is shown after it returns", async () => {
    let finish: (text: string | undefined) => void = () => {};
    const { input, editor, terminal } = setup({ externalEditor: () => new Promise((resolve) => (finish = resolve)) });
    input.type("draft\x07");
    editor.print("while editing\n");
    expect(terminal.lines()).toEqual([]);
    finish(undefined);
    await Bun.sleep(0);
    expect(terminal.lines()).toEqual(["while editing", "› draft"]);
  });
});

describe("lifecycle", () => {
  test("start enables raw mode and bracketed paste; stop restores both and erases the prompt", () => {
    const { input, editor, terminal } = setup();
    expect(input.raw).toBe(true);
    expect(terminal.written).toContain("\x1b[?2004h");
    input.type("typed");
    editor.stop();
    expect(input.raw).toBe(false);
    expect(terminal.written).toContain("\x1b[?2004l");
    expect(terminal.lines()).toEqual([]);
  });

  test("the kitty keyboard protocol is switched on only after the terminal answers the query, and off at stop", () => {
    const { input, editor, terminal, calls } = setup();
    expect(terminal.written).toContain("\x1b[?u");
    expect(terminal.written).not.toContain("\x1b[>1u");
    input.type("\x1b[?0u");
    expect(terminal.written).toContain("\x1b[>1u");
    expect(calls).toEqual([]);
    editor.stop();
    expect(terminal.written).toContain("\x1b[<u");
  });

  test("a terminal that went away is a hangup: end of input in raw mode, a write failing with EIO; stop still gives back what it can", () => {
    const ended = setup({ onHangup: () => ended.calls.push("hangup") });
    ended.input.emit("end");
    expect(ended.calls).toEqual(["hangup"]);

    const errors = new EventEmitter();
    const terminal = Object.assign(new FakeTerminal(40, 10), { on: (event: string, listener: (error: Error) => void) => errors.on(event, listener) });
    const failed = setup({ output: terminal, onHangup: () => failed.calls.push("hangup") });
    errors.emit("error", Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" }));
    expect(failed.calls).toEqual(["hangup"]);
    failed.input.setRawMode = () => {
      throw new Error("setRawMode failed with errno: 5");
    };
    failed.editor.stop();
    expect(terminal.written).toContain("\x1b[?2004l");
  });

  test("plain mode submits each input line and exits at the end of input", () => {
    const input = new FakeInput();
    input.isTTY = false;
    const submitted: string[] = [];
    let exited = false;
    const written: string[] = [];
    const editor = new InputEditor({
      input,
      output: { write: (text: string) => written.push(text) },
      onSubmit: (text) => submitted.push(text),
      onExit: () => (exited = true),
    });
    editor.start();
    input.type("one\ntw");
    input.type("o\r\nthree");
    input.emit("end");
    expect(submitted).toEqual(["one", "two", "three"]);
    expect(exited).toBe(true);
    expect(written).toEqual([]);
  });
});
