/** The ExtensionUI of RPC mode (Pi's extension-UI sub-protocol) and of the interactive mode (with a fake terminal side). */
import { describe, expect, test } from "bun:test";
import { InteractiveExtensionUI, titleSequence, type ExtensionLines, type ExtensionUiPort } from "../../src/modes/interactive/extension-ui.ts";
import { RpcUi } from "../../src/modes/rpc-ui.ts";

function rpc() {
  const sent: Record<string, unknown>[] = [];
  let n = 0;
  const ui = new RpcUi((record) => sent.push(record), () => `id-${++n}`);
  return { ui, sent };
}

describe("RPC extension UI", () => {
  test("each dialog is one request in Pi's shape, answered by the response with its id", async () => {
    const { ui, sent } = rpc();
    const select = ui.select("Allow?", ["Allow", "Block"], { timeout: 10_000 });
    const confirm = ui.confirm("Clear?", "All lost.");
    const input = ui.input("Value", "type…");
    const editor = ui.editor("Edit", "a\nb");
    expect(sent).toEqual([
      { type: "extension_ui_request", id: "id-1", method: "select", title: "Allow?", options: ["Allow", "Block"], timeout: 10_000 },
      { type: "extension_ui_request", id: "id-2", method: "confirm", title: "Clear?", message: "All lost." },
      { type: "extension_ui_request", id: "id-3", method: "input", title: "Value", placeholder: "type…" },
      { type: "extension_ui_request", id: "id-4", method: "editor", title: "Edit", prefill: "a\nb" },
    ]);
    ui.receive({ type: "extension_ui_response", id: "id-4", value: "c" });
    ui.receive({ type: "extension_ui_response", id: "id-3", cancelled: true });
    ui.receive({ type: "extension_ui_response", id: "id-2", confirmed: true });
    ui.receive({ type: "extension_ui_response", id: "id-1", value: "Block" });
    expect([await select, await confirm, await input, await editor]).toEqual(["Block", true, undefined, "c"]);
    expect(ui.pending).toBe(0);
  });

  test("fire-and-forget methods use Pi's method and field names", () => {
    const { ui, sent } = rpc();
    ui.notify("blocked", "warning");
    ui.setStatus("ext", "Turn 3");
    ui.setStatus("ext", undefined);
    ui.setWidget("ext", ["--- w ---", "line"], { placement: "belowEditor" });
    ui.setWidget("ext", undefined);
    ui.setTitle("pig - project");
    ui.setEditorText("prefilled");
    expect(sent.map(({ id: _id, type: _type, ...rest }) => rest)).toEqual([
      { method: "notify", message: "blocked", notifyType: "warning" },
      { method: "setStatus", statusKey: "ext", statusText: "Turn 3" },
      { method: "setStatus", statusKey: "ext" },
      { method: "setWidget", widgetKey: "ext", widgetLines: ["--- w ---", "line"], widgetPlacement: "belowEditor" },
      { method: "setWidget", widgetKey: "ext" },
      { method: "setTitle", title: "pig - project" },
      { method: "set_editor_text", text: "prefilled" },
    ]);
    expect(sent.every((r) => r.type === "extension_ui_request" && typeof r.id === "string")).toBe(true);
    expect(ui.getEditorText()).toBe("");
    expect(ui.hasUI).toBe(true);
  });

  test("an aborted signal answers the default without asking", async () => {
    const { ui, sent } = rpc();
    expect(await ui.select("x", ["a"], { signal: AbortSignal.abort() })).toBeUndefined();
    expect(await ui.confirm("x", "y", { signal: AbortSignal.abort() })).toBe(false);
    expect(sent).toEqual([]);
  });
});

/** A terminal side whose dialogs stay open until answered or until their signal aborts. */
function fakePort(tty = true) {
  const calls: string[] = [];
  const answers: ((value: unknown) => void)[] = [];
  const lines: ExtensionLines[] = [];
  let editorText = "draft";
  const open = <T>(what: string, signal: AbortSignal | undefined, cancelled: T) =>
    new Promise<T>((resolve) => {
      calls.push(what);
      answers.push(resolve as (value: unknown) => void);
      signal?.addEventListener("abort", () => resolve(cancelled), { once: true });
    });
  const port: ExtensionUiPort = {
    tty,
    pick: (title, options, signal) => open(`pick ${title}: ${options.map((o) => o.label).join(",")}`, signal, undefined),
    confirm: (message, signal) => open(`confirm ${message}`, signal, false),
    ask: (message, config) => open(`ask ${message} (${config.placeholder ?? ""})`, config.signal, undefined),
    edit: (title, text) => open(`edit ${title}: ${text}`, undefined, undefined),
    notice: (message, type) => calls.push(`${type}: ${message}`),
    linesChanged: (l) => lines.push(l),
    writeTitle: (title) => calls.push(`title ${title}`),
    getEditorText: () => editorText,
    setEditorText: (text) => {
      editorText = text;
    },
  };
  return { port, calls, answer: (value: unknown) => answers.shift()!(value), lines };
}

describe("interactive extension UI", () => {
  test("dialogs are pig's dialogs; their answers come back", async () => {
    const { port, calls, answer } = fakePort();
    const ui = new InteractiveExtensionUI(port);
    const picked = ui.select("Mode", ["fast", "slow"]);
    answer("slow");
    expect(await picked).toBe("slow");
    const confirmed = ui.confirm("Delete?", "It is gone for good.");
    answer(true);
    expect(await confirmed).toBe(true);
    const typed = ui.input("Name", "anon");
    answer("pig");
    expect(await typed).toBe("pig");
    const edited = ui.editor("Message", "hello");
    answer("hello there");
    expect(await edited).toBe("hello there");
    expect(calls).toEqual(["pick Mode: fast,slow", "confirm Delete?\nIt is gone for good.", "ask Name (anon)", "edit Message: hello"]);
  });

  test("without a terminal every dialog answers its default at once, and nothing is drawn", async () => {
    const { port, calls } = fakePort(false);
    const ui = new InteractiveExtensionUI(port);
    expect(ui.hasUI).toBe(false);
    expect(await ui.select("Mode", ["a"])).toBeUndefined();
    expect(await ui.confirm("Sure?", "")).toBe(false);
    expect(await ui.input("Name")).toBeUndefined();
    expect(await ui.editor("Text", "x")).toBeUndefined();
    expect(calls).toEqual([]);
  });

  test("an aborted signal closes the dialog with its default; one aborted already opens none", async () => {
    const { port, calls } = fakePort();
    const ui = new InteractiveExtensionUI(port);
    expect(await ui.select("Mode", ["a"], { signal: AbortSignal.abort() })).toBeUndefined();
    expect(calls).toEqual([]);
    const controller = new AbortController();
    const confirmed = ui.confirm("Sure?", "", { signal: controller.signal });
    expect(calls).toEqual(["confirm Sure?"]);
    controller.abort();
    expect(await confirmed).toBe(false);
  });

  test("a timeout closes the dialog with its default", async () => {
    const { port } = fakePort();
    const ui = new InteractiveExtensionUI(port);
    // The fake dialog never answers: only the timeout can close it.
    expect(await ui.input("Name", undefined, { timeout: 1 })).toBeUndefined();
  });

  test("statuses and widgets are kept by key; notices, title and editor text go to the terminal side", () => {
    const { port, calls, lines } = fakePort();
    const ui = new InteractiveExtensionUI(port);
    ui.setStatus("b-ext", "second");
    ui.setStatus("a-ext", "first\nline");
    ui.setWidget("w1", ["one"]);
    ui.setWidget("w2", ["below"], { placement: "belowEditor" });
    ui.setWidget("w0", ["zero"]);
    ui.setWidget("w1", ["one again"]);
    expect(lines.at(-1)).toEqual({ above: ["one again", "zero"], below: ["below"], status: "first line  second" });
    ui.setStatus("a-ext", undefined);
    ui.setWidget("w1", undefined);
    expect(lines.at(-1)).toEqual({ above: ["zero"], below: ["below"], status: "second" });
    ui.notify("saved");
    ui.notify("careful", "warning");
    ui.setTitle("pig: project");
    expect(calls).toEqual(["info: saved", "warning: careful", "title pig: project"]);
    expect(ui.getEditorText()).toBe("draft");
    ui.setEditorText("new text");
    expect(ui.getEditorText()).toBe("new text");
  });

  test("the title is an OSC 0 sequence that control characters cannot end early: they are shown", () => {
    expect(titleSequence("pig\x07x\nproject\x1b]52;c;aGk=\x9c")).toBe("\x1b]0;pig␇x project␛]52;c;aGk=\\u009c\x07");
  });

  test("what an extension shows is made terminal-safe; a select still answers the option as given", async () => {
    const { port, calls, answer, lines } = fakePort();
    const ui = new InteractiveExtensionUI(port);
    const picked = ui.select("Pick\x1b[2K", ["rm -rf /\r\x1b[1Aok", "b"]);
    expect(calls.at(-1)).toBe("pick Pick␛[2K: rm -rf /␍␛[1Aok,b");
    answer("rm -rf /\r\x1b[1Aok");
    expect(await picked).toBe("rm -rf /\r\x1b[1Aok");
    const confirmed = ui.confirm("Run?", "rm -rf DIR \x1b[2K\recho hello");
    expect(calls.at(-1)).toBe("confirm Run?\nrm -rf DIR ␛[2K␍echo hello");
    answer(false);
    await confirmed;
    ui.notify("\u202eevil");
    ui.setStatus("s", "\x1b[31mred");
    ui.setWidget("w", ["\x9b2J"]);
    expect(calls.at(-1)).toBe("info: \\u202eevil");
    expect(lines.at(-1)).toEqual({ above: ["\\u009b2J"], below: [], status: "␛[31mred" });
  });
});
