import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createFindTool } from "../../src/tools/find.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { externalSearchAllowed, NO_EXTERNAL_SEARCH_ENV } from "../../src/tools/search-bin.ts";
import { errorOf, makeContext, run, textOf } from "./helpers.ts";
import { describeNeeding } from "../helpers/needs.ts";

/** A small repository with ignore rules at two levels, hidden files and a binary file. */
function project(): string {
  const ctx = makeContext();
  const files: Record<string, string> = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "ignored/\n*.log\n!keep.log\n",
    "src/app.js": "// header\nconst a = 1;\n// TODO: subtract\nconst b = 2;\n",
    "src/util.js": "// TODO: helpers\n",
    "src/nested/.gitignore": "gen.js\n",
    "src/nested/gen.js": "TODO generated\n",
    "src/nested/real.js": "TODO real\r\n",
    "src/Upper.JS": "nothing here\n",
    "ignored/x.js": "TODO ignored\n",
    "debug.log": "TODO log\n",
    "keep.log": "TODO keep\n",
    ".hidden/h.js": "TODO hidden\n",
    "bin.dat": "TODO\0binary\n",
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(ctx.cwd, path)), { recursive: true });
    writeFileSync(join(ctx.cwd, path), content);
  }
  return ctx.cwd;
}

const sorted = (text: string) => text.split("\n").sort();

const backends = [
  { name: "built-in", external: false, available: true },
  { name: "rg/fd", external: true, available: Bun.which("rg") !== null && (Bun.which("fd") ?? Bun.which("fdfind")) !== null },
];

for (const backend of backends) {
  describeNeeding("ripgrep (rg) and fd", backend.available, `grep (${backend.name})`, () => {
    const grep = createGrepTool({ externalSearch: backend.external });

    test("finds matches outside ignored files, hidden files included", async () => {
      const result = await run(grep, { pattern: "TODO" }, makeContext(project()));
      expect(sorted(textOf(result))).toEqual([
        ".hidden/h.js:1: TODO hidden",
        "keep.log:1: TODO keep",
        "src/app.js:3: // TODO: subtract",
        "src/nested/real.js:1: TODO real",
        "src/util.js:1: // TODO: helpers",
      ]);
      expect(result.details).toBeUndefined();
    });

    test("shows context lines around matches", async () => {
      const result = await run(grep, { pattern: "TODO", path: "src/app.js", context: 1 }, makeContext(project()));
      expect(textOf(result)).toBe("app.js-2- const a = 1;\napp.js:3: // TODO: subtract\napp.js-4- const b = 2;");
    });

    test("filters by glob, ignores case and takes literal patterns", async () => {
      const ctx = makeContext(project());
      // As with rg, a file the glob names explicitly is searched even though .gitignore excludes it.
      expect(sorted(textOf(await run(grep, { pattern: "todo", glob: "*.log", ignoreCase: true }, ctx)))).toEqual([
        "debug.log:1: TODO log",
        "keep.log:1: TODO keep",
      ]);
      // Globs with "/" are relative to the session directory, whatever the search path.
      expect(sorted(textOf(await run(grep, { pattern: "TODO", path: "src", glob: "src/**/*.js" }, ctx)))).toEqual([
        "app.js:3: // TODO: subtract",
        "nested/gen.js:1: TODO generated",
        "nested/real.js:1: TODO real",
        "util.js:1: // TODO: helpers",
      ]);
      expect(textOf(await run(grep, { pattern: "a = 1;", literal: true, path: "src" }, ctx))).toBe("app.js:2: const a = 1;");
      expect(textOf(await run(grep, { pattern: "c.nst a", literal: true }, ctx))).toBe("No matches found");
    });

    test("accepts patterns that start with a dash", async () => {
      const ctx = makeContext();
      writeFileSync(join(ctx.cwd, "flags.txt"), "use --force here\n");
      expect(textOf(await run(grep, { pattern: "--force" }, ctx))).toBe("flags.txt:1: use --force here");
    });

    test("stops at the match limit with a notice", async () => {
      const result = await run(grep, { pattern: "TODO", path: "src/app.js", limit: 1 }, makeContext(project()));
      expect(textOf(result)).toBe("app.js:3: // TODO: subtract\n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]");
      expect(result.details).toEqual({ matchLimitReached: 1 });
    });

    test("cuts long lines and long output", async () => {
      const ctx = makeContext();
      const line = `match ${"x".repeat(600)}`;
      writeFileSync(join(ctx.cwd, "wide.txt"), `${Array.from({ length: 150 }, () => line).join("\n")}\n`);
      const result = await run(grep, { pattern: "match", limit: 151 }, ctx);
      const text = textOf(result);
      expect(text).toStartWith(`wide.txt:1: match ${"x".repeat(494)}... [truncated]\n`);
      expect(text).toEndWith(
        "\n\n[50.0KB limit reached. Some lines truncated to 500 chars. Use read tool to see full lines]",
      );
      expect(Object.keys(result.details ?? {})).toEqual(["truncation", "linesTruncated"]);
    });

    test("reports a missing path and a bad pattern", async () => {
      const ctx = makeContext();
      expect(await errorOf(run(grep, { pattern: "x", path: "nope" }, ctx))).toBe(`Path not found: ${join(ctx.cwd, "nope")}`);
      writeFileSync(join(ctx.cwd, "a.txt"), "a\n");
      expect((await errorOf(run(grep, { pattern: "(unclosed" }, ctx))).length).toBeGreaterThan(0);
    });
  });

  describeNeeding("ripgrep (rg) and fd", backend.available, `find (${backend.name})`, () => {
    const find = createFindTool({ externalSearch: backend.external });

    test("lists matching files relative to the search directory, ignored ones left out", async () => {
      const result = await run(find, { pattern: "*.js" }, makeContext(project()));
      expect(sorted(textOf(result))).toEqual([".hidden/h.js", "src/Upper.JS", "src/app.js", "src/nested/real.js", "src/util.js"]);
      expect(result.details).toBeUndefined();
    });

    test("matches path patterns against the whole path", async () => {
      const ctx = makeContext(project());
      expect(sorted(textOf(await run(find, { pattern: "src/**/*.js" }, ctx)))).toEqual([
        "src/Upper.JS",
        "src/app.js",
        "src/nested/real.js",
        "src/util.js",
      ]);
      expect(textOf(await run(find, { pattern: "nested/*.js", path: "src" }, ctx))).toBe("nested/real.js");
    });

    test("lists directories with a trailing slash", async () => {
      expect(textOf(await run(find, { pattern: "nested" }, makeContext(project())))).toBe("src/nested/");
    });

    test("matches case-sensitively only when the pattern has capitals", async () => {
      expect(textOf(await run(find, { pattern: "*.JS" }, makeContext(project())))).toBe("src/Upper.JS");
    });

    test("stops at the result limit with a notice", async () => {
      const result = await run(find, { pattern: "app.js", limit: 1 }, makeContext(project()));
      expect(textOf(result)).toBe("src/app.js\n\n[1 results limit reached. Use limit=2 for more, or refine pattern]");
      expect(result.details).toEqual({ resultLimitReached: 1 });
    });

    test("says when nothing matches and when the path is wrong", async () => {
      const ctx = makeContext(project());
      expect(textOf(await run(find, { pattern: "*.rs" }, ctx))).toBe("No files found matching pattern");
      expect(await errorOf(run(find, { pattern: "*", path: "nope" }, ctx))).toBe(`Path not found: ${join(ctx.cwd, "nope")}`);
      expect(await errorOf(run(find, { pattern: "*", path: "keep.log" }, ctx))).toBe(`Not a directory: ${join(ctx.cwd, "keep.log")}`);
    });
  });
}

describe("built-in search specifics", () => {
  const grep = createGrepTool({ externalSearch: false });
  const find = createFindTool({ externalSearch: false });

  test("never looks inside .git", async () => {
    const cwd = project();
    writeFileSync(join(cwd, ".git", "notes"), "TODO in git\n");
    expect(textOf(await run(grep, { pattern: "in git" }, makeContext(cwd)))).toBe("No matches found");
    expect(textOf(await run(find, { pattern: "notes" }, makeContext(cwd)))).toBe("No files found matching pattern");
  });

  test("honours .git/info/exclude and ignore files above the search directory", async () => {
    const cwd = project();
    mkdirSync(join(cwd, ".git", "info"));
    writeFileSync(join(cwd, ".git", "info", "exclude"), "util.js\n");
    writeFileSync(join(cwd, "src", "trace.log"), "TODO trace\n");
    const result = await run(grep, { pattern: "TODO", path: "src" }, makeContext(cwd));
    expect(textOf(result)).toBe("app.js:3: // TODO: subtract\nnested/real.js:1: TODO real");
  });

  test("lists results in a stable name order", async () => {
    const result = await run(find, { pattern: "*.js" }, makeContext(project()));
    expect(textOf(result)).toBe(".hidden/h.js\nsrc/Upper.JS\nsrc/app.js\nsrc/nested/real.js\nsrc/util.js");
  });

  test("excludes with a negated glob", async () => {
    const result = await run(grep, { pattern: "TODO", glob: "!*.js" }, makeContext(project()));
    expect(textOf(result)).toBe("keep.log:1: TODO keep");
  });

  test("matches line by line, so lookarounds do not see the next line", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "a.txt"), "foo\nbar\n");
    expect(textOf(await run(grep, { pattern: "foo(?!\\s)" }, ctx))).toBe("a.txt:1: foo");
    expect(textOf(await run(grep, { pattern: "^bar$" }, ctx))).toBe("a.txt:2: bar");
  });

  test("reads an unknown regex feature as a parse error", async () => {
    const ctx = makeContext();
    writeFileSync(join(ctx.cwd, "a.txt"), "a\n");
    expect(await errorOf(run(grep, { pattern: "(unclosed" }, ctx))).toStartWith("regex parse error:");
  });

  test("rejects an aborted call", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await errorOf(run(grep, { pattern: "x" }, makeContext(), { signal: controller.signal }))).toBe("Operation aborted");
    expect(await errorOf(run(find, { pattern: "x" }, makeContext(), { signal: controller.signal }))).toBe("Operation aborted");
  });
});

describe("external search switch", () => {
  const saved = process.env[NO_EXTERNAL_SEARCH_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[NO_EXTERNAL_SEARCH_ENV];
    else process.env[NO_EXTERNAL_SEARCH_ENV] = saved;
  });

  test("PIG_NO_EXTERNAL_SEARCH=1 forces the built-in search unless the option says otherwise", () => {
    process.env[NO_EXTERNAL_SEARCH_ENV] = "1";
    expect(externalSearchAllowed(undefined)).toBe(false);
    expect(externalSearchAllowed(true)).toBe(true);
    delete process.env[NO_EXTERNAL_SEARCH_ENV];
    expect(externalSearchAllowed(undefined)).toBe(true);
  });
});

describe("external program failures", () => {
  /** An agent dir whose bin/ holds a fake `name` running `script`. */
  function agentWith(name: string, script: string) {
    const ctx = makeContext();
    mkdirSync(join(ctx.agentDir, "bin"));
    writeFileSync(join(ctx.agentDir, "bin", name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return ctx;
  }

  test("grep passes on ripgrep's error output, or its exit code when it printed none", async () => {
    const grep = createGrepTool({ externalSearch: true });
    expect(await errorOf(run(grep, { pattern: "x" }, agentWith("rg", "echo 'rg: bad flag' >&2; exit 2")))).toBe("rg: bad flag");
    expect(await errorOf(run(grep, { pattern: "x" }, agentWith("rg", "exit 3")))).toBe("ripgrep exited with code 3");
  });

  test("grep treats ripgrep's exit code 1 as no matches", async () => {
    const grep = createGrepTool({ externalSearch: true });
    expect(textOf(await run(grep, { pattern: "x" }, agentWith("rg", "exit 1")))).toBe("No matches found");
  });

  test("find passes on fd's error output, or its exit code when it printed none", async () => {
    const find = createFindTool({ externalSearch: true });
    const failing = '[ "$1" = --help ] && exit 0; echo "fd: broken" >&2; exit 1';
    expect(await errorOf(run(find, { pattern: "*" }, agentWith("fd", failing)))).toBe("fd: broken");
    expect(await errorOf(run(find, { pattern: "*" }, agentWith("fd", '[ "$1" = --help ] && exit 0; exit 4')))).toBe(
      "fd exited with code 4",
    );
  });
});
