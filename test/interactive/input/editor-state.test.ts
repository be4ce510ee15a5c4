import { describe, expect, test } from "bun:test";
import { EditorState } from "../../../src/modes/interactive/input/editor-state.ts";

/** A state with `text`; a "|" in it marks the cursor (default: the end). */
function stateWith(marked: string, history: string[] = []): EditorState {
  const state = new EditorState();
  state.setHistory(history);
  const at = marked.indexOf("|");
  const text = at === -1 ? marked : marked.slice(0, at) + marked.slice(at + 1);
  state.setText(text, at === -1 ? text.length : at);
  return state;
}

/** The text with "|" at the cursor. */
function shown(state: EditorState): string {
  return `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;
}

describe("inserting and deleting", () => {
  test("typing inserts at the cursor", () => {
    const state = stateWith("helo|");
    state.left();
    state.insert("l");
    expect(shown(state)).toBe("hell|o");
  });

  test("backspace and delete remove whole grapheme clusters", () => {
    const state = stateWith("a👍🏽|e\u0301b");
    state.backspace();
    expect(shown(state)).toBe("a|e\u0301b");
    state.deleteForward();
    expect(shown(state)).toBe("a|b");
  });

  test("backspace at a line start joins the lines", () => {
    const state = stateWith("one\n|two");
    state.backspace();
    expect(shown(state)).toBe("one|two");
  });

  test("a large paste is one token: the cursor steps over it, Delete and Backspace remove it whole", () => {
    const state = stateWith("a|b");
    const long = "x".repeat(1500);
    state.insertPaste(long);
    expect(shown(state)).toBe("a[pasted 1500 characters]|b");
    expect(state.expandedText).toBe(`a${long}b`);
    state.left();
    expect(state.cursor).toBe(1);
    state.deleteForward();
    expect(shown(state)).toBe("a|b");
    expect(state.expandedText).toBe("ab");
  });

  test("two large pastes of the same size get tokens of their own; a small paste stays text", () => {
    const state = stateWith("|");
    const eleven = Array.from({ length: 11 }, (_, i) => String(i)).join("\n");
    state.insertPaste(eleven);
    state.insertPaste(`${eleven.replaceAll("1", "9")}\n`);
    state.insertPaste("short\npaste");
    expect(shown(state)).toBe("[pasted 11 lines][pasted 11 lines #2]short\npaste|");
    expect(state.expandedText).toBe(`${eleven}${eleven.replaceAll("1", "9")}\nshort\npaste`);
    state.clear();
    state.insert("[pasted 11 lines]");
    expect(state.expandedText).toBe("[pasted 11 lines]");
  });

  test("a paste token is one piece for word moves, word deletes, line moves and yanks; typed words that look like it stay words", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `line ${i}`).join("\n");
    const state = stateWith("see |");
    state.insertPaste(eleven);
    expect(shown(state)).toBe("see [pasted 11 lines]|");
    // Ctrl+W takes the token whole (and the paste with it), not a word of it.
    state.deleteWordBack();
    expect(shown(state)).toBe("see |");
    expect(state.expandedText).toBe("see ");
    state.yank();
    expect(state.expandedText).toBe(`see ${eleven}`);
    expect(state.text).toMatch(/^see \[pasted 11 lines( #\d+)?\]$/);
    // Alt+B from after the token stops before it, never inside; typing there keeps the token.
    state.wordLeft();
    expect(state.cursor).toBe(4);
    state.insert("X");
    expect(state.expandedText).toBe(`see X${eleven}`);
    // The same words typed once more stay words: the paste is sent once.
    state.lineEnd();
    state.insert(` ${state.text.slice(5)}`);
    expect(state.expandedText.split("line 10").length - 1).toBe(1);
  });

  test("a paste is inserted as is, newlines included", () => {
    const state = stateWith("before | after");
    state.insert("line 1\nline 2");
    expect(shown(state)).toBe("before line 1\nline 2| after");
  });
});

describe("cursor motion", () => {
  test("left and right step over wide characters and emoji as one unit", () => {
    const state = stateWith("中👨‍👩‍👧x|");
    state.left();
    state.left();
    expect(shown(state)).toBe("中|👨‍👩‍👧x");
    state.right();
    expect(shown(state)).toBe("中👨‍👩‍👧|x");
  });

  test("word motions skip punctuation, then a word", () => {
    const state = stateWith("foo.bar  baz|");
    state.wordLeft();
    expect(shown(state)).toBe("foo.bar  |baz");
    state.wordLeft();
    expect(shown(state)).toBe("foo.|bar  baz");
    state.wordRight();
    expect(shown(state)).toBe("foo.bar|  baz");
  });

  test("home and end stay on the current line", () => {
    const state = stateWith("one\ntw|o\nthree");
    state.lineStart();
    expect(shown(state)).toBe("one\n|two\nthree");
    state.lineEnd();
    expect(shown(state)).toBe("one\ntwo|\nthree");
  });
});

describe("kill commands", () => {
  test("Ctrl+W removes the word before the cursor and yank brings it back", () => {
    const state = stateWith("git commit -m| done");
    state.deleteWordBack();
    expect(shown(state)).toBe("git commit -| done");
    state.deleteWordBack();
    expect(shown(state)).toBe("git | done");
    state.yank();
    expect(shown(state)).toBe("git commit -| done");
  });

  test("Ctrl+U removes to the line start, Ctrl+K to the line end", () => {
    const state = stateWith("keep\nabc|def\nkeep");
    state.killToLineStart();
    expect(shown(state)).toBe("keep\n|def\nkeep");
    state.killToLineEnd();
    expect(shown(state)).toBe("keep\n|\nkeep");
  });

  test("Ctrl+K at a line end joins the next line", () => {
    const state = stateWith("one|\ntwo");
    state.killToLineEnd();
    expect(shown(state)).toBe("one|two");
  });
});

describe("lines and history", () => {
  test("up and down move between lines, keeping the column", () => {
    const state = stateWith("first line\nab\nthird line|");
    state.up();
    expect(shown(state)).toBe("first line\nab|\nthird line");
    state.up();
    expect(shown(state)).toBe("first line|\nab\nthird line");
    state.down();
    state.down();
    expect(shown(state)).toBe("first line\nab\nthird line|");
  });

  test("the column is kept in display columns across wide characters", () => {
    const state = stateWith("中文x\nabcd|e");
    state.up();
    expect(shown(state)).toBe("中文|x\nabcde");
  });

  test("up on the first line shows older entries; down comes back to the draft", () => {
    const state = stateWith("my draft", ["oldest", "newest"]);
    state.up();
    expect(state.text).toBe("newest");
    state.up();
    expect(state.text).toBe("oldest");
    state.up();
    expect(state.text).toBe("oldest");
    state.down();
    expect(state.text).toBe("newest");
    state.down();
    expect(shown(state)).toBe("my draft|");
    expect(state.browsingHistory).toBe(false);
  });

  test("a multi-line entry is entered at its first line, so Up keeps going back", () => {
    const state = stateWith("", ["older", "line a\nline b"]);
    state.up();
    expect(shown(state)).toBe("line a|\nline b");
    state.up();
    expect(state.text).toBe("older");
    state.down();
    expect(shown(state)).toBe("line a\nline b|");
  });

  test("up inside a multi-line draft moves lines before it reaches history", () => {
    const state = stateWith("a\nb|", ["entry"]);
    state.up();
    expect(shown(state)).toBe("a|\nb");
    state.up();
    expect(state.text).toBe("entry");
  });

  test("a prompt sent with a large paste comes back from history with its token, and sends the paste again", () => {
    const log = Array.from({ length: 40 }, (_, i) => `log line ${i}`).join("\n");
    const state = stateWith("see ");
    state.insertPaste(log);
    state.insert(" why?");
    const sent = state.expandedText;
    state.noteSent();
    state.setHistory(["earlier", sent]);
    state.clear();
    state.insertPaste(log.replaceAll("log", "draft"));
    state.up();
    expect(state.text).toBe("see [pasted 40 lines] why?");
    expect(state.expandedText).toBe(sent);
    // An entry without pastes shows as it was; the draft gets its own paste back.
    state.up();
    expect(state.text).toBe("earlier");
    expect(state.expandedText).toBe("earlier");
    state.down();
    state.down();
    expect(state.text).toBe("[pasted 40 lines]");
    expect(state.expandedText).toContain("draft line 39");
  });

  test("a recalled entry's paste token stays one piece while the entry is edited", () => {
    const log = Array.from({ length: 12 }, (_, i) => `${i}`).join("\n");
    const state = stateWith("");
    state.insertPaste(log);
    const sent = state.expandedText;
    state.noteSent();
    state.setHistory([sent]);
    state.clear();
    state.up();
    state.insert(" and this");
    expect(state.browsingHistory).toBe(false);
    expect(state.expandedText).toBe(`${log} and this`);
    state.setText("[pasted 12 lines] and this");
    // Text set anew holds no paste: the words are words.
    expect(state.expandedText).toBe("[pasted 12 lines] and this");
  });

  test("editing a shown entry makes it the text being typed", () => {
    const state = stateWith("draft", ["entry"]);
    state.up();
    state.insert("!");
    expect(state.browsingHistory).toBe(false);
    state.down();
    expect(state.text).toBe("entry!");
  });
});

describe("replacing text", () => {
  test("setText puts the cursor at the end", () => {
    const state = stateWith("old|");
    state.setText("new text");
    expect(shown(state)).toBe("new text|");
  });

  test("prependText puts restored messages before the draft and keeps the cursor in it", () => {
    const state = stateWith("typ|ing");
    state.prependText("queued one\nqueued two");
    expect(shown(state)).toBe("queued one\nqueued two\ntyp|ing");
  });

  test("prependText into an empty buffer leaves the cursor at the end", () => {
    const state = stateWith("");
    state.prependText("queued");
    expect(shown(state)).toBe("queued|");
  });

  test("replaceRange swaps a completed token", () => {
    const state = stateWith("read @src/ap| now");
    state.replaceRange(5, 12, "@src/app.ts ");
    expect(shown(state)).toBe("read @src/app.ts | now");
  });
});
