/**
 * A Piglet built into a Piglet Binary (`pig build --piglet <file> --name --binary-version`): the
 * binary says what it is, runs as its default Piglet from a clean agent directory — the Piglet's
 * appended prompt, tools, linked extension, skills and prompt templates all there, its files
 * unpacked where the binary runs — records it in the session, and keeps it over a file of the
 * same name. Fixtures: test/fixtures/extensions/piglet/baked/.
 */
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPig } from "../helpers/binary.ts";
import { EXTENSION_FIXTURES, extensionWorlds, onlySessionEntries } from "../helpers/extension-worlds.ts";
import { pigletBinary } from "../helpers/piglet-binary.ts";
import { RpcClient } from "../helpers/rpc-client.ts";
import { tempDir } from "../helpers/tmp.ts";

const BAKED = join(EXTENSION_FIXTURES, "piglet", "baked");
const GREETER = join(EXTENSION_FIXTURES, "piglet", "greeter.ts");
const REVIEWER = pigletBinary([], {
  args: ["--piglet", join(BAKED, "reviewer.md"), "--name", "reviewer", "--binary-version", "2.0.0"],
  inputs: [BAKED],
});

const { world, track } = extensionWorlds();
type Json = Record<string, any>;

test("--version of a binary with its own name, version and default Piglet", () => {
  const proc = Bun.spawnSync([REVIEWER, "--version"], { stdout: "pipe", stderr: "pipe" });
  expect(proc.exitCode).toBe(0);
  const lines = proc.stdout.toString().trimEnd().split("\n");
  expect(lines[0]).toBe("2.0.0");
  expect(lines[1]).toMatch(/^reviewer 2\.0\.0: a Piglet Binary built on pig \d+\.\d+\.\d+/);
  expect(lines.slice(2)).toEqual(["default Piglet: reviewer", "linked extensions:", `  piglet-fixtures 1.2.3 (${GREETER})`]);
});

test("the binary runs as its built-in Piglet: prompt, tools, linked extension, skills and templates", async () => {
  const w = await world();
  const client = track(new RpcClient({ cwd: w.cwd, env: w.env, binary: REVIEWER }));
  const listed = await client.request({ type: "get_commands" });
  const commands = (listed.data as { commands: Json[] }).commands;
  expect(commands.filter((c) => c.source === "prompt").map((c) => c.name)).toEqual(["review"]);
  expect(commands.filter((c) => c.source === "extension").map((c) => c.name)).toContain("greet-pid");
  await client.promptAndWait("/review src/a.ts");
  expect(await client.close()).toBe(0);

  const request = w.llm.requests[0]!.body as Json;
  expect(request.tools.map((t: Json) => t.function?.name ?? t.name).sort()).toEqual(["greet", "read"]);
  const system = JSON.stringify(request.messages[0]);
  expect(system).toContain("You are the baked-in reviewer.");
  expect(system).toContain("Always greet warmly.");
  // The skill is listed from where the binary unpacked it, its script still executable.
  const unpacked = readdirSync(join(w.agentDir, "built-in")).filter((n) => n.startsWith("reviewer-"));
  expect(unpacked).toHaveLength(1);
  const skillDir = join(w.agentDir, "built-in", unpacked[0]!, "skills", "0", "checklist");
  expect(system).toContain(join(skillDir, "SKILL.md"));
  expect(statSync(join(skillDir, "run.sh")).mode & 0o111).not.toBe(0);
  expect(JSON.stringify(request.messages)).toContain("Review src/a.ts with the checklist.");

  const entries = onlySessionEntries(join(w.agentDir, "sessions"));
  expect(entries.find((e) => e.customType === "pig.piglet")?.data).toEqual({ name: "reviewer" });
});

test("a file named like a built-in Piglet is ignored, and said", async () => {
  const w = await world();
  mkdirSync(join(w.agentDir, "piglets"), { recursive: true });
  writeFileSync(join(w.agentDir, "piglets", "reviewer.md"), "---\ndescription: mine\n---\nmine\n");
  const proc = Bun.spawnSync([REVIEWER, "piglets", "list", "--json"], { cwd: w.cwd, env: w.env, stdout: "pipe", stderr: "pipe" });
  expect(proc.exitCode).toBe(0);
  const rows = JSON.parse(proc.stdout.toString()) as Json[];
  expect(rows.map((r) => [r.name, r.scope, r.description])).toEqual([["reviewer", "built-in", "Reviews with the greeter at hand"]]);
  expect(proc.stderr.toString()).toContain(`${join(w.agentDir, "piglets", "reviewer.md")}: this binary has a built-in Piglet named "reviewer"; the file is ignored`);
});

test("pig build --piglet names what it cannot carry", () => {
  const cwd = tempDir("pig-build-piglet-");
  const agent = join(cwd, "agent");
  const env = { PIG_CODING_AGENT_DIR: agent, HOME: cwd };
  const unknown = runPig(["build", "--piglet", "nobody", "-o", "out"], { cwd, env });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('build --piglet nobody: unknown Piglet "nobody"');
  writeFileSync(join(cwd, "py.md"), "---\nextensions: [tool.py]\n---\n");
  writeFileSync(join(cwd, "tool.py"), "print('x')\n");
  const python = runPig(["build", "--piglet", "./py.md", "-o", "out"], { cwd, env });
  expect(python.code).toBe(1);
  expect(python.stderr).toContain(`field "extensions": ${join(cwd, "tool.py")} is not a TypeScript or JavaScript module`);
  writeFileSync(join(cwd, "gone.md"), "---\nskills: [nowhere]\n---\n");
  const gone = runPig(["build", "--piglet", "./gone.md", "-o", "out"], { cwd, env });
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain(`${join(cwd, "gone.md")}: field "skills": ${join(cwd, "nowhere")} does not exist`);
  const badName = runPig(["build", "--piglet", "./gone.md", "--name", "a b", "-o", "out"], { cwd, env });
  expect(badName.code).toBe(2);
  expect(badName.stderr).toContain('--name "a b": must be letters');
});
