/**
 * `/share`: the session's HTML page uploaded as a secret GitHub gist with the `gh` command
 * (installed and logged in). Asks first: anyone with the link can read the gist.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportSessionHtml } from "../../../export/html.ts";
import { presentBuiltinCall } from "../../../tools/index.ts";
import { writeExportFile } from "../../../export/write-export.ts";
import type { SlashCommand } from "../host.ts";
import { messageOf } from "./format.ts";
import { about } from "./about.ts";

export interface ShareDeps {
  which(command: string): string | null;
  run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** `gh` from PATH, run as a real process with its output captured. */
export const defaultShareDeps: ShareDeps = {
  which: (command) => Bun.which(command),
  async run(argv) {
    const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 60_000 });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  },
};

export function createShareCommand(deps: ShareDeps = defaultShareDeps): SlashCommand {
  return {
    ...about("share"),
    async run(host) {
      const store = host.session.store;
      if (!store.branchRecords().some((record) => record.type === "message")) {
        host.error("Nothing to share yet.");
        return;
      }
      const gh = deps.which("gh");
      if (!gh) {
        host.error("/share needs the GitHub CLI (gh), logged in with `gh auth login`. /export writes the page to a file instead.");
        return;
      }
      if (!(await host.confirm("Upload this session to a secret GitHub gist? Anyone with the link can read it.", false))) return;
      const dir = mkdtempSync(join(tmpdir(), "pig-share-"));
      try {
        const file = join(dir, "session.html");
        writeExportFile(file, exportSessionHtml(store, { presentCall: presentBuiltinCall }));
        const result = await deps.run([gh, "gist", "create", "--desc", `pig session ${store.sessionId}`, file]);
        const url = result.stdout.trim().split("\n").find((line) => line.startsWith("https://"));
        if (result.code !== 0 || !url) {
          host.error(`gh gist create failed (exit ${result.code}): ${(result.stderr || result.stdout).trim() || "no output"}`);
          return;
        }
        host.info(`Shared: ${url}`);
      } catch (error) {
        host.error(`Could not share the session: ${messageOf(error)}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export const shareCommand = createShareCommand();
