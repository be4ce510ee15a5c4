// Pi's copyToClipboard as pi-mcp-adapter and pi-subagents call it: `await copyToClipboard(text)`,
// or `.then(…).catch(…)` to report a failure. The clipboard tools are fakes on PATH.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyToClipboard } from "../../../src/extensions/compat/coding-agent.ts";
import { tempDir } from "../../helpers/tmp.ts";

const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
});

/** A directory holding only `tools` (name → shell body), made the whole PATH. */
function pathWith(tools: Record<string, string>): string {
  const dir = tempDir("pig-clip-bin-");
  for (const [name, body] of Object.entries(tools)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  process.env.PATH = dir;
  return dir;
}

const cat = Bun.which("cat")!;

describe("copyToClipboard", () => {
  test("resolves once a clipboard tool has the text, which reaches it whole", async () => {
    const out = join(tempDir("pig-clip-out-"), "clipboard.txt");
    pathWith({ xclip: `${cat} > '${out}'` });
    const text = "server failed: ECONNREFUSED\nline two — ünïcode";
    await expect(copyToClipboard(text)).resolves.toBeUndefined();
    expect(readFileSync(out, "utf8")).toBe(text);
  });

  test("a tool that fails passes to the next", async () => {
    const out = join(tempDir("pig-clip-out-"), "clipboard.txt");
    pathWith({ "wl-copy": "exit 1", xsel: `${cat} > '${out}'` });
    await copyToClipboard("via xsel");
    expect(readFileSync(out, "utf8")).toBe("via xsel");
  });

  test("when every tool fails it rejects, naming them, and a .catch sees the message", async () => {
    pathWith({ "wl-copy": "exit 1", xclip: "exit 2" });
    let notice = "";
    await copyToClipboard("error text").then(
      () => (notice = "copied"),
      (error: Error) => (notice = `Failed to copy: ${error.message}`),
    );
    expect(notice).toBe("Failed to copy: Clipboard unavailable: wl-copy, xclip failed");
  });

  test("with no clipboard tool installed it rejects with what to install", async () => {
    pathWith({});
    await expect(copyToClipboard("x")).rejects.toThrow("Clipboard unavailable: no clipboard tool found (install one of pbcopy, wl-copy, xclip or xsel (clip.exe on Windows))");
  });

  test("text that is not a string is refused before any tool runs", async () => {
    const out = join(tempDir("pig-clip-out-"), "clipboard.txt");
    pathWith({ pbcopy: `${cat} > '${out}'` });
    await expect(copyToClipboard(42 as unknown as string)).rejects.toThrow("copyToClipboard: text: must be a string");
    expect(await Bun.file(out).exists()).toBe(false);
  });
});
