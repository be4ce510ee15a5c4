/** The command list that opens as a command name is typed (no Tab), driven through the editor. */
import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputEditor, type SubmitKind } from "../../../src/modes/interactive/input/editor.ts";
import { fileMentionProvider } from "../../../src/modes/interactive/input/file-mentions.ts";
import { slashCommandProvider } from "../../../src/modes/interactive/input/slash-commands.ts";
import { FakeTerminal } from "./fake-terminal.ts";

class FakeInput extends EventEmitter {
  isTTY = true;
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  type(text: string): void {
    this.emit("data", Buffer.from(text));
  }
}

const COMMANDS = [
  { name: "settings", description: "Change settings" },
  { name: "help", description: "List the commands\nand the keys" },
  { name: "session", description: "Show the session" },
  { name: "name", description: "Name the session", argumentHint: "<name>" },
];

function setup() {
  const input = new FakeInput();
  const terminal = new FakeTerminal(60, 12);
  const submitted: [string, SubmitKind][] = [];
  const commands = slashCommandProvider(COMMANDS);
  const editor = new InputEditor({
    input,
    output: terminal,
    colors: false,
    completion: commands,
    completionAsTyped: commands,
    onSubmit: (text, kind) => submitted.push([text, kind]),
  });
  editor.start();
  /** Types `text`, then lets the list's answer arrive. */
  const type = async (text: string) => {
    input.type(text);
    await Bun.sleep(0);
  };
  return { input, terminal, editor, submitted, type };
}

describe("the command list as a name is typed", () => {
  test("/ lists every command at once, alphabetically, each with one line of description", async () => {
    const { terminal, type } = setup();
    await type("/");
    expect(terminal.lines()).toEqual([
      "› /",
      "▸ /help      List the commands",
      "  /name      <name>  Name the session",
      "  /session   Show the session",
      "  /settings  Change settings",
    ]);
  });

  test("typing narrows the list; a space after the name closes it", async () => {
    const { terminal, type } = setup();
    await type("/se");
    expect(terminal.lines()).toEqual(["› /se", "▸ /session   Show the session", "  /settings  Change settings"]);
    await type("ssion ");
    expect(terminal.lines()).toEqual(["› /session"]);
  });

  test("no list for text, a doubled slash or a path", async () => {
    const { terminal, type, input } = setup();
    for (const text of ["hello /se", "//se", "/usr/se"]) {
      await type(text);
      expect(terminal.lines()).toEqual([`› ${text}`]);
      input.type("\x15"); // Ctrl+U
    }
  });

  test("Enter runs the highlighted command", async () => {
    const { submitted, type } = setup();
    await type("/he");
    await type("\r");
    expect(submitted).toEqual([["/help", "enter"]]);
  });

  test("Enter after moving through the list runs the one chosen", async () => {
    const { submitted, type } = setup();
    await type("/se");
    await type("\x1b[B");
    await type("\r");
    expect(submitted).toEqual([["/settings", "enter"]]);
  });

  test("a name the list only resembles is sent as typed, for pig to say it is unknown", async () => {
    const { terminal, submitted, type } = setup();
    await type("/stg");
    expect(terminal.lines()).toEqual(["› /stg", "▸ /settings  Change settings"]);
    await type("\r");
    expect(submitted).toEqual([["/stg", "enter"]]);
  });

  test("keys typed before the list caught up are not replaced by it", async () => {
    const { submitted, type } = setup();
    await type("/he");
    // One read holds the rest of the name and Enter: the list still shows what "/he" matched.
    await type("lp\r");
    expect(submitted).toEqual([["/help", "enter"]]);
  });

  test("Tab completes as it does without the list: one match is put in, several extended to what they share", async () => {
    const { editor, terminal, submitted, type } = setup();
    await type("/he");
    await type("\t");
    expect(editor.getText()).toBe("/help ");
    expect(terminal.lines()).toEqual(["› /help"]);
    editor.setText("");
    await type("/s");
    await type("\t");
    expect(editor.getText()).toBe("/se");
    expect(terminal.lines()).toEqual(["› /se", "▸ /session   Show the session", "  /settings  Change settings"]);
    expect(submitted).toEqual([]);
  });

  test("Escape closes the list; typing opens it again", async () => {
    const { terminal, type } = setup();
    await type("/se");
    // Escape as the kitty keyboard protocol sends it (a lone ESC waits to see whether more follows).
    await type("\x1b[27u");
    expect(terminal.lines()).toEqual(["› /se"]);
    await type("t");
    expect(terminal.lines()).toEqual(["› /set", "▸ /settings  Change settings"]);
  });
});

describe("the file list as an @ mention is typed", () => {
  /** A project of two files and a directory; its listing is read from disk, asynchronously. */
  function mentionSetup() {
    const cwd = mkdtempSync(join(tmpdir(), "pig-mentions-"));
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "app.ts"), "");
    writeFileSync(join(cwd, "README.md"), "");
    const input = new FakeInput();
    const terminal = new FakeTerminal(60, 12);
    const submitted: [string, SubmitKind][] = [];
    const commands = slashCommandProvider(COMMANDS);
    const mentions = fileMentionProvider({ cwd });
    const editor = new InputEditor({ input, output: terminal, colors: false, completion: mentions, completionAsTyped: commands, listsAsTyped: mentions, onSubmit: (text, kind) => submitted.push([text, kind]) });
    editor.start();
    /** Waits until the screen shows `lines` (the listing arrives after some reads of the disk). */
    const screen = async (lines: string[]) => {
      for (let i = 0; i < 2000 && JSON.stringify(terminal.lines()) !== JSON.stringify(lines); i++) await Bun.sleep(1);
      expect(terminal.lines()).toEqual(lines);
    };
    return { input, editor, submitted, screen };
  }

  test("@ lists the project's files at once; typing narrows the list", async () => {
    const { input, screen } = mentionSetup();
    input.type("look at @");
    await screen(["› look at @", "▸ README.md", "  src/"]);
    input.type("app");
    await screen(["› look at @app", "▸ src/app.ts"]);
  });

  test("Enter puts the highlighted file in and does not send; the next Enter sends", async () => {
    const { input, editor, submitted, screen } = mentionSetup();
    input.type("look at @READ");
    await screen(["› look at @READ", "▸ README.md"]);
    input.type("\r");
    await screen(["› look at @README.md"]);
    expect(editor.getText()).toBe("look at @README.md ");
    expect(submitted).toEqual([]);
    input.type("\r");
    // The editor sends the text as it stands; the prompt router trims it.
    expect(submitted).toEqual([["look at @README.md ", "enter"]]);
  });

  test("a directory chosen lists what it holds; a space after the mention closes the list", async () => {
    const { input, screen } = mentionSetup();
    input.type("@sr");
    await screen(["› @sr", "▸ src/", "  src/app.ts"]);
    input.type("\r");
    await screen(["› @src/", "▸ src/app.ts"]);
    input.type("app.ts ");
    await screen(["› @src/app.ts"]);
  });

  test("an @ inside a word (an address) opens nothing; Escape closes the list", async () => {
    const { input, editor, screen } = mentionSetup();
    input.type("mail me@exa");
    // The command provider and the file provider both answered nothing: the line alone.
    await screen(["› mail me@exa"]);
    editor.setText("");
    input.type("@");
    await screen(["› @", "▸ README.md", "  src/"]);
    input.type("\x1b[27u");
    await screen(["› @"]);
  });

  test("a mention typed in full is sent by Enter, list or no list", async () => {
    const { input, submitted, screen } = mentionSetup();
    input.type("look at @README.md");
    await screen(["› look at @README.md", "▸ README.md"]);
    input.type("\r");
    expect(submitted).toEqual([["look at @README.md", "enter"]]);
  });

  test("Tab completes in the list that opened as @ was typed: one file is put in, several extended to what they share", async () => {
    const { input, editor, screen } = mentionSetup();
    input.type("look at @READ");
    await screen(["› look at @READ", "▸ README.md"]);
    input.type("\t");
    await screen(["› look at @README.md"]);
    expect(editor.getText()).toBe("look at @README.md ");
  });
});

