/** Writing settings at runtime: only what changed, under a lock, never over a broken file. */
import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { SettingsStore, SettingsValueError, withFileLock } from "../../src/resources/settings-store.ts";
import { tempDir } from "../helpers/tmp.ts";

function setup() {
  const root = tempDir("pig-store-");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { agentDir, cwd, global: join(agentDir, "settings.json"), project: join(cwd, ".pig", "settings.json") };
}

const read = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("writing the global file", () => {
  test("a set creates the file, pretty-printed with a final newline", () => {
    const { agentDir, cwd, global } = setup();
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(store.set(["defaultModel"], "m1")).toBe(true);
    expect(readFileSync(global, "utf8")).toBe('{\n  "defaultModel": "m1"\n}\n');
    expect(store.settings.defaultModel).toBe("m1");
    expect(existsSync(`${global}.lock`)).toBe(false);
  });

  test("keys changed on disk by someone else survive; only this process's keys are written", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, JSON.stringify({ theme: "dark", defaultModel: "old" }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    writeFileSync(global, JSON.stringify({ theme: "light", defaultModel: "old", quietStartup: true }));
    store.set(["defaultModel"], "new");
    expect(read(global)).toEqual({ theme: "light", defaultModel: "new", quietStartup: true });
    // The in-memory view is this process's: the outside edit is picked up by reload().
    expect(store.settings.theme).toBe("dark");
    store.reload();
    expect(store.settings.theme).toBe("light");
  });

  test("a nested set changes only that nested key in the file", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, JSON.stringify({ retry: { maxRetries: 1 } }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    writeFileSync(global, JSON.stringify({ retry: { maxRetries: 7, baseDelayMs: 10 } }));
    store.set(["retry", "enabled"], false);
    expect(read(global)).toEqual({ retry: { maxRetries: 7, baseDelayMs: 10, enabled: false } });
    store.set(["retry", "provider", "maxRetryDelayMs"], 5);
    expect(read(global)).toEqual({ retry: { maxRetries: 7, baseDelayMs: 10, enabled: false, provider: { maxRetryDelayMs: 5 } } });
  });

  test("undefined removes a key", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, JSON.stringify({ npmCommand: ["bun"], theme: "x" }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    store.set(["npmCommand"], undefined);
    expect(read(global)).toEqual({ theme: "x" });
    expect(store.settings.npmCommand).toBeUndefined();
  });

  test("old keys in the file are migrated when it is rewritten", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, JSON.stringify({ queueMode: "all", retry: { maxDelayMs: 3 } }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    store.set(["theme"], "dark");
    expect(read(global)).toEqual({ steeringMode: "all", retry: { provider: { maxRetryDelayMs: 3 } }, theme: "dark" });
  });

  test("a file with comments keeps them: the change is edited into the text", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, '{\n  // why this model\n  "defaultModel": "a",\n  "retry": { "enabled": true, },\n}\n');
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    store.set(["defaultModel"], "b");
    store.set(["retry", "maxRetries"], 9);
    const text = readFileSync(global, "utf8");
    expect(text).toContain("// why this model");
    expect(store.diagnostics).toEqual([]);
    const reread = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(reread.settings).toEqual({ defaultModel: "b", retry: { enabled: true, maxRetries: 9 } });
  });

  test("a symlinked settings.json stays a symlink; its target is updated", () => {
    const { agentDir, cwd, global } = setup();
    const target = join(agentDir, "..", "dotfiles-settings.json");
    writeFileSync(target, "{}");
    symlinkSync(target, global);
    SettingsStore.load({ agentDir, cwd, includeProject: false }).set(["theme"], "t");
    expect(lstatSync(global).isSymbolicLink()).toBe(true);
    expect(read(target)).toEqual({ theme: "t" });
  });

  test("a wrong-typed value is refused with the key named, and nothing changes", () => {
    const { agentDir, cwd, global } = setup();
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(() => store.set(["compaction", "enabled"], "yes")).toThrow(SettingsValueError);
    expect(() => store.set(["compaction", "enabled"], "yes")).toThrow('"compaction.enabled" must be true or false');
    expect(existsSync(global)).toBe(false);
    expect(store.settings).toEqual({});
  });

  test("setAll writes several keys at once; one wrong-typed value and none of them changes", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, JSON.stringify({ theme: "dark", packages: [{ source: "npm:a", mine: 1 }], skills: ["s"] }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(() => store.setAll("global", [[["skills"], ["-s/x.md"]], [["packages"], "npm:a"]])).toThrow(SettingsValueError);
    expect(store.settings.skills).toEqual(["s"]);
    expect(store.setAll("global", [[["packages"], [{ source: "npm:a", mine: 1, prompts: [] }]], [["skills"], ["s", "-s/x.md"]]])).toBe(true);
    expect(read(global)).toEqual({ theme: "dark", packages: [{ source: "npm:a", mine: 1, prompts: [] }], skills: ["s", "-s/x.md"] });
    expect(store.hasPendingWrites()).toBe(false);
  });
});

describe("a scope that failed to load", () => {
  test("invalid JSON is never overwritten: the change holds in memory and a diagnostic says why, once", () => {
    const { agentDir, cwd, global } = setup();
    const broken = '{ "theme": "dark", }}';
    writeFileSync(global, broken);
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(store.writable("global")).toBe(false);
    expect(store.drainDiagnostics()[0]!.message).toContain("line 1, column 21");
    expect(store.set(["defaultModel"], "x")).toBe(false);
    expect(store.set(["theme"], "y")).toBe(false);
    expect(store.settings).toEqual({ defaultModel: "x", theme: "y" });
    expect(readFileSync(global, "utf8")).toBe(broken);
    const diagnostics = store.drainDiagnostics();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.message).toContain("does not overwrite a file it could not use");
    expect(store.hasPendingWrites("global")).toBe(true);
  });

  test("a wrong-typed value makes the file unusable for the run, so it is not written either", () => {
    const { agentDir, cwd, global } = setup();
    const typed = '{ "quietStartup": "yes" }\n';
    writeFileSync(global, typed);
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(store.writable("global")).toBe(false);
    expect(store.set(["defaultModel"], "x")).toBe(false);
    expect(readFileSync(global, "utf8")).toBe(typed);
    expect(store.drainDiagnostics().at(-1)!.message).toContain("not saving defaultModel");
  });

  test("a file that became invalid after startup is left alone too", () => {
    const { agentDir, cwd, global } = setup();
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    writeFileSync(global, "{ nope");
    expect(store.set(["theme"], "y")).toBe(false);
    expect(readFileSync(global, "utf8")).toBe("{ nope");
    expect(store.drainDiagnostics()[0]!.message).toContain(`${global}: could not save theme`);
  });

});

describe("the project file", () => {
  test("setProject writes <cwd>/.pig/settings.json and the merged view follows", () => {
    const { agentDir, cwd, global, project } = setup();
    writeFileSync(global, JSON.stringify({ packages: ["npm:global"] }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: true });
    expect(store.setProject(["packages"], ["npm:local"])).toBe(true);
    expect(read(project)).toEqual({ packages: ["npm:local"] });
    expect(read(global)).toEqual({ packages: ["npm:global"] });
    expect(store.settings.packages).toEqual(["npm:local"]);
    expect(store.global.packages).toEqual(["npm:global"]);
  });

  test("a broken project file blocks project writes only", () => {
    const { agentDir, cwd, global, project } = setup();
    mkdirSync(join(cwd, ".pig"));
    writeFileSync(project, "{");
    const store = SettingsStore.load({ agentDir, cwd, includeProject: true });
    expect(store.setProject(["skills"], ["a"])).toBe(false);
    expect(readFileSync(project, "utf8")).toBe("{");
    expect(store.set(["skills"], ["b"])).toBe(true);
    expect(read(global)).toEqual({ skills: ["b"] });
  });
});

describe("the lock", () => {
  test("a lock held by a live process makes the write wait, give up, and retry on flush", () => {
    const { agentDir, cwd, global } = setup();
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    writeFileSync(`${global}.lock`, JSON.stringify({ pid: process.pid, host: hostname() }));
    const started = Date.now();
    expect(store.set(["theme"], "a")).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const message = store.drainDiagnostics()[0]!.message;
    expect(message).toContain(`locked by process ${process.pid}`);
    expect(message).toContain("gave up after 10 tries");
    expect(existsSync(global)).toBe(false);
    unlinkSync(`${global}.lock`);
    expect(store.flush()).toBe(true);
    expect(read(global)).toEqual({ theme: "a" });
  });

  test("a lock left by a dead process is taken over", async () => {
    const { agentDir, cwd, global } = setup();
    const child = Bun.spawn([process.execPath, "-e", "0"]);
    await child.exited;
    writeFileSync(`${global}.lock`, JSON.stringify({ pid: child.pid, host: hostname() }));
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(store.set(["theme"], "a")).toBe(true);
    expect(existsSync(`${global}.lock`)).toBe(false);
  });

  test("a lock older than ten seconds is taken over even if its process lives", () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(`${global}.lock`, JSON.stringify({ pid: process.pid, host: hostname() }));
    const old = new Date(Date.now() - 11_000);
    utimesSync(`${global}.lock`, old, old);
    const store = SettingsStore.load({ agentDir, cwd, includeProject: false });
    expect(store.set(["theme"], "a")).toBe(true);
  });

  test("withFileLock releases the lock when the work throws", () => {
    const { global } = setup();
    expect(() =>
      withFileLock(global, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(existsSync(`${global}.lock`)).toBe(false);
  });
});

describe("two processes writing at once", () => {
  test("both processes' last values end up in the file, which is valid JSON throughout", async () => {
    const { agentDir, cwd, global } = setup();
    writeFileSync(global, JSON.stringify({ theme: "keep-me" }));
    const rounds = 150;
    const script = (name: string) => `
      import { SettingsStore } from ${JSON.stringify(join(import.meta.dir, "../../src/resources/settings-store.ts"))};
      const store = SettingsStore.load({ agentDir: ${JSON.stringify(agentDir)}, cwd: ${JSON.stringify(cwd)}, includeProject: false });
      for (let i = 0; i < ${rounds}; i++) {
        store.set([${JSON.stringify(`writer_${name}`)}], i);
        store.set(["shared", ${JSON.stringify(name)}], i);
      }
      while (!store.flush()) Bun.sleepSync(5);
    `;
    const children = ["a", "b"].map((name) =>
      Bun.spawn([process.execPath, "-e", script(name)], { stdout: "pipe", stderr: "pipe" }),
    );
    let done = false;
    let reads = 0;
    const all = Promise.all(children.map((c) => c.exited)).then((codes) => {
      done = true;
      return codes;
    });
    while (!done) {
      const text = readFileSync(global, "utf8");
      expect(() => JSON.parse(text)).not.toThrow();
      reads++;
      await Bun.sleep(1);
    }
    const codes = await all;
    for (const child of children) expect(await new Response(child.stderr).text()).toBe("");
    expect(codes).toEqual([0, 0]);
    expect(reads).toBeGreaterThan(0);
    expect(read(global)).toEqual({
      theme: "keep-me",
      writer_a: rounds - 1,
      writer_b: rounds - 1,
      shared: { a: rounds - 1, b: rounds - 1 },
    });
    expect(existsSync(`${global}.lock`)).toBe(false);
  });
});
