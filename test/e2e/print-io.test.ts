/**
 * Print mode's own input and output, through the built binary: piped stdin arriving in pieces,
 * a reader that goes away, the date in the system prompt, and the settings applied to every
 * request (blocked images, thinking budgets).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { pigBinary } from "../helpers/binary.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(text = "ok"): Promise<PigWorld> {
  const w = await createWorld({ llm: { script: [{ text, chunkSize: 65_536 }] } });
  worlds.push(w);
  return w;
}

function userText(w: PigWorld): string {
  const body = w.llm.requests[0]!.body as { messages: { role: string; content: { text: string }[] }[] };
  return body.messages.find((m) => m.role === "user")!.content[0]!.text;
}

function systemPrompt(w: PigWorld): string {
  const body = w.llm.requests[0]!.body as { messages: { role: string; content: string }[] };
  return body.messages.find((m) => m.role === "system")!.content;
}

describe("print mode input and output", () => {
  test("stdin written in pieces with pauses, larger than one read, is the prompt whole", async () => {
    const w = await world();
    const proc = Bun.spawn([pigBinary(), "-p", "summarise"], { cwd: w.cwd, env: w.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const first = "a".repeat(100_000);
    const second = `\n${"b".repeat(70_000)}\nend of input`;
    proc.stdin.write(first);
    await proc.stdin.flush();
    await Bun.sleep(150);
    proc.stdin.write(second);
    await proc.stdin.end();
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe("ok\n");
    expect(userText(w)).toBe(`${first}${second}\n\nsummarise`);
  });

  test("a reader that closes early does not turn into an error", async () => {
    const w = await world(`${"line of the answer\n".repeat(10_000)}done`);
    const proc = Bun.spawn(["sh", "-c", `("$0" -p go; echo "pig exited with $?" >&2) | head -c 10`, pigBinary()], { cwd: w.cwd, env: w.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(stdout).toBe("line of th");
    expect(stderr).toBe("pig exited with 0\n");
    expect(code).toBe(0);
  });

  test("the system prompt names no date: it stays the same from one day to the next, as Pi 0.87's", async () => {
    const w = await world();
    const result = await w.run(["-p", "hi"]);
    expect(result.code).toBe(0);
    const prompt = systemPrompt(w);
    expect(prompt).toContain("<cwd>");
    expect(prompt).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

describe("settings read for every request", () => {
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC", "base64");

  test("images.blockImages sends a note instead of the image", async () => {
    const w = await createWorld({ llm: { mode: "text" }, input: ["text", "image"], settings: { images: { blockImages: true } }, files: { "shot.png": PNG } });
    worlds.push(w);
    expect((await w.run(["-p", "@shot.png", "describe it"])).code).toBe(0);
    const body = JSON.stringify(w.llm.requests[0]!.body);
    expect(body).not.toContain("image_url");
    expect(body).toContain("Image reading is disabled.");
    // The session keeps the image; only what is sent changes.
    const again = await createWorld({ llm: { mode: "text" }, input: ["text", "image"], files: { "shot.png": PNG } });
    worlds.push(again);
    expect((await again.run(["-p", "@shot.png", "describe it"])).code).toBe(0);
    expect(JSON.stringify(again.llm.requests[0]!.body)).toContain("image_url");
  });

  test("thinkingBudgets set the Anthropic thinking budget for the level", async () => {
    const w = await createWorld({ api: "anthropic-messages", llm: { mode: "text" }, settings: { thinkingBudgets: { low: 3210 } } });
    worlds.push(w);
    expect((await w.run(["--model", "fake-reasoner", "--thinking", "low", "-p", "think a little"])).code).toBe(0);
    expect((w.llm.requests[0]!.body as { thinking?: { budget_tokens?: number } }).thinking?.budget_tokens).toBe(3210);
  });
});
