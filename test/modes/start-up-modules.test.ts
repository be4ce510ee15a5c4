// What each entry path loads before it runs: `pig --version` nothing but itself, print and JSON
// mode nothing of the interactive UI, the HTML export, RPC, compaction beyond the token estimate,
// or the providers they do not talk to (those come through `import()` when a run needs them), nor
// the OpenAI SDK.
// Read from the sources' static imports, which is what the bundle evaluates, so this holds for
// dist/pig too.
import { describe, expect, test } from "bun:test";
import { join, relative } from "node:path";
import { staticImports } from "../helpers/module-graph.ts";

const SRC = join(import.meta.dir, "..", "..", "src");
const at = (...paths: string[]) => paths.map((p) => join(SRC, p));
const names = (files: Set<string>) => [...files].map((f) => relative(SRC, f)).sort();

// The modules run-main.ts `import()`s on the way to an answer in print or JSON mode, and the
// provider of the benchmark's model (openai-completions), which ai/stream.ts loads on first use.
const PRINT_PATH = at(
  "cli/main.ts",
  "cli/run-main.ts",
  "modes/prompt-input.ts",
  "runtime/create.ts",
  "tools/index.ts",
  "agent/session.ts",
  "modes/print.ts",
  "modes/json.ts",
  "ai/providers/openai-completions.ts",
);

describe("modules loaded at start-up", () => {
  test("--version loads only the entry point, its error types, the version and what a Piglet Binary says of itself", () => {
    const graph = staticImports(at("cli/main.ts"));
    // extensions/linked.ts and binary-identity.ts import nothing: a Piglet Binary names what it
    // carries at no cost.
    expect(names(graph.files)).toEqual([
      "binary-identity.ts",
      "cli/binary-lines.ts",
      "cli/errors.ts",
      "cli/main.ts",
      "extensions/linked.ts",
      "runtime/errors.ts",
      "util/jit-policy.ts",
      "version.ts",
    ]);
    expect([...graph.external]).toEqual([]);
  });

  test("print and JSON mode load no interactive UI, HTML export, RPC, extension connection, unused provider or compaction beyond the token estimate", () => {
    const graph = staticImports(PRINT_PATH);
    const files = names(graph.files);
    const unwanted = files.filter(
      (f) =>
        f.startsWith("modes/interactive/") ||
        f.startsWith("export/") ||
        /^modes\/rpc(-commands|-ui)?\.ts$/.test(f) ||
        f === "cli/sessions.ts" ||
        f === "cli/list-models.ts" ||
        f === "cli/help.ts" ||
        f === "resources/package-install.ts" ||
        // A run without extensions opens no connection to one: the manifest reader formats its
        // problems without the connection's modules.
        f === "extensions/connection.ts" ||
        f === "extensions/framing.ts" ||
        f === "resources/startup-report.ts" ||
        // A turn checks the context's size; preparing and requesting a summary loads on the first compaction.
        (f.startsWith("compaction/") && f !== "compaction/tokens.ts") ||
        f.startsWith("ai/providers/anthropic") ||
        f === "ai/providers/openai-responses.ts" ||
        f.startsWith("ai/providers/openai-codex") ||
        f === "ai/providers/provider-request.ts" ||
        f === "ai/providers/openai-responses-request.ts",
    );
    expect(unwanted).toEqual([]);
    const packages = [...graph.external].filter((p) => !p.startsWith("node:") && !p.startsWith("bun:")).sort();
    // OpenAI's APIs stream over fetch (ai/providers/openai-fetch.ts): pig does not load the OpenAI SDK.
    expect(packages).toEqual(["jsonc-parser", "valibot"]);
  });
});
