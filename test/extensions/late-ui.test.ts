/**
 * The UI extensions get before the mode has bound its own: `hasUI` already says what the mode
 * will offer (extensions learn it once, at start), and a status, widget or title set early is
 * shown once the mode binds.
 */
import { expect, test } from "bun:test";
import { HEADLESS_UI, type ExtensionUI } from "../../src/extensions/ui.ts";
import { LateUi } from "../../src/runtime/late-ui.ts";

function recordingUi(): { ui: ExtensionUI; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const ui: ExtensionUI = {
    ...HEADLESS_UI,
    hasUI: true,
    setStatus: (...args) => void calls.push(["status", ...args]),
    setWidget: (...args) => void calls.push(["widget", ...args]),
    setTitle: (...args) => void calls.push(["title", ...args]),
    notify: (...args) => void calls.push(["notify", ...args]),
    setEditorText: (...args) => void calls.push(["editor", ...args]),
  };
  return { ui, calls };
}

test("hasUI says what the coming mode offers, then what the bound UI says", () => {
  expect(new LateUi(HEADLESS_UI).hasUI).toBe(false);
  const late = new LateUi(HEADLESS_UI, true);
  expect(late.hasUI).toBe(true);
  late.bind(HEADLESS_UI);
  expect(late.hasUI).toBe(false);
});

test("statuses, widgets and the title set before the bind are shown at the bind, the latest of each", () => {
  const late = new LateUi(HEADLESS_UI, true);
  late.setStatus("a", "one");
  late.setStatus("a", "two");
  late.setStatus("b", "gone");
  late.setStatus("b", undefined);
  late.setWidget("w", ["line"], { placement: "belowEditor" });
  late.setTitle("early title");
  const { ui, calls } = recordingUi();
  late.bind(ui);
  expect(calls).toEqual([
    ["status", "a", "two"],
    ["status", "b", undefined],
    ["widget", "w", ["line"], { placement: "belowEditor" }],
    ["title", "early title"],
  ]);
  // After the bind, calls go straight through and nothing is replayed again.
  late.setStatus("a", "three");
  const second = recordingUi();
  late.bind(second.ui);
  expect(second.calls).toEqual([]);
  expect(calls.at(-1)).toEqual(["status", "a", "three"]);
});

test("notices given before the bind reach a mode with a UI at the bind, in order with the statuses", () => {
  const late = new LateUi(HEADLESS_UI, true);
  late.notify("one", "info");
  late.setStatus("s", "early");
  late.notify("two", "warning");
  const calls: unknown[][] = [];
  late.bind({ ...HEADLESS_UI, hasUI: true, notify: (...args) => void calls.push(["notify", ...args]), setStatus: (...args) => void calls.push(["status", ...args]) });
  expect(calls).toEqual([
    ["notify", "one", "info"],
    ["status", "s", "early"],
    ["notify", "two", "warning"],
  ]);
});

test("a mode without a UI gets no early notices; at most the last 100 are kept", () => {
  const headless = new LateUi(HEADLESS_UI, false);
  headless.notify("lost");
  const seen: string[] = [];
  headless.bind({ ...HEADLESS_UI, notify: (message) => void seen.push(message) });
  expect(seen).toEqual([]);
  const late = new LateUi(HEADLESS_UI, true);
  for (let i = 0; i < 150; i++) late.notify(`n${i}`);
  late.bind({ ...HEADLESS_UI, hasUI: true, notify: (message) => void seen.push(message) });
  expect(seen).toHaveLength(100);
  expect(seen[0]).toBe("n50");
});

test("notices and the editor text given before the bind are shown at the bind, every notice in order, once", () => {
  const late = new LateUi(HEADLESS_UI, true);
  late.notify("first", "info");
  late.notify("second", "warning");
  late.setEditorText("draft one");
  late.setEditorText("draft two");
  const { ui, calls } = recordingUi();
  late.bind(ui);
  expect(calls).toEqual([
    ["notify", "first", "info"],
    ["notify", "second", "warning"],
    ["editor", "draft two"],
  ]);
  late.notify("after", undefined);
  late.bind(ui);
  expect(calls.slice(3)).toEqual([["notify", "after", undefined]]);
});

test("a notice while a startup dialog is up goes to that dialog's UI, not to the kept ones", async () => {
  const late = new LateUi(HEADLESS_UI, true);
  const asked: unknown[][] = [];
  await late.withDialogs({ ...HEADLESS_UI, notify: (...args) => void asked.push(args) }, async () => late.notify("trust?", "info"));
  const calls: unknown[][] = [];
  late.bind({ ...HEADLESS_UI, notify: (...args) => void calls.push(args) });
  expect(asked).toEqual([["trust?", "info"]]);
  expect(calls).toEqual([]);
});
