/**
 * Pi's helpers that registry packages call (resizeImage from pi-web-access, copyToClipboard
 * from pi-mcp-adapter and pi-subagents, highlightCode and getLanguageFromPath from
 * pi-subagents), called by an extension run by the built binary: its tool reports what each
 * gave, and the report reaches the model. The clipboard is a fake tool on PATH.
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { CLIPBOARD_TOOLS } from "../../src/util/clipboard.ts";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

type Json = Record<string, any>;

const BLUE_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC", "base64");

// Imported as the packages import them: statically, and (copyToClipboard, as pi-subagents
// does) through a dynamic import of the package.
const EXTENSION = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatDimensionNote, getLanguageFromPath, highlightCode, resizeImage } from "@earendil-works/pi-coding-agent";

export default function (pi) {
  pi.registerTool({
    name: "compat_helpers",
    label: "Compat helpers",
    description: "Reports what Pi's helpers give",
    parameters: { type: "object", properties: {} },
    async execute(_id, _params, _signal, _onUpdate, ctx) {
      const bytes = readFileSync(join(ctx.cwd, "wide.png"));
      const resized = await resizeImage(new Uint8Array(bytes), "image/png", { maxWidth: 2000, maxHeight: 2000 });
      const broken = await resizeImage(new TextEncoder().encode("not an image"), "image/png", { maxWidth: 2000, maxHeight: 2000 });
      const module = await import("@earendil-works/pi-coding-agent");
      const copied = await module.copyToClipboard("copied by an extension").then(() => "copied", (e) => "failed: " + e.message);
      const refused = await module.copyToClipboard("fail").then(() => "copied", (e) => "failed: " + e.message);
      const language = getLanguageFromPath("src/fleet.ts");
      const report = {
        resized,
        note: formatDimensionNote(resized),
        broken,
        copied,
        refused,
        language,
        lines: highlightCode("const a = 1;\\nexport default a;", language),
      };
      return { content: [{ type: "text", text: JSON.stringify(report) }], details: {} };
    },
  });
}
`;

/** PATH without the directories that hold a real clipboard tool, so only the fake one is found. */
function pathWithoutClipboardTools(): string {
  const tools = CLIPBOARD_TOOLS.map(([command]) => command!);
  return (process.env.PATH ?? "/usr/bin:/bin")
    .split(delimiter)
    .filter((dir) => dir && !tools.some((tool) => existsSync(join(dir, tool))))
    .join(delimiter);
}

test("an extension's resizeImage, copyToClipboard, highlightCode and getLanguageFromPath work, and their results reach the model", async () => {
  const wide = await new Bun.Image(BLUE_PNG).resize(3000, 1500).png().bytes();
  const w = await world([{ toolCalls: [{ name: "compat_helpers", arguments: {} }] }, { text: "done" }], {
    files: { "ext/helpers.ts": EXTENSION, "wide.png": wide },
  });
  // The fake xclip keeps what it is given, and fails for the text "fail".
  const bin = join(w.cwd, "bin");
  const clipboard = join(w.cwd, "clipboard.txt");
  mkdirSync(bin);
  writeFileSync(
    join(bin, "xclip"),
    `#!/bin/sh\n${Bun.which("cat")} > '${clipboard}.new'\n[ "$(${Bun.which("cat")} '${clipboard}.new')" = fail ] && exit 1\n${Bun.which("mv")} '${clipboard}.new' '${clipboard}'\n`,
  );
  chmodSync(join(bin, "xclip"), 0o755);

  const run = await w.run(["-p", "-e", join(w.cwd, "ext", "helpers.ts"), "use the helpers"], { env: { PATH: `${bin}${delimiter}${pathWithoutClipboardTools()}` } });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(w.llm.requests).toHaveLength(2);

  const tool = (w.llm.requests[1]!.body as { messages: Json[] }).messages.find((m) => m.role === "tool")!;
  const report = JSON.parse(typeof tool.content === "string" ? tool.content : tool.content.map((p: Json) => p.text ?? "").join(""));
  expect(report.resized).toMatchObject({ originalWidth: 3000, originalHeight: 1500, width: 2000, height: 1000, wasResized: true });
  expect(await new Bun.Image(Buffer.from(report.resized.data, "base64")).metadata()).toMatchObject({ width: 2000, height: 1000 });
  expect(report.note).toBe("[Image: original 3000x1500, displayed at 2000x1000. Multiply coordinates by 1.50 to map to original image.]");
  expect(report.broken).toBeNull();
  expect(report.copied).toBe("copied");
  expect(readFileSync(clipboard, "utf8")).toBe("copied by an extension");
  expect(report.refused).toBe("failed: Clipboard unavailable: xclip failed");
  expect(report.language).toBe("typescript");
  expect(report.lines).toEqual(["const a = 1;", "export default a;"]);
});
