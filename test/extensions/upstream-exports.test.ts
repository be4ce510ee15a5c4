import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageEntries, readSnapshots } from "../../scripts/compat/upstream-exports.ts";
import { mergeSnapshots, missingNames, renderUpstreamModules, renderUpstreamNames } from "../../scripts/compat/upstream-exports-format.ts";
import { UPSTREAM_MODULES } from "../../src/extensions/compat/upstream-modules.ts";
import { UPSTREAM_EXPORTS } from "../../src/extensions/compat/upstream-names.ts";
import { HostModules } from "../../src/extensions/runner/modules.ts";

describe("upstream export names", () => {
  const snapshots = readSnapshots();

  test("the committed list is exactly what the committed snapshots of upstream's packages export", () => {
    expect(snapshots.map((s) => s.version)).toContain("1.6.0");
    expect(snapshots.map((s) => s.version)).toContain("0.87.1");
    const merged = mergeSnapshots(snapshots);
    expect(UPSTREAM_EXPORTS).toEqual(merged);
    expect([...UPSTREAM_MODULES]).toEqual(Object.keys(merged));
    for (const snapshot of snapshots) expect(missingNames(UPSTREAM_EXPORTS, snapshot)).toEqual([]);
  });

  test("the generated files are what the generator writes (nobody edited them by hand)", async () => {
    const merged = mergeSnapshots(snapshots);
    const root = join(import.meta.dir, "..", "..", "src", "extensions", "compat");
    expect(await Bun.file(join(root, "upstream-names.ts")).text()).toBe(renderUpstreamNames(merged));
    expect(await Bun.file(join(root, "upstream-modules.ts")).text()).toBe(renderUpstreamModules(merged));
  });

  test("a name a newer release adds is reported missing, module first", () => {
    const newer = { version: "9.9.9", package: "@earendil-works/pi-coding-agent", modules: { "pi-tui": ["Box", "BrandNewThing"], "pi-new": ["x"] } };
    expect(missingNames(UPSTREAM_EXPORTS, newer)).toEqual(["pi-tui BrandNewThing", "pi-new (the module)", "pi-new x"]);
  });

  test("every module of every release is served under both scopes", () => {
    const served = new Set(new HostModules().specifiers);
    for (const module of UPSTREAM_MODULES) {
      expect(served.has(`@earendil-works/${module}`)).toBe(true);
      expect(served.has(`@mariozechner/${module}`)).toBe(true);
    }
    for (const module of ["pi-ai/providers/anthropic", "pi-ai/oauth", "pi-mcp", "pi-schema/formats", "pi-codemode/cloudflare", "pi-telemetry/testing"]) {
      expect(UPSTREAM_MODULES).toContain(module);
    }
  });
});

describe("a package's entry points, as Node imports them", () => {
  test("exports map: plain subpaths, `*` patterns expanded to files, source-only and missing files left out; no exports: main", () => {
    const dir = mkdtempSync(join(tmpdir(), "pig-upstream-pkg-"));
    try {
      mkdirSync(join(dir, "dist", "providers", "images"), { recursive: true });
      for (const file of ["index.js", "oauth.js", "providers/a.js", "providers/a.js.map", "providers/a.d.ts", "providers/images/b.js"]) writeFileSync(join(dir, "dist", file), "");
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({
          name: "p",
          version: "1.0.0",
          exports: {
            ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
            "./oauth": { import: "./dist/oauth.js" },
            "./gone": { import: "./dist/gone.js" },
            "./client": { source: "./src/client.ts" },
            "./package.json": "./package.json",
            "./providers/*": { types: "./dist/providers/*.d.ts", import: "./dist/providers/*.js" },
          },
        }),
      );
      const entries = packageEntries(dir);
      expect([...entries.keys()].sort()).toEqual(["", "/oauth", "/providers/a", "/providers/images/b"]);
      expect(entries.get("/providers/images/b")).toBe(join(dir, "dist", "providers", "images", "b.js"));
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", main: "dist/index.js" }));
      expect([...packageEntries(dir)]).toEqual([["", join(dir, "dist", "index.js")]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
