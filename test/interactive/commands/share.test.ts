import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createShareCommand, defaultShareDeps, type ShareDeps } from "../../../src/modes/interactive/commands/share.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { makeHost } from "./fake-host.ts";

/** A real `gh` stand-in: records its arguments and the uploaded page, prints a gist URL (or fails). */
function fakeGh(exitCode = 0): { deps: ShareDeps; dir: string } {
  const dir = tempDir();
  const script = join(dir, "gh");
  writeFileSync(
    script,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/args"\nfor last; do :; done\ncp "$last" "${dir}/uploaded.html"\n` +
      (exitCode === 0 ? `echo "https://gist.github.com/someone/abc123"\n` : `echo "HTTP 401: Bad credentials" >&2\nexit ${exitCode}\n`),
  );
  chmodSync(script, 0o755);
  const deps: ShareDeps = { ...defaultShareDeps, which: (command) => (command === "gh" ? script : null) };
  return { deps, dir };
}

describe("/share", () => {
  test("after a yes, uploads the HTML page with gh and prints the gist's address", async () => {
    const host = makeHost();
    await host.session.prompt("share this conversation");
    const { deps, dir } = fakeGh();
    host.confirmAnswers = [true];
    await createShareCommand(deps).run(host, "");
    expect(host.confirms[0]).toContain("secret GitHub gist");
    expect(host.text).toContain("info: Shared: https://gist.github.com/someone/abc123");
    expect(readFileSync(join(dir, "args"), "utf8").split("\n").slice(0, 2)).toEqual(["gist", "create"]);
    expect(readFileSync(join(dir, "uploaded.html"), "utf8")).toContain("share this conversation");
  });

  test("a no uploads nothing; gh failing is reported with its message", async () => {
    const host = makeHost();
    await host.session.prompt("q");
    const declined = fakeGh();
    host.confirmAnswers = [false];
    await createShareCommand(declined.deps).run(host, "");
    expect(() => readFileSync(join(declined.dir, "args"))).toThrow();
    const failing = fakeGh(1);
    host.confirmAnswers = [true];
    await createShareCommand(failing.deps).run(host, "");
    expect(host.text).toContain("error: gh gist create failed (exit 1): HTTP 401: Bad credentials");
  });

  test("without gh, or with nothing said yet, it explains", async () => {
    const empty = makeHost();
    await createShareCommand(fakeGh().deps).run(empty, "");
    expect(empty.text).toContain("error: Nothing to share yet.");
    const host = makeHost();
    await host.session.prompt("q");
    await createShareCommand({ which: () => null, run: async () => ({ code: 0, stdout: "", stderr: "" }) }).run(host, "");
    expect(host.text).toContain("error: /share needs the GitHub CLI (gh)");
  });
});
