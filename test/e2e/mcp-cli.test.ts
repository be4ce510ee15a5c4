/**
 * `pig mcp list` through the built binary, against real stdio servers made with the official
 * MCP SDK: each server's state, transport and tools, a failed server's error and stderr, the
 * config errors, exit 1 when anything needs attention; `--json`; the project's file only with
 * trust. `pig mcp add/remove` with upstream's flags: the entry written without touching the rest
 * of the file, the added server then connecting, and each mistake naming its flag.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();
const STDIO_SERVER = join(import.meta.dir, "..", "helpers", "mcp", "stdio-server.ts");
const stdio = (label: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [STDIO_SERVER, label], ...extra });
const mcpJson = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers }, null, 2);

test("lists each server's state and tools, the failures and the config errors, and exits 1 when one needs attention", async () => {
  const w = await world(undefined, {
    agentFiles: {
      "mcp.json": mcpJson({ local: stdio("local"), broken: stdio("broken", { env: { MCP_TEST_FAIL: "no database" } }), off: stdio("off", { enabled: false }), "bad name": { command: "x" } }),
    },
  });
  const file = join(w.agentDir, "mcp.json");
  const run = await w.run(["mcp", "list"]);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe(
    [
      `local: connected, 5 tools (user: ${file})`,
      `  ${process.execPath} ${STDIO_SERVER} local`,
      "  tools: echo, add, fail, dot, grow",
      `broken: failed (user: ${file})`,
      `  ${process.execPath} ${STDIO_SERVER} broken`,
      "  the connection closed: the server exited (code 3)",
      "  stderr: no database",
      `off: disabled (user: ${file})`,
      `  ${process.execPath} ${STDIO_SERVER} off`,
      `config error: ${file}: invalid server name "bad name" (use letters, digits, "_" and "-")`,
      "",
    ].join("\n"),
  );

  const json = await w.run(["mcp", "list", "--json"]);
  const parsed = JSON.parse(json.stdout);
  expect(parsed.servers.map((s: { name: string; state: string }) => `${s.name}=${s.state}`)).toEqual(["local=connected", "broken=failed", "off=disabled"]);
  expect(parsed.errors).toHaveLength(1);
});

test("exits 0 when every enabled server connects; the project's file counts only with trust", async () => {
  const w = await world(undefined, { agentFiles: { "mcp.json": mcpJson({ local: stdio("local") }) }, files: { ".pig/mcp.json": mcpJson({ proj: stdio("proj") }) } });
  const untrusted = await w.run(["mcp", "list"]);
  expect(untrusted.code).toBe(0);
  expect(untrusted.stdout).toStartWith(`local: connected, 5 tools`);
  expect(untrusted.stdout).not.toContain("proj");
  expect(untrusted.stderr).toContain("the project's .pig/mcp.json is left out: the project is not trusted (--trust includes it)");
  const trusted = await w.run(["mcp", "list", "--trust"]);
  expect(trusted.code).toBe(0);
  expect(trusted.stdout).toContain(`proj: connected, 5 tools (project: ${join(w.cwd, ".pig", "mcp.json")})`);
  const none = await world();
  const empty = await none.run(["mcp", "list"]);
  expect(empty.stdout).toBe(`No MCP servers configured. Add them to ${none.agentDir}/mcp.json or .pig/mcp.json.\n`);
  expect((await none.run(["mcp", "lst"])).stderr).toContain("pig: mcp: unknown subcommand lst (those there are: list, add, remove, login, logout)");
});

test("add writes a stdio server with its own flags after --, keeping the file's other content and indentation; list then connects it", async () => {
  const w = await world();
  const file = join(w.agentDir, "mcp.json");
  const before = '{\n    "comment": "mine",\n    "mcpServers": {\n        "kept": { "command": "true", "enabled": false }\n    },\n    "autoEnableCodemode": false\n}\n';
  writeFileSync(file, before);
  const add = await w.run(["mcp", "add", "tools", "--env", "A=1", "--env", "B=x=y", "--exposure", "deferred", "--description", "Test tools", "--", process.execPath, STDIO_SERVER, "tools", "--help"]);
  expect(add.stderr).toBe("");
  expect(add.code).toBe(0);
  expect(add.stdout).toBe(`Added user MCP server "tools" in ${file}.\nCheck it with: pig mcp list\n`);
  const text = readFileSync(file, "utf8");
  expect(text.startsWith('{\n    "comment": "mine",\n    "mcpServers": {\n        "kept": { "command": "true", "enabled": false },\n        "tools": {\n            "command": ')).toBe(true);
  expect(text).toEndWith('    },\n    "autoEnableCodemode": false\n}\n');
  expect(JSON.parse(text).mcpServers.tools).toEqual({ command: process.execPath, args: [STDIO_SERVER, "tools", "--help"], env: { A: "1", B: "x=y" }, exposure: "deferred", description: "Test tools" });
  const list = await w.run(["mcp", "list"]);
  expect(list.stdout).toContain(`tools: connected, 5 tools (user: ${file})`);

  const again = await w.run(["mcp", "add", "tools", "--", process.execPath, STDIO_SERVER, "tools"]);
  expect(again.stdout).toStartWith(`Replaced user MCP server "tools" in ${file}.`);
  expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.tools).toEqual({ command: process.execPath, args: [STDIO_SERVER, "tools"] });

  const removed = await w.run(["mcp", "remove", "tools"]);
  expect(removed.code).toBe(0);
  expect(removed.stdout).toBe(`Removed user MCP server "tools" from ${file}.\n`);
  expect(readFileSync(file, "utf8")).toBe(before);
  const gone = await w.run(["mcp", "remove", "tools"]);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toBe(`pig: no user MCP server named "tools" in ${file}\n`);
});

test("add --url with headers, a bearer token variable and OAuth settings; -l writes the project's file, privately, and says it needs trust", async () => {
  const w = await world();
  const add = await w.run([
    "mcp", "add", "-l", "docs", "--url", "https://docs.example.com/mcp", "--header", "X-Team=core", "--bearer-token-env-var", "DOCS_TOKEN",
    "--oauth-client-id", "pig-cli", "--oauth-client-secret", "${DOCS_SECRET}", "--oauth-callback-port", "8976", "--oauth-client-name", "pig", "--oauth-client-registration", "dcr",
  ]);
  expect(add.stderr).toBe("");
  expect(add.code).toBe(0);
  const file = join(w.cwd, ".pig", "mcp.json");
  expect(add.stdout).toBe(
    [`Added project MCP server "docs" in ${file}.`, `The project is not trusted, so ${file} is left out until you trust it (start pig in the project, or pass --trust).`, "Check it with: pig mcp list", ""].join("\n"),
  );
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
    mcpServers: {
      docs: {
        url: "https://docs.example.com/mcp",
        headers: { "X-Team": "core", Authorization: "Bearer ${DOCS_TOKEN}" },
        oauth: { clientId: "pig-cli", clientSecret: "${DOCS_SECRET}", callbackPort: 8976, clientName: "pig", clientRegistration: "dcr" },
      },
    },
  });
  expect(statSync(file).mode & 0o777).toBe(0o600);
  // Without an Authorization header an HTTP server may ask for a sign-in.
  const plain = await w.run(["mcp", "add", "open", "--url", "http://127.0.0.1:9/mcp"]);
  expect(plain.stdout).toEndWith("Check it with: pig mcp list. If it needs a sign-in: pig mcp login open\n");
  // The server is in the project's file, not the user's: remove says where it is.
  const wrong = await w.run(["mcp", "remove", "docs"]);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toBe(`pig: no user MCP server named "docs" in ${join(w.agentDir, "mcp.json")}; it is defined in ${file} (use -l)\n`);
  expect((await w.run(["mcp", "remove", "-l", "docs"])).code).toBe(0);
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: {} });
});

test("add and remove name the flag at fault; nothing is written; help lists them", async () => {
  const w = await world();
  const file = join(w.agentDir, "mcp.json");
  const cases: [string[], string][] = [
    [["add", "x", "--header", "A=b", "--", "srv"], "mcp add: --header only applies to HTTP servers (--url)"],
    [["add", "x", "--url", "https://a.example/mcp", "--env", "A=b"], "mcp add: --env only applies to stdio servers (-- <command>)"],
    [["add", "x", "--exposure", "visible", "--", "srv"], 'mcp add: --exposure must be one of codemode, deferred, direct, hidden, not "visible"'],
    [["add", "x", "--url", "https://a.example/mcp", "--oauth-callback-port", "http"], 'mcp add: --oauth-callback-port must be a port number (1-65535), not "http"'],
    [["add", "x", "--url", "https://a.example/mcp", "--oauth-client-registration", "magic"], 'mcp add: --oauth-client-registration must be one of auto, dcr, cimd, not "magic"'],
    [["add", "x", "--url", "https://a.example/mcp", "--oauth-client-registration", "cimd"], "mcp add: --oauth-client-registration cimd is not supported"],
    [["add", "x", "--url", "ftp://a.example/mcp"], 'mcp add: --url must be an http or https URL, not "ftp://a.example/mcp"'],
    [["add", "x", "--url", "https://a.example/mcp", "--bearer-token-env-var", "A B"], 'mcp add: --bearer-token-env-var must name an environment variable, not "A B"'],
    [["add", "x", "--env", "NOEQUALS", "--", "srv"], 'mcp add: --env expects KEY=VALUE, got "NOEQUALS"'],
    [["add", "x", "--frobnicate", "--", "srv"], "mcp add: unknown option --frobnicate"],
    [["add", "x", "--cwd"], "mcp add: --cwd needs a value"],
    [["add", "x"], "mcp add: give the server's command after -- (stdio) or --url <url> (HTTP)"],
    [["add", "bad name", "--", "srv"], 'mcp add: invalid server name "bad name"'],
    [["add", "x", "--url", "https://a.example/mcp", "--", "srv"], "mcp add: --url and a command (srv) cannot be combined"],
    [["remove"], "mcp remove: name the server"],
    [["remove", "a", "b"], "mcp remove: one server at a time"],
  ];
  for (const [args, message] of cases) {
    const run = await w.run(["mcp", ...args]);
    expect({ args, code: run.code }).toEqual({ args, code: 2 });
    expect(run.stderr).toStartWith(`pig: ${message}`);
    expect(run.stderr).toContain("Run 'pig mcp --help' for usage.");
  }
  expect(existsSync(file)).toBe(false);
  mkdirSync(w.agentDir, { recursive: true });
  writeFileSync(file, "[1, 2]");
  const broken = await w.run(["mcp", "add", "x", "--", "srv"]);
  expect(broken.code).toBe(1);
  expect(broken.stderr).toBe(`pig: could not update ${file}: expected an object with an "mcpServers" object\n`);
  expect(readFileSync(file, "utf8")).toBe("[1, 2]");

  const help = await w.run(["mcp", "--help"]);
  expect(help.stdout).toContain("pig mcp add <server> [options] (--url <url> | -- <command> [args...]), pig mcp remove <server> [-l]");
  const addHelp = await w.run(["mcp", "add", "--help"]);
  expect(addHelp.stdout).toContain("--bearer-token-env-var <NAME>");
  expect(addHelp.stdout).toContain("-l, --local");
});
