/**
 * The conversations real Pi had with the fake server, replayed through the built pig binary: the
 * requests pig sends and the events it prints must be Pi's, up to ids, paths, usage, timestamps
 * and the text in our own words (system prompt, tool descriptions). Pi 0.87.1's (01, 02) are
 * compared as they are; Pi 0.73.1's (11–13, scenarios 0.87.1 was not recorded in) without what
 * changed on purpose since (asPi073Wire, withoutToolSchemas).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { asPi073Wire, asPi087Wire, blankOwnWords, eventEssence, Normalizer, sortParallelEnds, withoutSearchResults, withoutToolSchemas } from "../helpers/normalize.ts";
import { createWorld, type PigWorld, type WorldOptions } from "../helpers/pig-env.ts";
import { FIXTURES, FIXTURES_087 } from "../helpers/tmp.ts";

const worlds: PigWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

const RED_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==", "base64");
const BLUE_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAD0lEQVR4nGNgYPgPQzAWADXeBfvilmCeAAAAAElFTkSuQmCC", "base64");

interface Replay {
  pi: "0.73.1" | "0.87.1";
  name: string;
  args: string[];
  world: WorldOptions;
  events: boolean;
  /** Pi's machine had no rg/fd when this was recorded: search results are not compared (withoutSearchResults). */
  noSearch?: true;
}

const REPLAYS: Replay[] = [
  { pi: "0.87.1", name: "01-basic-text", args: ["-p", "hello"], world: {}, events: false },
  {
    pi: "0.87.1",
    name: "02-builtin-tools",
    args: ["--tools", "read,write,edit,bash,grep,find,ls", "--mode", "json", "Create notes.txt, edit it, and explore the project."],
    world: {
      files: {
        "src/app.js": "export function add(a, b) {\n  return a + b;\n}\n// TODO: subtract\n",
        "src/util.js": "// TODO: helpers\nexport const id = (x) => x;\n",
      },
    },
    events: true,
    noSearch: true,
  },
  {
    pi: "0.73.1",
    name: "11-anthropic-messages",
    args: ["--model", "fake-reasoner", "--thinking", "high", "--mode", "json", "run a command"],
    world: { api: "anthropic-messages" },
    events: true,
  },
  {
    pi: "0.73.1",
    name: "12-openai-responses",
    args: ["--model", "fake-reasoner", "--thinking", "high", "--mode", "json", "run a command"],
    world: { api: "openai-responses" },
    events: true,
  },
  {
    pi: "0.73.1",
    name: "13-images",
    args: ["--mode", "json", "@red.png", "Describe this image, then read blue.png"],
    world: { input: ["text", "image"], files: { "red.png": RED_PNG, "blue.png": BLUE_PNG } },
    events: true,
  },
];

async function replay(r: Replay) {
  const dir = r.pi === "0.87.1" ? FIXTURES_087 : FIXTURES;
  const world = await createWorld({ ...r.world, llm: { script: join(dir, `${r.name}.script.json`) } });
  worlds.push(world);
  const result = await world.run(r.args);
  const fixtureCwd = r.pi === "0.87.1" ? `/home/dev/fx087/${r.name}/work` : `/home/dev/fx/${r.name}/work`;
  return { world, result, fixtureCwd, wire: join(dir, "wire") };
}

describe.each(REPLAYS)("replay $name (Pi $pi)", (r) => {
  test("sends the requests Pi sent and prints what Pi printed", async () => {
    const { world, result, fixtureCwd, wire } = await replay(r);
    const old = r.pi === "0.73.1";
    const request = (body: Record<string, unknown>) => (old ? withoutToolSchemas(body) : r.noSearch ? withoutSearchResults(body) : body);
    // Against 0.87.1's and 0.73.1's recordings, what pig writes as 1.x does is set aside (asPi087Wire).
    const events = (lines: Record<string, unknown>[]) => (old ? asPi073Wire(asPi087Wire(lines)) : r.noSearch ? withoutSearchResults(asPi087Wire(lines)) : asPi087Wire(lines));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const ours = new Normalizer([[world.cwd, fixtureCwd]]);
    const theirs = new Normalizer();
    const expected = readJsonl(join(wire, `${r.name}.requests.jsonl`));
    expect(world.llm.requests.map((q) => q.path)).toEqual(expected.map((q) => q.path as string));
    world.llm.requests.forEach((q, i) => {
      const want = theirs.value(request(blankOwnWords(expected[i]!.body as Record<string, unknown>)));
      const got = ours.value(request(blankOwnWords(q.body as Record<string, unknown>)));
      expect({ request: i, body: got }).toEqual({ request: i, body: want });
    });

    if (r.events) {
      const ourEvents = result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
      const piEvents = readJsonl(join(wire, `${r.name}.events.jsonl`));
      expect(ourEvents[0]).toMatchObject({ type: "session", version: 3, cwd: world.cwd });
      const essence = (events: Record<string, unknown>[], n: Normalizer) =>
        sortParallelEnds(
          events
            .map(eventEssence)
            .filter((e) => e !== undefined)
            .map((e) => n.value(e) as Record<string, unknown>),
        );
      // pig writes Pi 0.87.1's events; against 0.73.1's, the parts that changed on purpose since are undone.
      expect(essence(events(ourEvents), new Normalizer([[world.cwd, fixtureCwd]]))).toEqual(essence(r.noSearch ? withoutSearchResults(piEvents) : piEvents, new Normalizer()));
    } else {
      expect(result.stdout).toBe(readFileSync(join(wire, `${r.name}.stdout.txt`), "utf8"));
    }
  });
});
