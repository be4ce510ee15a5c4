/**
 * Pi's RPC transcripts replayed against `pig --mode rpc`: the same commands, sent the way the
 * fixture client sent them, must give the same responses and events (up to ids, timestamps,
 * paths, usage and streaming partials), and the same requests to the model. Pi 0.87.1's
 * transcripts are compared as they are; Pi 0.73.1's (04 and 09, which 0.87.1 was not recorded
 * in) without what changed on purpose since (asPi073Wire, withoutToolSchemas). Fixture 10 is
 * made by an extension, which pig does not run yet.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { asPi073Wire, asPi087Wire, blankOwnWords, eventEssence, joinBashUpdates, learnEntryIds, Normalizer, sortParallelEnds, sameOutputRoom, translateIds, withoutMessageCount, withoutToolSchemas, withPigErrorTexts } from "../helpers/normalize.ts";
import { COMPACTION_WORLDS, RETRY_SETTINGS } from "../helpers/fixture-worlds.ts";
import { createWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";
import { FIXTURES, FIXTURES_087 } from "../helpers/tmp.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});


interface Case {
  pi: "0.73.1" | "0.87.1";
  name: string;
  world: WorldOptions;
  /** Pi recovers from an overflow with a context edit, pig without one (recoveredAsPig). */
  recovery?: true;
}

const CASES: Case[] = [
  { pi: "0.87.1", name: "03-model-thinking-name", world: {} },
  { pi: "0.87.1", name: "05-bash-execution", world: {} },
  { pi: "0.87.1", name: "06-compaction-manual", world: COMPACTION_WORLDS["06-compaction-manual"] },
  { pi: "0.87.1", name: "07-compaction-auto", world: COMPACTION_WORLDS["07-compaction-auto"], recovery: true },
  { pi: "0.73.1", name: "04-errors-retry-abort", world: { settings: RETRY_SETTINGS } },
  { pi: "0.73.1", name: "09-fork-clone", world: {} },
];

function readJsonl(path: string): Line[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/**
 * Fields that depend on the machine, the clock or the request size (usage, and the token
 * estimates, which count the prompt and tool descriptions: our own words).
 */
const VOLATILE = new Set(["timestamp", "usage", "sessionFile", "sessionId", "baseUrl", "tokensBefore", "estimatedTokensAfter", "tokens", "cost", "contextUsage", "fullOutputPath"]);

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
  return joinBashUpdates(sortParallelEnds(kept));
}

const KEEPS_NOTHING = "<keeps nothing: pig's recovery / the hidden answer: Pi's>";

/**
 * The one place pig's overflow recovery shows on the wire (docs/decisions.md, "Overflow recovery
 * without context edits"): Pi appends a context_edit hiding the failed answer and keeps from that
 * answer; pig appends no edit and its compaction keeps nothing (names itself). Pi's side loses the
 * edit's `entry_appended`; on both sides the first kept entry of those compactions is named alike.
 */
function recoveredAsPig(theirs: Line[], ours: Line[], ourFile: string): { theirs: Line[]; ours: Line[] } {
  const hidden = new Set(theirs.flatMap((l) => (l.type === "entry_appended" && (l.entry as Line).type === "context_edit" ? [String((l.entry as Line).targetId)] : [])));
  const selfKept = new Set(
    readFileSync(ourFile, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Line).flatMap((e) => (e.type === "compaction" && e.firstKeptEntryId === e.id ? [String(e.id)] : [])),
  );
  const rename = (names: Set<string>) => (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename(names));
    if (!value || typeof value !== "object") return value;
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(names)(v)])) as Line;
    if (typeof out.firstKeptEntryId === "string" && names.has(out.firstKeptEntryId)) out.firstKeptEntryId = KEEPS_NOTHING;
    return out;
  };
  expect(hidden.size).toBe(1);
  expect(selfKept.size).toBe(1);
  return {
    theirs: rename(hidden)(theirs.filter((l) => !(l.type === "entry_appended" && (l.entry as Line).type === "context_edit"))) as Line[],
    ours: rename(selfKept)(ours) as Line[],
  };
}

function onlySessionFile(agentDir: string): string {
  const files = readdirSync(join(agentDir, "sessions"), { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  return join(files[0]!.parentPath, files[0]!.name);
}

async function replay(name: string, options: WorldOptions, dir: string) {
  const world = await createWorld({ ...options, llm: { script: join(dir, `${name}.script.json`) } });
  cleanup.push(() => world.close());
  const client = new RpcClient({ cwd: world.cwd, env: world.env });
  cleanup.push(async () => client.kill());
  const transcript = readJsonl(join(dir, "wire", `${name}.rpc.jsonl`));
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

describe.each(CASES)("rpc replay $name (Pi $pi)", ({ pi, name, world: options, recovery }) => {
  test("same responses and events as Pi, same requests to the model", async () => {
    const old = pi === "0.73.1";
    const dir = old ? FIXTURES : FIXTURES_087;
    const { world, client, expected } = await replay(name, options, dir);
    const fixtureCwd = old ? `/home/dev/fx/${name}/work` : `/home/dev/fx087/${name}/work`;
    const ours = new Normalizer([[world.cwd, fixtureCwd]], { entryIds: true });
    const theirs = new Normalizer([], { entryIds: true });
    // pig speaks Pi 0.87.1's protocol: against 0.73.1, the parts that changed on purpose since are undone.
    // And 1.x's additions (a prompt's `disposition`) are set aside against both.
    const ours087 = asPi087Wire(client.lines);
    let [ourLines, piLines] = old ? [withoutMessageCount(asPi073Wire(ours087)), withoutMessageCount(expected)] : [ours087, withPigErrorTexts(expected)];
    if (recovery) ({ ours: ourLines, theirs: piLines } = recoveredAsPig(piLines, ourLines, onlySessionFile(world.agentDir)));
    expect(essence(ourLines, ours)).toEqual(essence(piLines, theirs));

    const requests = readJsonl(join(dir, "wire", `${name}.requests.jsonl`));
    const body = (b: Line) => (old ? withoutToolSchemas(blankOwnWords(b)) : blankOwnWords(b));
    const servedBy = (served: Line) => String(served.label ?? served.source);
    expect(world.llm.requests.map((r) => servedBy(r.served as unknown as Line))).toEqual(requests.map((r) => servedBy(r.served as Line)));
    const ourBodies = new Normalizer([[world.cwd, fixtureCwd]]);
    const theirBodies = new Normalizer();
    world.llm.requests.forEach((request, i) => {
      const want = theirBodies.value(body(requests[i]!.body as Line)) as Line;
      const got = sameOutputRoom(ourBodies.value(body(request.body as Line)) as Line, want);
      expect({ request: i, body: got }).toEqual({ request: i, body: want });
    });
    expect(client.stderr).toEqual([]);
  });
});
