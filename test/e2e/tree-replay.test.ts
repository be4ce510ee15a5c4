/**
 * Pi 0.87.1's fixture 08 (branching, a branch summary, labels) replayed through pig's own RPC tree
 * commands. Pi drove it through a fixture extension's slash commands; pig has `navigate_tree`
 * and `set_label` for the same operations. The model must see the same requests, and the
 * session file must grow the same tree.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { blankOwnWords, Normalizer, sameOutputRoom } from "../helpers/normalize.ts";
import { createWorld, type PigWorld } from "../helpers/pig-env.ts";
import { RpcClient, type Line } from "../helpers/rpc-client.ts";
import { FIXTURES_087 as FIXTURES } from "../helpers/tmp.ts";

const NAME = "08-branching-tree";
const worlds: PigWorld[] = [];
const clients: RpcClient[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) c.kill();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

function readJsonl(path: string): Line[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Each entry as (type, role, parent's position, target's position, label), ids replaced by positions. */
function shape(entries: Line[]): unknown[] {
  const body = entries.filter((e) => e.type !== "session");
  const index = new Map(body.map((e, i) => [e.id as string, i]));
  return body.map((e) => [
    e.type,
    (e.message as Line | undefined)?.role ?? null,
    e.parentId === null || e.parentId === undefined ? null : index.get(e.parentId as string),
    e.targetId === undefined ? null : index.get(e.targetId as string),
    e.fromId === undefined ? null : index.get(e.fromId as string),
    e.label ?? null,
  ]);
}

test("fixture 08 through navigate_tree and set_label: Pi's requests and Pi's tree", async () => {
  const world = await createWorld({ llm: { script: join(FIXTURES, `${NAME}.script.json`) } });
  worlds.push(world);
  const client = new RpcClient({ cwd: world.cwd, env: world.env });
  clients.push(client);
  const entries = () => {
    const file = String((((client.lines.findLast((l) => l.command === "get_state") ?? {}) as Line).data as Line | undefined)?.sessionFile ?? "");
    return readJsonl(file);
  };
  const messageEntry = (role: string, nth: number) => {
    const all = entries().filter((e) => e.type === "message" && (e.message as Line).role === role);
    return (nth < 0 ? all.at(nth) : all[nth - 1])!.id as string;
  };

  for (const message of ["A", "B", "C"]) await client.promptAndWait(message);
  await client.request({ type: "get_state" });

  // "/fx-tree user:2 summarize": back to the second user message, summarising what is left.
  let from = client.lines.length;
  const summarised = await client.request({ type: "navigate_tree", targetId: messageEntry("user", 2), summarize: true }, 30_000);
  await client.waitIdle(from);
  expect(summarised).toMatchObject({ success: true, data: { cancelled: false, editorText: "B" } });
  await client.promptAndWait("B-alt");

  // "/fx-tree assistant:1": to the first answer, without a summary.
  from = client.lines.length;
  expect(await client.request({ type: "navigate_tree", targetId: messageEntry("assistant", 1) })).toMatchObject({ success: true, data: { cancelled: false } });
  await client.waitIdle(from);
  await client.promptAndWait("A-follow");

  // "/fx-label user:1 start-of-session", then a label set on the last answer and cleared again.
  expect(await client.request({ type: "set_label", entryId: messageEntry("user", 1), label: "start-of-session" })).toMatchObject({ success: true });
  expect(await client.request({ type: "set_label", entryId: messageEntry("assistant", -1), label: "to-be-cleared" })).toMatchObject({ success: true });
  expect(await client.request({ type: "set_label", entryId: messageEntry("assistant", -1) })).toMatchObject({ success: true });

  const requests = readJsonl(join(FIXTURES, "wire", `${NAME}.requests.jsonl`));
  const servedBy = (served: Line) => String(served.label ?? served.source);
  expect(world.llm.requests.map((r) => servedBy(r.served as unknown as Line))).toEqual(requests.map((r) => servedBy(r.served as Line)));
  const fixtureCwd = `/home/dev/fx087/${NAME}/work`;
  const ours = new Normalizer([[world.cwd, fixtureCwd]]);
  const theirs = new Normalizer();
  world.llm.requests.forEach((request, i) => {
    const want = theirs.value(blankOwnWords(requests[i]!.body as Line)) as Line;
    expect({ request: i, body: sameOutputRoom(ours.value(blankOwnWords(request.body as Line)) as Line, want) }).toEqual({ request: i, body: want });
  });

  expect(shape(entries())).toEqual(shape(readJsonl(join(FIXTURES, `${NAME}.jsonl`))));
  expect(client.stderr).toEqual([]);
}, 60_000);
