/**
 * Pi's RPC transcripts replayed against `pig --mode rpc`: the same commands, sent the way the
 * fixture client sent them, must give the same responses and events (up to ids, timestamps,
 * paths, usage and streaming partials), and the same requests to the model.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { asPi073Wire, blankOwnWords, eventEssence, learnEntryIds, Normalizer, sortParallelEnds, translateIds } from "../helpers/normalize.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";
import { FIXTURES } from "../helpers/tmp.ts";

const WIRE = join(FIXTURES, "wire");
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const RETRY = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 100, provider: { maxRetries: 0 } } };
const DATA_TXT = Array.from(
  { length: 30 },
  (_, i) => `data file paragraph ${i + 1}: the fixture text describes data file in enough words to make the token estimate grow.`,
).join("\n");

const CASES: { name: string; world: WorldOptions }[] = [
  { name: "03-model-thinking-name", world: {} },
  { name: "04-errors-retry-abort", world: { settings: RETRY } },
  { name: "05-bash-execution", world: {} },
  { name: "06-compaction-manual", world: { settings: { compaction: { keepRecentTokens: 300 } }, files: { "data.txt": `${DATA_TXT}\n` } } },
  { name: "07-compaction-auto", world: { contextWindow: 20000, settings: { compaction: { reserveTokens: 4000, keepRecentTokens: 50 }, ...RETRY } } },
  { name: "09-fork-clone", world: {} },
];

function readJsonl(path: string): Line[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Fields that depend on the machine, the clock or the request size (usage). */
const VOLATILE = new Set(["timestamp", "usage", "sessionFile", "sessionId", "baseUrl", "tokensBefore", "tokens", "cost", "contextUsage", "fullOutputPath"]);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!VOLATILE.has(k)) out[k] = strip(v);
    return out;
  }
  return value;
}

function essence(lines: Line[], normalizer: Normalizer): unknown[] {
  const kept = lines
    .map((line) => (line.type === "response" ? line : eventEssence(line)))
    .filter((l): l is Line => l !== undefined)
    .map((l) => normalizer.value(strip(l)) as Line);
  return sortParallelEnds(kept);
}

async function replay(name: string, options: WorldOptions) {
  const world = await createWorld({ ...options, llm: { script: join(FIXTURES, `${name}.script.json`) } });
  cleanup.push(() => world.close());
  const client = new RpcClient({ cwd: world.cwd, env: world.env });
  cleanup.push(async () => client.kill());
  const transcript = readJsonl(join(WIRE, `${name}.rpc.jsonl`));
  const sent = transcript.filter((l) => "__sent" in l).map((l) => l.__sent as Line);
  const sentAt = transcript.flatMap((l, i) => ("__sent" in l ? [i] : []));
  const ids = new Map<string, string>();
  for (const [index, command] of sent.entries()) {
    const from = client.lines.length;
    const abortNext = sent[index + 1]?.type === "abort";
    const response = await client.request(translateIds(command, ids));
    const theirs = transcript.find((l) => l.type === "response" && l.id === command.id);
    learnEntryIds(theirs, response, ids);
    if (command.type === "prompt" && response.success) {
      if (abortNext) {
        // A prompt the transcript aborts next: abort once it has streamed as much as Pi's had.
        const updates = transcript.slice(sentAt[index], sentAt[index + 1]).filter((l) => l.type === "message_update").length;
        const count = (to: number) => client.lines.slice(from, to + 1).filter((l) => l.type === "message_update").length;
        await client.waitFor((l, i) => l.type === "message_update" && count(i) === updates, 15_000, from);
      } else await client.waitIdle(from);
    }
    if (command.type === "compact") await client.waitIdle(from);
  }
  await client.waitIdle();
  const expected = transcript.filter((l) => !("__sent" in l));
  return { world, client, expected };
}

describe.each(CASES)("rpc replay $name", ({ name, world: options }) => {
  test("same responses and events as Pi, same requests to the model", async () => {
    const { world, client, expected } = await replay(name, options);
    const fixtureCwd = `/home/dev/fx/${name}/work`;
    const ours = new Normalizer([[world.cwd, fixtureCwd]], { entryIds: true });
    const theirs = new Normalizer([], { entryIds: true });
    // pig speaks Pi 0.87.1's protocol: the parts that changed on purpose since 0.73.1 are undone.
    expect(essence(asPi073Wire(client.lines), ours)).toEqual(essence(expected, theirs));

    const requests = readJsonl(join(WIRE, `${name}.requests.jsonl`));
    const servedBy = (served: Line) => String(served.label ?? served.source);
    expect(world.llm.requests.map((r) => servedBy(r.served as unknown as Line))).toEqual(requests.map((r) => servedBy(r.served as Line)));
    const ourBodies = new Normalizer([[world.cwd, fixtureCwd]]);
    const theirBodies = new Normalizer();
    world.llm.requests.forEach((request, i) => {
      const got = ourBodies.value(blankOwnWords(request.body as Line));
      const want = theirBodies.value(blankOwnWords(requests[i]!.body as Line));
      expect({ request: i, body: got }).toEqual({ request: i, body: want });
    });
    expect(client.stderr).toEqual([]);
  });
});
