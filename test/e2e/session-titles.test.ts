/**
 * A session is known by the user's own words, through the built binary: `pig sessions list` and
 * `pig sessions tree` leave out attached files, name a template by the command typed and an
 * image-only prompt "[image]".
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient } from "../helpers/rpc-client.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(options: WorldOptions = {}): Promise<PigWorld> {
  const w = await createWorld({ llm: { mode: "text" }, ...options });
  worlds.push(w);
  return w;
}

/** The `pig sessions list` lines that carry titles (the others are paths). */
async function listedTitles(w: PigWorld): Promise<string[]> {
  const list = await w.run(["sessions", "list"]);
  expect(list.code).toBe(0);
  return list.stdout
    .split("\n")
    .filter((line) => /^\d{4}-/.test(line))
    .map((line) => line.replace(/^.*\d+ msgs {2}/, ""));
}

function storedUserMessages(w: PigWorld): Record<string, unknown>[] {
  const root = join(w.agentDir, "sessions");
  const dir = join(root, readdirSync(root)[0]!);
  return readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; message?: Record<string, unknown> })
      .flatMap((entry) => (entry.type === "message" && entry.message?.role === "user" ? [entry.message] : [])),
  );
}

describe("session titles", () => {
  test("@file attachments are left out of the title, in the list and the tree", async () => {
    const w = await world({ files: { "notes.md": "# Notes\nline one\n</file>\nline two\n" } });
    const run = await w.run(["-p", "@notes.md", "summarise the notes"]);
    expect(run.code).toBe(0);
    // The model got the file, the title did not.
    expect(JSON.stringify(w.llm.requests[0]!.body)).toContain("line two");
    expect(await listedTitles(w)).toEqual(["summarise the notes"]);
    const list = await w.run(["sessions", "list", "--json"]);
    const [session] = JSON.parse(list.stdout) as { id: string; firstMessage: string }[];
    expect(session!.firstMessage).toBe("summarise the notes");
    const tree = await w.run(["sessions", "tree", session!.id]);
    expect(tree.stdout).toContain("user  summarise the notes");
    expect(tree.stdout).not.toContain("<file");
  });

  test("piped input is not the title: the words typed are, or [piped input] without any", async () => {
    const w = await world();
    expect((await w.run(["-p", "check this env file"], { stdin: "AWS_SECRET_ACCESS_KEY=abc123\n" })).code).toBe(0);
    // The model gets the piped text; the list never shows it.
    expect(JSON.stringify(w.llm.requests[0]!.body)).toContain("AWS_SECRET_ACCESS_KEY");
    expect((await w.run(["-p"], { stdin: "SECRET=1\n" })).code).toBe(0);
    const titles = await listedTitles(w);
    expect(titles.sort()).toEqual(["[piped input]", "check this env file"]);
    expect(titles.join("\n")).not.toContain("SECRET");
  });

  test("only a file attached: the title names the file", async () => {
    const w = await world({ files: { "src/main.ts": "console.log(1);\n" } });
    expect((await w.run(["-p", "@src/main.ts"])).code).toBe(0);
    expect(await listedTitles(w)).toEqual(["[file main.ts]"]);
  });

  test("a prompt template: the title is the command typed, the model gets the template", async () => {
    const w = await world({ agentFiles: { "prompts/review.md": "---\ndescription: Review a file\n---\nReview $1 for bugs and missing tests." } });
    expect((await w.run(["-p", "/review src/a.ts"])).code).toBe(0);
    const body = JSON.stringify(w.llm.requests[0]!.body);
    expect(body).toContain("Review src/a.ts for bugs and missing tests.");
    // What was typed is kept in the session, not sent.
    expect(body).not.toContain("typedText");
    expect(storedUserMessages(w)[0]).toMatchObject({ typedText: "/review src/a.ts" });
    expect(await listedTitles(w)).toEqual(["/review src/a.ts"]);
  });

  test("a message typed as it is sent has no typedText", async () => {
    const w = await world();
    expect((await w.run(["-p", "just words"])).code).toBe(0);
    expect(storedUserMessages(w)[0]!.typedText).toBeUndefined();
  });

  test("a prompt of only an image reads [image]", async () => {
    const w = await world({ input: ["text", "image"] });
    const client = new RpcClient({ cwd: w.cwd, env: w.env });
    try {
      const png = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==";
      const from = client.lines.length;
      const response = await client.request({ type: "prompt", message: "", images: [{ type: "image", data: png, mimeType: "image/png" }] });
      expect(response).toMatchObject({ success: true });
      await client.waitIdle(from);
    } finally {
      await client.close();
    }
    expect(await listedTitles(w)).toEqual(["[image]"]);
  });
});
