import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { exportCommand } from "../../../src/modes/interactive/commands/export.ts";
import { importCommand } from "../../../src/modes/interactive/commands/import.ts";
import { NO_HOOKS } from "../../../src/agent/hooks.ts";
import { SessionStore } from "../../../src/session/store.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { makeHost } from "./fake-host.ts";

/** A session with two branches: one → two, and one → three (the current one). */
async function branchedHost() {
  const host = makeHost();
  const session = host.session;
  await session.prompt("one");
  const firstAnswer = session.store.leafId!;
  await session.prompt("two");
  host.session.store.branch(firstAnswer);
  host.session.reloadContext();
  await session.prompt("three");
  return host;
}

describe("/export file.jsonl", () => {
  test("the current branch, lines as stored, under a new header with the same id", async () => {
    const host = await branchedHost();
    const store = host.session.store;
    const out = join(tempDir(), "branch.jsonl");
    await exportCommand.run(host, out);
    expect(host.text).toContain(`info: Exported to ${out}`);
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    const header = JSON.parse(lines[0]!);
    expect(header.id).toBe(store.sessionId);
    expect(header.parentSession).toBeUndefined();
    const original = readFileSync(store.path!, "utf8").trimEnd().split("\n");
    const branch = store.branchRecords();
    expect(lines.slice(1)).toEqual(branch.map((r) => store.serializeEntry(r.id)!));
    for (const line of lines.slice(1)) expect(original).toContain(line);
    expect(lines.join("\n")).not.toContain('"two"');
    const reopened = SessionStore.open(out);
    expect(reopened.buildContext().messages).toEqual(store.buildContext().messages);
    reopened.close();
  });

  test("never replaces an existing file", async () => {
    const host = await branchedHost();
    const out = join(tempDir(), "taken.jsonl");
    writeFileSync(out, "mine\n");
    await exportCommand.run(host, out);
    expect(host.text).toContain(`error: Cannot export: ${out} already exists`);
    expect(readFileSync(out, "utf8")).toBe("mine\n");
    const upper = join(tempDir(), "TAKEN.JSONL");
    writeFileSync(upper, "also mine\n");
    await exportCommand.run(host, upper);
    expect(readFileSync(upper, "utf8")).toBe("also mine\n");
  });
});

describe("/export file mode", () => {
  test("the page and the branch file are 0600 like the session, an overwritten page too", async () => {
    const host = await branchedHost();
    const dir = tempDir();
    const page = join(dir, "page.html");
    writeFileSync(page, "old page", { mode: 0o644 });
    await exportCommand.run(host, page);
    expect(host.text).toContain(`info: Exported to ${page}`);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(readFileSync(page, "utf8")).toContain("<html");
    const branch = join(dir, "branch.jsonl");
    await exportCommand.run(host, branch);
    expect(host.text).toContain(`info: Exported to ${branch}`);
    expect(statSync(branch).mode & 0o777).toBe(0o600);
  });
});

describe("/import", () => {
  async function exported() {
    const source = await branchedHost();
    const file = join(tempDir(), "2026-01-01T00-00-00-000Z_imported.jsonl");
    await exportCommand.run(source, file);
    return { file, id: source.session.store.sessionId };
  }

  test("copies the file into the session directory and continues it", async () => {
    const { file, id } = await exported();
    const host = makeHost();
    await importCommand.run(host, file);
    const dest = join(host.sessionDir!, basename(file));
    expect(host.text).toContain(`info: Imported ${file} as ${dest}`);
    expect(host.session.store.path).toBe(dest);
    expect(host.session.store.sessionId).toBe(id);
    const [header, ...entries] = readFileSync(dest, "utf8").split("\n");
    const [sourceHeader, ...sourceEntries] = readFileSync(file, "utf8").split("\n");
    expect(entries).toEqual(sourceEntries);
    expect(JSON.parse(header!)).toEqual({ ...JSON.parse(sourceHeader!), cwd: host.cwd });
    expect(host.changes).toBeGreaterThan(0);
  });

  test("a session from another machine (its directory missing here) continues in this project", async () => {
    const { file } = await exported();
    const lines = readFileSync(file, "utf8").split("\n");
    const header = JSON.parse(lines[0]!);
    lines[0] = JSON.stringify({ ...header, cwd: "/home/someone-else/project-that-is-not-here", extra: { kept: true } });
    writeFileSync(file, lines.join("\n"));
    const host = makeHost();
    await importCommand.run(host, file);
    expect(host.text).not.toContain("error:");
    expect(host.session.store.cwd).toBe(host.cwd);
    const imported = JSON.parse(readFileSync(host.session.store.path!, "utf8").split("\n")[0]!);
    expect(imported.extra).toEqual({ kept: true });
    await host.session.prompt("continue here");
    expect(host.session.store.buildContext().messages.length).toBeGreaterThan(2);
  });

  test("the same file already imported is opened again; a different one of that name is refused", async () => {
    const { file } = await exported();
    const host = makeHost();
    await importCommand.run(host, file);
    await importCommand.run(host, file);
    expect(host.text).not.toContain("error:");
    const other = join(tempDir(), basename(file));
    writeFileSync(other, `${readFileSync(file, "utf8")}`.replace('"one"', '"uno"'));
    await importCommand.run(host, other);
    expect(host.text).toContain("already exists with different content");
    expect(readFileSync(join(host.sessionDir!, basename(file)), "utf8")).not.toContain('"uno"');
  });

  test("refused while a branch summary runs", async () => {
    const { file } = await exported();
    const host = await branchedHost();
    // A branch summary under way: the tree hook holds the move until the import was tried.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    host.session.setHooks({ ...NO_HOOKS, sessionBeforeTree: () => held.then(() => ({ cancel: true })) });
    const moving = host.session.navigateTree(host.session.forkMessages()[0]!.entryId, { summarize: true });
    expect(host.session.isCompacting).toBe(true);
    await importCommand.run(host, file);
    release();
    await moving;
    expect(host.text).toContain("Cannot import a session while the agent is running");
    expect(existsSync(join(host.sessionDir!, basename(file)))).toBe(false);
  });

  test("a missing or broken file and a run without sessions are errors; nothing is copied", async () => {
    const host = makeHost();
    await importCommand.run(host, "");
    expect(host.text).toContain("error: Usage: /import <file.jsonl>");
    await importCommand.run(host, join(tempDir(), "notes.txt"));
    expect(host.text).toContain("a session file's name ends in .jsonl");
    await importCommand.run(host, join(tempDir(), "nope.jsonl"));
    expect(host.text).toContain("error: No such file:");
    const broken = join(tempDir(), "broken.jsonl");
    writeFileSync(broken, "this is not a session\n");
    await importCommand.run(host, broken);
    expect(host.text).toContain(`error: Cannot import ${broken}:`);
    expect(existsSync(join(host.sessionDir!, "broken.jsonl"))).toBe(false);
    const memory = makeHost({ inMemory: true, noSessionDir: true });
    await importCommand.run(memory, broken);
    expect(memory.text).toContain("error: Cannot import: sessions are not saved in this run (--no-session).");
  });
});
