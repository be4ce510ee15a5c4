/**
 * docs/cli-integration.md, run: every example in it is executed against the built binary, so
 * the document cannot say what pig does not do.
 *
 * The convention the document follows:
 *
 * - Every ```sh block is an example, and is run with bash. Shell examples use no other fence
 *   (```bash, ```shell, ```console are refused), so none escapes being run.
 * - The next fenced block after it is a ```text block: what the example prints, stdout and
 *   stderr together (bash runs it with `exec 2>&1`). In it, `...` stands for any text within a
 *   line (ids, times, ports, temp paths), and a line that is only `...` for any number of lines.
 * - An HTML comment `<!-- model: <script> -->` just before the block (blank lines between are
 *   allowed) gives the model's answers, in the fake LLM server's script format
 *   (test/helpers/fake-llm/script.ts). Without one, every request is answered "ok".
 *
 * Each example runs in a world of its own: a new HOME whose ~/.pig/agent/models.json has the
 * provider `local` with the model `qwen3-coder` on the fake server, the working directory
 * $HOME/project, `pig` on PATH as dist/pig, stdin from /dev/null. An example passes when its
 * output matches, bash exits 0, nothing it printed holds an escape sequence or a carriage
 * return (the output is a pipe), and the model was asked as often as its script has answers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pigBinary } from "../helpers/binary.ts";
import { startFakeLlm, type FakeLlm, type Script } from "../helpers/fake-llm/server.ts";
import { tempDir } from "../helpers/tmp.ts";

const DOC = join(import.meta.dir, "..", "..", "docs", "cli-integration.md");

interface Fence {
  lang: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The document's text between the previous fence and this one. */
  before: string;
}

interface Example {
  line: number;
  title: string;
  script: string;
  expected: string;
  model: Script | undefined;
}

function fences(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  const found: Fence[] = [];
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) {
      prose.push(lines[i]!);
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i === lines.length) throw new Error(`${DOC}:${start + 1}: a fence that is never closed`);
    found.push({ lang: open[1]!, body: body.join("\n"), line: start + 1, before: prose.join("\n") });
    prose = [];
  }
  return found;
}

/** The examples of the document, each with its expected output and model answers. */
function examples(markdown: string): Example[] {
  const all = fences(markdown);
  const out: Example[] = [];
  for (const [i, fence] of all.entries()) {
    if (["bash", "shell", "console", "zsh"].includes(fence.lang)) {
      throw new Error(`${DOC}:${fence.line}: a shell example must be a \`\`\`sh block, so that it is run`);
    }
    if (fence.lang !== "sh") continue;
    const next = all[i + 1];
    if (next?.lang !== "text" || next.body.trim() === "") {
      throw new Error(`${DOC}:${fence.line}: a sh block must be followed by a text block with what it prints`);
    }
    const comment = /<!-- model: (.*) -->\s*$/.exec(fence.before);
    let model: Script | undefined;
    if (comment) {
      try {
        model = JSON.parse(comment[1]!) as Script;
      } catch (error) {
        throw new Error(`${DOC}:${fence.line}: the model comment is not JSON: ${(error as Error).message}`);
      }
    }
    const heading = [...markdown.split("\n").slice(0, fence.line).join("\n").matchAll(/^#+ (.*)$/gm)].at(-1)?.[1] ?? "";
    const first = fence.body.split("\n").find((l) => l.trim() !== "") ?? "";
    out.push({ line: fence.line, title: `${heading}: ${first}`, script: fence.body, expected: next.body, model });
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The expected text as a pattern: `...` is any text within a line; a line of `...`, any lines. */
function expectedPattern(expected: string): RegExp {
  const lines = expected.replace(/\n+$/, "").split("\n");
  let source = "";
  for (const [i, line] of lines.entries()) {
    const last = i === lines.length - 1;
    if (line === "...") {
      source += last ? "[\\s\\S]*" : "(?:[^\\n]*\\n)*?";
      continue;
    }
    source += line.split("...").map(escapeRegExp).join("[^\\n]*?") + (last ? "" : "\\n");
  }
  return new RegExp(`^${source}$`);
}

/** A new HOME with the provider the examples use, on the fake server. */
function exampleWorld(llm: FakeLlm): { home: string; project: string } {
  const home = tempDir("pig-doc-home-");
  const agent = join(home, ".pig", "agent");
  const project = join(home, "project");
  mkdirSync(agent, { recursive: true });
  mkdirSync(project);
  const models = {
    providers: {
      local: {
        baseUrl: `${llm.url}/v1`,
        api: "openai-completions",
        apiKey: "none",
        models: [{ id: "qwen3-coder", contextWindow: 65536 }],
      },
    },
  };
  writeFileSync(join(agent, "models.json"), JSON.stringify(models, null, 2));
  return { home, project };
}

async function runExample(example: Example, llm: FakeLlm): Promise<{ code: number; output: string; stderr: string }> {
  const { home, project } = exampleWorld(llm);
  // `timeout` only bounds an example that hangs (its wait never ends): it stops the whole group.
  const proc = Bun.spawn(["timeout", "-k", "5", "45", "bash", "-c", `exec 2>&1\n${example.script}`], {
    cwd: project,
    env: {
      PATH: `${dirname(pigBinary())}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      LANG: "C.UTF-8",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [output, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output, stderr };
}

/** Each response of the script as often as it may be used, as the server's log names them. */
function expectedServes(script: Script): string[] {
  const responses = Array.isArray(script) ? script : (script.responses ?? []);
  return responses.flatMap((r, i) => Array.from({ length: r.repeat ?? 1 }, () => `script[${i}]`)).sort();
}

const markdown = readFileSync(DOC, "utf8");
const all = examples(markdown);
const servers: FakeLlm[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("the examples' convention", () => {
  test("... is any text within a line, a line of ... any number of lines, everything else is literal", () => {
    const pattern = expectedPattern("id: ...\n...\nexit 1 (a+b)\n");
    expect(pattern.test("id: 01a2\nexit 1 (a+b)")).toBe(true);
    expect(pattern.test("id: 01a2\none\ntwo\nexit 1 (a+b)")).toBe(true);
    expect(pattern.test("id: 01a2\nexit 1 (aab)")).toBe(false);
    expect(expectedPattern("a ... b").test("a x\ny b")).toBe(false);
  });

  test("a sh block needs its output after it, and shell examples have no other fence", () => {
    expect(() => examples("```sh\necho hi\n```\n")).toThrow("must be followed by a text block");
    expect(() => examples("```bash\necho hi\n```\n")).toThrow("must be a ```sh block");
    const [one] = examples('## Start\n<!-- model: [{"text": "hello"}] -->\n\n```sh\npig -p hi\n```\n\n```text\nhello\n```\n');
    expect(one).toEqual({ line: 4, title: "Start: pig -p hi", script: "pig -p hi", expected: "hello", model: [{ text: "hello" }] });
  });
});

describe("docs/cli-integration.md", () => {
  test("has examples, each followed by what it prints", () => {
    expect(all.length).toBeGreaterThan(10);
  });

  for (const example of all) {
    test(`line ${example.line}: ${example.title}`, async () => {
      const llm = await startFakeLlm(example.model !== undefined ? { script: example.model } : {});
      servers.push(llm);
      const { code, output, stderr } = await runExample(example, llm);
      const where = `${DOC}:${example.line}`;
      const pattern = expectedPattern(example.expected);
      const printed = output.replace(/\n+$/, "");
      // The diff of a mismatch is easier to read against the expected text than the pattern.
      if (!pattern.test(printed)) expect(`${where}\n${printed}`).toBe(`${where}\n${example.expected.replace(/\n+$/, "")}`);
      expect(printed).toMatch(pattern);
      expect({ where, code, stderr }).toEqual({ where, code: 0, stderr: "" });
      expect(output).not.toContain("\x1b");
      expect(output).not.toContain("\r");
      // The model was asked exactly for the answers the script gives: the example did what it shows.
      if (example.model !== undefined) {
        const served: string[] = llm.requests.map((r) => r.served.source).sort();
        expect(served).toEqual(expectedServes(example.model));
      }
    });
  }
});
