import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CredentialVars } from "../../src/ai/credential-vars.ts";
import { childEnv, isCredentialVar, transpilerCachePath } from "../../src/extensions/host/child-env.ts";
import { runnerCommand } from "../../src/extensions/host/runner-command.ts";
import { baseRuntimeDir, createSocketDir, removeStaleDirs } from "../../src/extensions/host/socket-dir.ts";
import { describeAsOtherUser } from "../helpers/other-user.ts";
import { tempDir } from "../helpers/tmp.ts";
import { ctx, fakeSource, noUpdate, startTestHost, type TestHost, toolNamed } from "./helpers/host-fixture.ts";

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("launch security", () => {
  test("the socket directory is 0700 and the socket 0600", async () => {
    t = await startTestHost([fakeSource("/ext/a")]);
    const parent = join(t.dir, `pig-ext-${process.getuid!()}`);
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const dirs = require("node:fs").readdirSync(parent) as string[];
    expect(dirs).toHaveLength(1);
    const dir = join(parent, dirs[0]!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "host.sock")).mode & 0o777).toBe(0o600);
  });

  test("directories left by dead pig processes are removed", () => {
    const base = mkdtempSync(join(tmpdir(), "pig-stale-"));
    try {
      const parent = join(base, `pig-ext-${process.getuid!()}`);
      require("node:fs").mkdirSync(parent, { mode: 0o700 });
      const stale = join(parent, "999999999-abcdef");
      require("node:fs").mkdirSync(stale);
      const d = createSocketDir(base);
      expect(() => statSync(stale)).toThrow();
      expect(d.dir.startsWith(join(base, `pig-ext-${process.getuid!()}`))).toBe(true);
      d.remove();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test("a link named like a stale directory is left alone, and so is what it points to", () => {
    const base = mkdtempSync(join(tmpdir(), "pig-stale-link-"));
    try {
      const fs = require("node:fs") as typeof import("node:fs");
      const parent = join(base, `pig-ext-${process.getuid!()}`);
      fs.mkdirSync(parent, { mode: 0o700 });
      const target = join(base, "elsewhere");
      fs.mkdirSync(target);
      fs.writeFileSync(join(target, "keep"), "x");
      const link = join(parent, "999999999-abcdef");
      fs.symlinkSync(target, link);
      removeStaleDirs(parent);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(join(target, "keep"), "utf8")).toBe("x");
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test("a parent directory of another owner's making is not used: the launch gets a private directory of its own", () => {
    const base = mkdtempSync(join(tmpdir(), "pig-foreign-"));
    try {
      // A file (not a directory) where the per-user parent would be: pig must not use it.
      require("node:fs").writeFileSync(join(base, `pig-ext-${process.getuid!()}`), "");
      const d = createSocketDir(base);
      expect(statSync(d.dir).mode & 0o777).toBe(0o700);
      expect(d.dir.startsWith(join(base, `pig-ext-${process.pid}-`))).toBe(true);
      d.remove();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test("credentials are not passed on unless the manifest names them", () => {
    const home = tempDir();
    const env = childEnv({
      base: {
        PATH: "/bin",
        ANTHROPIC_API_KEY: "a",
        OPENAI_BASE_URL: "u",
        MY_API_KEY: "m",
        GITHUB_TOKEN: "g",
        NPM_TOKEN: "n",
        CLIENT_SECRET: "c",
        DB_PASSWORD: "d",
        AWS_SECRET_ACCESS_KEY: "s",
        AWS_SESSION_TOKEN: "st",
        CORP_GATEWAY: "named in models.json",
        HOME: home,
      },
      socketPath: "/s",
      token: "t",
      allow: ["GITHUB_TOKEN"],
      credentials: new CredentialVars(["CORP_GATEWAY"]),
    });
    expect(env).toEqual({
      PATH: "/bin",
      HOME: home,
      OPENAI_BASE_URL: "u",
      GITHUB_TOKEN: "g",
      BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(realpathSync(home), ".cache/pig/transpiler"),
      PIG_EXT_SOCKET: "/s",
      PIG_EXT_TOKEN: "t",
      PIG_EXT_PROTOCOL: "pig-ext/1",
    });
    // XDG_CACHE_HOME moves pig's cache; a transpiler cache the person chose is kept.
    const xdg = tempDir();
    expect(childEnv({ base: { HOME: home, XDG_CACHE_HOME: xdg }, socketPath: "/s", token: "t" }).BUN_RUNTIME_TRANSPILER_CACHE_PATH).toBe(join(realpathSync(xdg), "pig/transpiler"));
    expect(childEnv({ base: { HOME: "/h", BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" }, socketPath: "/s", token: "t" }).BUN_RUNTIME_TRANSPILER_CACHE_PATH).toBe("0");
    expect(isCredentialVar("XAI_API_KEY")).toBe(true);
    expect(isCredentialVar("TERM")).toBe(false);
  });

  test("the transpiler cache the runner reads is this user's alone, or not used", () => {
    // Made 0700 where missing.
    const home = tempDir();
    const made = transpilerCachePath({ HOME: home });
    expect(made).toBe(join(realpathSync(home), ".cache/pig/transpiler"));
    expect(statSync(made).mode & 0o777).toBe(0o700);
    // A folder of ours from an earlier release (0755: nobody else could write to it) is narrowed.
    chmodSync(made, 0o755);
    expect(transpilerCachePath({ HOME: home })).toBe(made);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    // One that others could have written to is not used; nor is a cache under a folder anyone may change.
    chmodSync(made, 0o777);
    expect(transpilerCachePath({ HOME: home })).toBe("0");
    const open = join(tempDir(), "shared");
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(transpilerCachePath({ HOME: home, XDG_CACHE_HOME: open })).toBe("0");
  });

  test("the runner command runs pig's CLI entry from source", () => {
    const cmd = runnerCommand();
    expect(cmd[0]).toBe(process.execPath);
    expect(cmd.at(-1)).toBe("__extension-runner");
    expect(cmd[1]).toEndWith("src/cli/main.ts");
  });
});

describeAsOtherUser("the socket's base directory and another user", (user) => {
  test("root's XDG_RUNTIME_DIR of the other user's is passed over for the temp dir", () => {
    const theirs = tempDir("pig-xdg-other-");
    require("node:fs").chownSync(theirs, user.uid, user.gid);
    const base = baseRuntimeDir({ XDG_RUNTIME_DIR: theirs, TMPDIR: tmpdir() });
    expect(base).toBe(require("node:fs").realpathSync(tmpdir()));
  });

  test("a base below a directory the other user owns is refused outright", () => {
    const outer = tempDir("pig-base-other-");
    require("node:fs").mkdirSync(join(outer, "inner"));
    require("node:fs").chownSync(outer, user.uid, user.gid);
    expect(() => createSocketDir(join(outer, "inner"))).toThrow(`not a safe directory for the extension socket: ${outer} belongs to uid ${user.uid}, not 0`);
    expect(require("node:fs").readdirSync(join(outer, "inner"))).toEqual([]);
  });
});

describe("activation", () => {
  test("a lazily activated extension shows its declared tool, then starts on first use", async () => {
    const src = {
      ...fakeSource("/ext/lazy"),
      activation: ["onTool:echo"],
      tools: [{ name: "echo", description: "declared", parameters: { type: "object" } }],
    };
    t = await startTestHost([src]);
    expect(t.host.list()[0]).toMatchObject({ state: "idle", pid: undefined });
    expect(toolNamed(t.host, "echo").description).toBe("declared");
    const r = await toolNamed(t.host, "echo").execute("c", { text: "woke" }, new AbortController().signal, noUpdate, ctx);
    expect(r.content).toEqual([{ type: "text", text: "woke" }]);
    expect(t.host.list()[0]!.state).toBe("running");
    // The running process's own registration replaced the declaration.
    expect(toolNamed(t.host, "echo").description).toBe("echo tool");
  });
});

describe("packing and credentials", () => {
  test("a TypeScript extension whose manifest lists env gets a process of its own; the shared runner lets no variable through", async () => {
    const { groupIntoProcesses } = await import("../../src/extensions/host/process-specs.ts");
    const { fakeSource: source } = await import("./helpers/host-fixture.ts");
    const ts = (id: string, env: string[]) => ({ ...source(id), runtime: "typescript" as const, ownProcess: false, env, entry: `${id}/index.ts` });
    const specs = groupIntoProcesses([ts("/ext/a", []), ts("/ext/keyed", ["GITHUB_TOKEN"]), ts("/ext/b", [])], ["runner"]);
    expect(specs.map((s) => ({ name: s.name, load: s.load.map((l) => l.id), allowEnv: s.allowEnv }))).toEqual([
      { name: "typescript-runner", load: ["/ext/a", "/ext/b"], allowEnv: [] },
      { name: "_ext_keyed", load: ["/ext/keyed"], allowEnv: ["GITHUB_TOKEN"] },
    ]);
  });
});
