/** The HTML export: a self-contained page of the active branch, escaped throughout. */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { defaultExportName, exportSessionHtml as exportWith, writeSessionHtml as writeWith, type ExportHtmlOptions } from "../../src/export/html.ts";
import { renderMarkdown, renderOutput } from "../../src/export/html-text.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { SessionStore } from "../../src/session/store.ts";
import { presentBuiltinCall } from "../../src/tools/index.ts";
import { assistant, user } from "../helpers/sessions.ts";
import { FIXTURES, FIXTURES_087, tempDir } from "../helpers/tmp.ts";

const NOW = new Date("2027-01-02T03:04:05.000Z");

// The page as pig's commands export it: the built-in tools present their calls.
const withTools = (options: ExportHtmlOptions): ExportHtmlOptions => ({ presentCall: presentBuiltinCall, ...options });
const exportSessionHtml = (store: SessionStore, options: ExportHtmlOptions = {}) => exportWith(store, withTools(options));
const writeSessionHtml = (store: SessionStore, write: (chunk: string) => void, options: ExportHtmlOptions = {}) =>
  writeWith(store, write, withTools(options));

function fixture(name: string, dir = FIXTURES): string {
  const store = SessionStore.open(join(dir, name));
  try {
    return exportSessionHtml(store, { now: NOW });
  } finally {
    store.close();
  }
}

/** The conversation part of the page (between <main> and </main>). */
function mainOf(html: string): string {
  const start = html.indexOf("<main");
  const end = html.indexOf("</main>");
  expect(start).toBeGreaterThan(0);
  return html.slice(start, end);
}

function count(html: string, needle: string): number {
  return html.split(needle).length - 1;
}

function usage(input: number, output: number, cost: number) {
  return { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
}

function toolCallMessage(calls: { id: string; name: string; arguments: Record<string, unknown> }[], extra: Record<string, unknown> = {}) {
  return { ...assistant(""), content: calls.map((c) => ({ type: "toolCall", ...c })), stopReason: "toolUse", ...extra } as unknown as AgentMessage;
}

function toolResult(toolCallId: string, toolName: string, text: string, extra: Record<string, unknown> = {}) {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError: false, timestamp: Date.now(), ...extra } as unknown as AgentMessage;
}

function memoryStore(): SessionStore {
  return SessionStore.create({ cwd: "/work/proj", now: new Date("2026-11-30T07:00:00.000Z") });
}

describe("defaultExportName", () => {
  test("uses the session file's name without .jsonl", () => {
    expect(defaultExportName("/home/me/.pig/sessions/x/2026-11-30T07-12-04-360Z_0199.jsonl")).toBe("pig-session-2026-11-30T07-12-04-360Z_0199.html");
    expect(defaultExportName("relative/abc.jsonl")).toBe("pig-session-abc.html");
    expect(defaultExportName("plain")).toBe("pig-session-plain.html");
  });
});

describe("page structure", () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl"));

  test.each(files)("%s: one self-contained, balanced document", (name) => {
    const html = fixture(name);
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(html).toMatch(/<style>[^]*prefers-color-scheme: dark/);
    // Nothing is loaded from elsewhere.
    expect(html).not.toMatch(/<link\b|\bsrc="(?!data:)|\bhref="(?!#)/);
    for (const tag of ["section", "details", "div", "pre", "main", "ul", "li"]) {
      expect(count(html, `<${tag}>`) + count(html, `<${tag} `)).toBe(count(html, `</${tag}>`));
    }
    expect(count(html, "<script")).toBe(1);
  });

  test("streaming in chunks gives the same page", () => {
    const store = SessionStore.open(join(FIXTURES, "02-builtin-tools.jsonl"));
    const chunks: string[] = [];
    writeSessionHtml(store, (c) => chunks.push(c), { now: NOW });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(exportSessionHtml(store, { now: NOW }));
    store.close();
  });
});

describe("fixtures", () => {
  test("header: first prompt as title, id, cwd, created, model, tokens", () => {
    const html = fixture("02-builtin-tools.jsonl");
    expect(html).toContain("<title>Create notes.txt, edit it, and explore the project.</title>");
    expect(html).toContain("01a22b4b-e707-7580-bb6a-283d57cdbdc7");
    expect(html).toContain("/home/dev/fx/02-builtin-tools/work");
    expect(html).toContain("2026-11-30 07:12:04 UTC");
    expect(html).toContain("<dt>Model</dt><dd>fake/fake-model</dd>");
    // 2015 + 2080 + 2159 + 2234 + 2294 + 2373 + 2479 + 2613 + 2709
    expect(html).toContain("<dd>20,956 ");
    expect(html).toContain("<dt>Cost</dt><dd>$0.00</dd>");
  });

  test("every built-in tool: the call's key argument and its result, nested under the call", () => {
    const page = mainOf(fixture("02-builtin-tools.jsonl"));
    for (const tool of ["write", "read", "edit", "bash", "grep", "find", "ls"]) {
      expect(page).toContain(`<span class="tool-name">${tool}</span>`);
    }
    expect(page).toContain('<pre class="cmd">$ echo hi &amp;&amp; wc -l notes.txt</pre>');
    expect(page).toContain('<span class="tool-arg">notes.txt</span>');
    expect(page).toContain('<span class="tool-arg">missing.txt</span>');
    expect(page).toContain('<span class="tool-arg">TODO</span><span class="tool-extra">in src</span>');
    // Every result sits in its call's box; none is left standalone.
    expect(count(page, 'class="tool-result')).toBe(10);
    expect(page).not.toContain("tool-only");
    expect(page).not.toContain(" pending");
    // The write's content is shown with the call.
    expect(page).toMatch(/<pre class="out file">alpha\nbeta\ngamma<\/pre>/);
  });

  test("edit diffs are coloured and errors are marked", () => {
    const page = mainOf(fixture("02-builtin-tools.jsonl"));
    expect(page).toContain('<span class="d-del">-2 beta</span>');
    expect(page).toContain('<span class="d-add">+2 BETA</span>');
    expect(page).toContain('<span class="d-ctx"> 1 alpha</span>');
    expect(count(page, 'class="tool-result error"')).toBe(3);
    expect(page).toContain("Could not find the exact text in notes.txt.");
    // The failed edit shows what it tried to replace.
    expect(page).toContain('<span class="d-del">-does-not-exist</span>');
  });

  test("bash executions: !command, output, exit code, truncation", () => {
    const page = mainOf(fixture("05-bash-execution.jsonl"));
    expect(count(page, 'class="entry bash"')).toBe(3);
    expect(page).toContain('<pre class="cmd">!echo from-rpc-bash &amp;&amp; pwd</pre>');
    expect(page).toContain("from-rpc-bash\n/home/dev/fx/05-bash-execution/work</pre>");
    expect(page).toContain('<div class="exit error">exit code 3</div>');
    expect(page).toMatch(/<div class="exit">exit code 0 · output truncated · full output: [^<]+<\/div>/);
    // The long output shows its first lines and folds the rest.
    expect(page).toMatch(/<pre class="out head">1002\n[^<]*<\/pre><details class="more"><summary>1,989 more lines<\/summary>/);
  });

  test("compactions are notices, and the messages before them stay readable", () => {
    const page = mainOf(fixture("06-compaction-manual.jsonl"));
    expect(count(page, 'class="entry notice compaction"')).toBe(2);
    expect(page).toContain("3,101 tokens before");
    expect(page).toContain("Fixture compaction summary #1");
    expect(page).toContain("Explain module A");
    expect(page).toContain("Answer after the second compaction.");
  });

  test("only the active branch is shown; the others are listed at the end with their first prompt", () => {
    const html = fixture("08-branching-tree.jsonl");
    const page = mainOf(html);
    expect(page).toContain(">A-follow<");
    expect(page).toContain("Answer A-follow on the third branch.");
    expect(page).not.toContain("B-alt");
    expect(page).not.toContain(">B<");
    expect(page).not.toContain("branch-one");
    const overview = html.slice(html.indexOf('<section class="tree">'));
    expect(overview).toContain("Active branch");
    expect(overview).toContain("“B”");
    expect(overview).toContain("“B-alt”");
    expect(overview).toContain('href="#e-8e2384d1"');
    expect(page).toContain('id="e-8e2384d1"');
    expect(exportSessionHtml(SessionStore.open(join(FIXTURES, "08-branching-tree.jsonl")), { tree: false })).not.toContain('class="tree"');
  });

  test("labels next to their entries; cleared labels are gone", () => {
    const page = mainOf(fixture("08-branching-tree.jsonl"));
    expect(page).toMatch(/id="e-b964e182"><div class="entry-head"><span class="role">User<\/span><span class="label"[^>]*>start-of-session<\/span>/);
    expect(page).not.toContain("to-be-cleared");
  });

  test("branch summaries are their own notice", () => {
    const store = SessionStore.open(join(FIXTURES, "08-branching-tree.jsonl"));
    store.branch("e9cc9487");
    const page = mainOf(exportSessionHtml(store));
    expect(page).toContain('class="entry notice branch-summary"');
    expect(page).toContain("the abandoned branch ran <code>echo branch-one</code>");
    expect(page).toContain("B-alt");
    store.close();
  });

  test("images are inline data: URLs", () => {
    const page = mainOf(fixture("13-images.jsonl"));
    expect(count(page, '<img class="image" alt="image/png" src="data:image/png;base64,iVBORw0KGgo')).toBe(2);
    expect(page).toContain("&lt;file name=&quot;/home/dev/fx/13-images/work/red.png&quot;&gt;");
  });

  test("errors and aborted answers are marked", () => {
    const page = mainOf(fixture("04-errors-retry-abort.jsonl"));
    expect(count(page, 'class="entry assistant failed"')).toBe(5);
    expect(page).toContain("<strong>Error:</strong> 429 Rate limit reached (fake)");
    expect(page).toContain('class="entry assistant aborted"');
    expect(page).toContain("<strong>Aborted</strong>");
    expect(page).toContain("<p>partial then boom</p>");
  });

  test("thinking is folded and dimmed; models and the session name are in the header", () => {
    const html = fixture("03-model-thinking-name.jsonl");
    expect(html).toContain("<title>Model &amp; thinking fixture</title>");
    expect(html).toContain("<dt>Models</dt><dd>fake/fake-model, fake/fake-reasoner</dd>");
    const page = mainOf(html);
    expect(page).toContain('<details class="thinking"><summary>Thinking</summary><div class="plain">The user wants me to think.');
    expect(page).toContain("Model: <strong>fake/fake-reasoner</strong>");
    expect(page).toContain("Thinking level: <strong>high</strong>");
  });

  test("custom messages show when meant to be displayed", () => {
    const page = mainOf(fixture("10-extension-entries.jsonl"));
    expect(page).toContain('<span class="role">fx-note</span>');
    expect(page).toContain("visible note from the extension");
    expect(page).not.toContain("hidden context from the extension");
    expect(page).not.toContain("saved-state");
    expect(page).toMatch(/<span class="label"[^>]*>important<\/span>/);
  });

  test("a system message (Pi 0.87) is a notice naming the tools, with the prompt folded", () => {
    const page = mainOf(fixture("02-builtin-tools.jsonl", FIXTURES_087));
    expect(page).toContain('<span class="role">Prompt and tools</span> <span class="tool-extra">tools +read +write +edit +bash +grep +find +ls</span>');
    expect(page).toMatch(/<details><summary>Prompt<\/summary><div class="plain">You are an expert coding assistant operating inside pi[^<]*&lt;tools&gt;/);
    expect(page).not.toContain("role system (not shown)");
  });
});

describe("escaping", () => {
  test("nothing from the session reaches the page as markup", () => {
    const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const store = SessionStore.create({ cwd: `/tmp/${evil}`, dir: tempDir() });
    store.appendModelChange(`prov${evil}`, `model${evil}`);
    store.appendSessionInfo(`name ${evil}`);
    store.appendMessage(user(`user ${evil}`) as AgentMessage);
    const answerId = store.appendMessage({
      ...assistant(`# Heading ${evil}\n\n- item ${evil}\n\n\`\`\`${evil}\n${evil}\n\`\`\`\n[link ${evil}](javascript:${evil})`),
      provider: `p${evil}`,
      model: `m${evil}`,
    } as unknown as AgentMessage);
    store.appendLabelChange(answerId, `label ${evil}`);
    store.appendMessage({
      ...toolCallMessage([
        { id: "c1", name: "bash", arguments: { command: `echo ${evil}` } },
        { id: "c2", name: "read", arguments: { path: `/p/${evil}` } },
        { id: "c3", name: `tool${evil}`, arguments: { [`k${evil}`]: evil } },
        { id: "c4", name: "edit", arguments: { path: `/p/${evil}`, edits: [{ oldText: evil, newText: "x" }] } },
      ]),
      content: [
        { type: "thinking", thinking: `thinking ${evil}` },
        { type: "toolCall", id: "c1", name: "bash", arguments: { command: `echo ${evil}` } },
        { type: "toolCall", id: "c2", name: "read", arguments: { path: `/p/${evil}` } },
        { type: "toolCall", id: "c3", name: `tool${evil}`, arguments: { [`k${evil}`]: evil } },
        { type: "toolCall", id: "c4", name: "edit", arguments: { path: `/p/${evil}`, edits: [{ oldText: evil, newText: "x" }] } },
      ],
    } as unknown as AgentMessage);
    store.appendMessage(toolResult("c1", "bash", `out ${evil}`));
    store.appendMessage(toolResult("c2", "read", `file ${evil}`, { content: [{ type: "text", text: evil }, { type: "image", mimeType: `image/png" onload="alert(1)`, data: "AAAA" }] }));
    store.appendMessage(toolResult("c3", `tool${evil}`, evil, { isError: true }));
    store.appendMessage(toolResult("c4", "edit", "ok", { details: { diff: `-1 ${evil}\n+1 x` } }));
    store.appendMessage({ role: "bashExecution", command: evil, output: evil, exitCode: 1, cancelled: false, truncated: false, fullOutputPath: `/tmp/${evil}`, timestamp: Date.now() } as AgentMessage);
    store.appendCustomMessageEntry(`type${evil}`, `custom ${evil}`, true);
    store.appendCompaction(`summary ${evil}`, answerId, 100);
    store.appendMessage({ ...assistant("fine"), stopReason: "error", errorMessage: `error ${evil}` } as unknown as AgentMessage);
    const html = exportSessionHtml(store, { now: NOW });
    const titled = exportSessionHtml(store, { title: `title ${evil}` });
    store.close();

    for (const page of [html, titled]) {
      expect(count(page, "<script")).toBe(1); // the page's own
      expect(page).not.toContain("<img src=x");
      expect(page).not.toContain("onerror=alert(1)>");
      expect(page).not.toContain('onload="alert');
      expect(page).not.toContain("javascript:<");
      expect(page).not.toMatch(/<a\s[^>]*href="(?!#)/);
    }
    expect(titled).toContain("<title>title &lt;script&gt;");
    const escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;";
    // name, cwd, model (header + change + usage), user, heading, list, fence label, fence body, link,
    // label, thinking, bash command, read path, tool name, argument, edit path, edit text, results,
    // diff, bash execution, custom type and text, compaction summary, error.
    expect(count(html, escaped)).toBeGreaterThan(25);
    expect(html).toContain(`<span class="label" title="label">label ${escaped}</span>`);
    // A fence's language is its first word.
    expect(html).toContain(`<div class="code-lang">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img</div>`);
    expect(html).toContain(`<div class="image-ref">[image (image/png&quot; onload=&quot;alert(1))]</div>`);
  });

  test("Markdown renders safely: structure yes, raw HTML and links no", () => {
    const html = renderMarkdown(
      [
        "## Plan <b>bold?</b>",
        "",
        "1. first **strong** and `a<b>`",
        "2. second",
        "   - nested _em_",
        "",
        "```ts",
        "const x = a < b && c;",
        "```",
        "",
        "See [docs](https://example.com/a_b) and <https://x.y/?q=1&r=2>.",
        "",
        "| h1 | h2 |",
        "|----|---:|",
        "| <i>x</i> | 2 |",
      ].join("\n"),
    );
    expect(html).toContain('<h4 class="md-h">Plan &lt;b&gt;bold?&lt;/b&gt;</h4>');
    expect(html).toContain("<ol><li>first <strong>strong</strong> and <code>a&lt;b&gt;</code></li><li>second<ul><li>nested <em>em</em></li></ul></li></ol>");
    expect(html).toContain('<div class="code"><div class="code-lang">ts</div><pre><code>const x = a &lt; b &amp;&amp; c;</code></pre></div>');
    expect(html).toContain('<span class="link">docs</span> <span class="url">(https://example.com/a_b)</span>');
    expect(html).toContain('<span class="url">https://x.y/?q=1&amp;r=2</span>');
    expect(html).toContain('<td>&lt;i&gt;x&lt;/i&gt;</td><td class="al-r">2</td>');
    expect(html).not.toContain("<a ");
    expect(renderMarkdown("snake_case_name and 2 * 3 * 4")).toBe("<p>snake_case_name and 2 * 3 * 4</p>");
  });
});

describe("long content", () => {
  test("tool outputs above 20,000 characters are cut with a note; long ones fold", () => {
    const store = memoryStore();
    store.appendMessage(user("dump") as AgentMessage);
    store.appendMessage(toolCallMessage([{ id: "big", name: "bash", arguments: { command: "cat big" } }]));
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(20)}`);
    store.appendMessage(toolResult("big", "bash", `${lines.join("\n")}\nTHE-END`));
    const page = mainOf(exportSessionHtml(store));
    expect(page).toContain("line 0 ");
    expect(page).not.toContain("THE-END");
    expect(page).not.toContain("line 4999 ");
    expect(page).toMatch(/Output truncated: [\d,]+ of [\d,]+ characters shown\./);
    expect(page).toContain('<details class="more"><summary>');
  });

  test("renderOutput keeps short outputs whole and folds long single lines", () => {
    expect(renderOutput("a\nb\n")).toBe('<pre class="out">a\nb</pre>');
    expect(renderOutput("")).toContain("(no output)");
    const folded = renderOutput("y".repeat(10_000));
    expect(folded).toContain('<pre class="out head">');
    expect(folded).toContain("<details");
    expect(folded).not.toContain("trunc-note");
  });

  test("terminal escapes are removed from outputs", () => {
    expect(renderOutput("\x1b[31mred\x1b[0m\r\nnext")).toBe('<pre class="out">red\nnext</pre>');
  });

  test("a large session exports every entry, folds every long output, and does not blow up", () => {
    const store = SessionStore.create({ cwd: "/work/proj", dir: tempDir() });
    const output = "o".repeat(30_000);
    for (let i = 0; i < 400; i++) {
      store.appendMessage(user(`question ${i}`) as AgentMessage);
      store.appendMessage(toolCallMessage([{ id: `c${i}`, name: "read", arguments: { path: `f${i}.txt` } }]));
      store.appendMessage(toolResult(`c${i}`, "read", output));
      store.appendMessage({ ...assistant(`answer **${i}**`), usage: usage(100, 10, 0.01) } as unknown as AgentMessage);
    }
    const path = store.path!;
    store.close();
    const reopened = SessionStore.open(path);
    const started = performance.now();
    const html = exportSessionHtml(reopened);
    // Only a runaway (work growing with the square of the session) is caught here, not slowness:
    // this takes well under a second on a quiet machine.
    expect(performance.now() - started).toBeLessThan(60_000);
    reopened.close();
    expect(count(html, 'class="entry user"')).toBe(400);
    expect(count(html, "Output truncated")).toBe(400);
    expect(html).toContain("<strong>399</strong>");
    expect(html).toContain("<dt>Cost</dt><dd>$4.00</dd>");
    expect(html.length).toBeLessThan(400 * 25_000);
  });
});

describe("header totals", () => {
  test("tokens and cost are summed over assistant messages, models listed once each", () => {
    const store = memoryStore();
    store.appendMessage(user("q") as AgentMessage);
    store.appendMessage({ ...assistant("a1"), usage: usage(1000, 200, 0.0125) } as unknown as AgentMessage);
    store.appendMessage(user("q2") as AgentMessage);
    store.appendMessage({ ...assistant("a2"), provider: "other", model: "big", usage: usage(3000, 300, 0.5) } as unknown as AgentMessage);
    store.appendMessage({ ...assistant("a3"), usage: usage(10, 1, 0) } as unknown as AgentMessage);
    const html = exportSessionHtml(store);
    expect(html).toContain("<dt>Models</dt><dd>fake/fake-model, other/big</dd>");
    expect(html).toContain("<dd>4,511 ");
    expect(html).toContain("4,010 input · 501 output");
    expect(html).toContain("<dt>Cost</dt><dd>$0.5125</dd>");
    expect(html).toContain("<dt>This branch</dt><dd>5 messages, 2 from the user</dd>");
  });

  test("an empty session still makes a page", () => {
    const html = exportSessionHtml(memoryStore(), { title: "Nothing yet" });
    expect(html).toContain("<h1>Nothing yet</h1>");
    expect(html).toContain("This branch has no entries.");
  });

  test("a tool call with no recorded result is marked", () => {
    const store = memoryStore();
    store.appendMessage(user("go") as AgentMessage);
    store.appendMessage(toolCallMessage([{ id: "lost", name: "ls", arguments: { path: "src" } }]));
    const page = mainOf(exportSessionHtml(store));
    expect(page).toContain('<div class="tool pending">');
  });

  test("a result whose call is not on the branch is shown on its own", () => {
    const store = memoryStore();
    store.appendMessage(user("go") as AgentMessage);
    store.appendMessage(toolResult("nowhere", "grep", "stray"));
    const page = mainOf(exportSessionHtml(store));
    expect(page).toContain('class="entry tool-only"');
    expect(page).toContain("stray");
  });
});

describe("nested calls", () => {
  test("a tool result lists the calls its tool made, with arguments, time and errors, escaped", () => {
    const store = memoryStore();
    store.appendMessage(user("go") as AgentMessage);
    store.appendMessage(toolCallMessage([{ id: "c1", name: "script", arguments: {} }]));
    store.appendMessage(
      toolResult("c1", "script", "ran", {
        nestedCalls: {
          calls: [
            { id: "c1/1", name: "read", arguments: { path: "<b>a.ts</b>" }, status: "ok", durationMs: 3 },
            { id: "c1/2", name: "bash", argumentsBytes: 9000, status: "error", durationMs: 1, error: "boom\nsecond line" },
          ],
          complete: false,
        },
      }),
    );
    const page = mainOf(exportSessionHtml(store, { now: NOW }));
    expect(page).toContain("Nested calls: 2 (incomplete record)");
    expect(page).toContain("✓ read {&quot;path&quot;:&quot;&lt;b&gt;a.ts&lt;/b&gt;&quot;} 3ms");
    expect(page).toContain("✗ bash [arguments left out, 9000 bytes] 1ms\n    boom\n    second line");
    expect(page).not.toContain("<b>a.ts</b>");
  });
});
