import { describe, expect, test } from "bun:test";
import { KeyDecoder, type KeyEvent } from "../../../src/modes/interactive/input/keys.ts";

/** A decoder on a clock the test moves by hand. */
function decoder(timeoutMs = 40) {
  let now = 1000;
  const keys = new KeyDecoder({ escapeTimeoutMs: timeoutMs, now: () => now });
  return {
    keys,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** Events as short strings: "text:ab", "paste:…", or the key id. */
function ids(events: KeyEvent[]): string[] {
  return events.map((event) => (event.kind === "key" ? event.id : `${event.kind}:${event.text}`));
}

function decode(...chunks: (string | Uint8Array)[]): string[] {
  const { keys } = decoder();
  return chunks.flatMap((chunk) => ids(keys.feed(chunk)));
}

describe("text", () => {
  test("printable characters in one chunk become one text event", () => {
    expect(decode("hello wörld")).toEqual(["text:hello wörld"]);
  });

  test("a multi-byte character split across chunks is decoded whole", () => {
    const bytes = new TextEncoder().encode("a中b👍");
    expect(decode(bytes.slice(0, 2), bytes.slice(2, 3), bytes.slice(3, 6), bytes.slice(6))).toEqual(["text:a", "text:中b", "text:👍"]);
  });
});

describe("enter and newlines", () => {
  test("carriage return is Enter", () => {
    expect(decode("\r")).toEqual(["enter"]);
  });

  test("Shift+Enter in CSI u and in xterm's modifyOtherKeys form", () => {
    expect(decode("\x1b[13;2u", "\x1b[27;2;13~")).toEqual(["shift+enter", "shift+enter"]);
  });

  test("ESC CR in one chunk is Alt+Enter", () => {
    expect(decode("\x1b\r")).toEqual(["alt+enter"]);
  });

  test("line feed is Ctrl+J", () => {
    expect(decode("\n")).toEqual(["ctrl+j"]);
  });
});

describe("escape timing", () => {
  test("a lone ESC waits, then is Escape once the timeout passed", () => {
    const { keys, advance } = decoder(40);
    expect(keys.feed("\x1b")).toEqual([]);
    expect(keys.pendingDeadline()).toBe(1040);
    advance(39);
    expect(keys.flush()).toEqual([]);
    advance(1);
    expect(ids(keys.flush())).toEqual(["escape"]);
    expect(keys.pendingDeadline()).toBeUndefined();
  });

  test("the rest of a sequence arriving before the timeout completes it", () => {
    const { keys, advance } = decoder(40);
    keys.feed("\x1b");
    advance(10);
    expect(ids(keys.feed("[A"))).toEqual(["up"]);
  });

  test("input arriving after the timeout does not continue the ESC", () => {
    const { keys, advance } = decoder(40);
    keys.feed("\x1b");
    advance(100);
    expect(ids(keys.feed("b"))).toEqual(["escape", "text:b"]);
  });

  test("ESC then a letter within the timeout is Alt+letter", () => {
    expect(decode("\x1bb", "\x1bf", "\x1bB")).toEqual(["alt+b", "alt+f", "alt+shift+b"]);
  });

  test("a forced flush resolves a waiting ESC at once", () => {
    const { keys } = decoder();
    keys.feed("\x1b");
    expect(ids(keys.flush(true))).toEqual(["escape"]);
  });

  test("the kitty protocol's Escape needs no timeout", () => {
    expect(decode("\x1b[27u")).toEqual(["escape"]);
  });
});

describe("navigation keys", () => {
  test("arrows in CSI and SS3 form", () => {
    expect(decode("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1bOD")).toEqual(["up", "down", "right", "left", "up", "left"]);
  });

  test("Alt+arrows as a modifier parameter and as ESC before the arrow", () => {
    expect(decode("\x1b[1;3A", "\x1b\x1b[A", "\x1b[1;3B")).toEqual(["alt+up", "alt+up", "alt+down"]);
  });

  test("Ctrl+Left/Right", () => {
    expect(decode("\x1b[1;5D\x1b[1;5C")).toEqual(["ctrl+left", "ctrl+right"]);
  });

  test("Home, End, Delete in their common encodings", () => {
    expect(decode("\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF\x1b[3~")).toEqual(["home", "end", "home", "end", "home", "end", "delete"]);
  });

  test("a sequence split across chunks is decoded once complete", () => {
    expect(decode("\x1b[", "1;", "5", "C")).toEqual(["ctrl+right"]);
  });
});

describe("control keys", () => {
  test("Ctrl+letters", () => {
    const letters = "aewukcdglopt";
    const input = [...letters].map((ch) => String.fromCharCode(ch.charCodeAt(0) - 96)).join("");
    expect(decode(input)).toEqual([...letters].map((ch) => `ctrl+${ch}`));
  });

  test("Backspace as DEL and ^H, Alt+Backspace", () => {
    expect(decode("\x7f\b\x1b\x7f")).toEqual(["backspace", "backspace", "alt+backspace"]);
  });

  test("Tab and Shift+Tab", () => {
    expect(decode("\t\x1b[Z")).toEqual(["tab", "shift+tab"]);
  });

  test("Ctrl+letter in the kitty protocol", () => {
    expect(decode("\x1b[99;5u\x1b[98;3u")).toEqual(["ctrl+c", "alt+b"]);
  });
});

describe("bracketed paste", () => {
  test("a paste is one event with its newlines and tabs", () => {
    expect(decode("\x1b[200~line one\rline two\r\n\tthree\x1b[201~")).toEqual(["paste:line one\nline two\n\tthree"]);
  });

  test("escape sequences and control characters are dropped from a paste", () => {
    expect(decode("\x1b[200~\x1b[31mred\x1b[0m\x07!\x1b[201~")).toEqual(["paste:red!"]);
  });

  test("a paste split across chunks, end marker split too", () => {
    expect(decode("x\x1b[20", "0~abc", "\rdef\x1b[2", "01~y")).toEqual(["text:x", "paste:abc\ndef", "text:y"]);
  });

  test("no Escape is reported while a paste is open", () => {
    const { keys, advance } = decoder();
    keys.feed("\x1b[200~abc\x1b");
    advance(1000);
    expect(keys.pendingDeadline()).toBeUndefined();
    expect(keys.flush(true)).toEqual([]);
    expect(ids(keys.feed("[201~"))).toEqual(["paste:abc"]);
  });
});

describe("unknown input", () => {
  test("terminal replies and unknown sequences do not turn into text", () => {
    expect(decode("\x1b[?1u\x1b[99X")).toEqual(["unknown", "unknown"]);
  });
});
