// Generates realistic, reproducible Pi v3 session files (JSONL) for the benchmarks.
//
//   bun scripts/bench/gen-sessions.ts --out big.jsonl [--mb 50] [--entries 20000] [--seed 1]
//   bun scripts/bench/gen-sessions.ts --agent-dir DIR [--sessions 2000] [--projects 20] [--big 3] [--seed 1]
//
// Object key order matters: the files mimic what Pi writes byte for byte in shape, so a reader that
// round-trips entries (or compares output with Pi) sees the same layout as in real sessions.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

// ---------------------------------------------------------------------------------------------
// Seeded PRNG (mulberry32): tiny and fast, and identical on every runtime, unlike Math.random.

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
  chars(n: number, alphabet: string): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}

const HEX = "0123456789abcdef";
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// ---------------------------------------------------------------------------------------------
// Filler text. Lines are drawn from a pool so 50 MB is cheap to produce; the pool mixes code,
// logs, quotes, tabs and non-ASCII so JSON escaping and UTF-8 decoding are exercised.

const WORDS = "the session file parser entry message tool result assistant user token cache build index tree branch leaf compaction summary model provider thinking stream request response buffer config option value error warning path directory module export import function return await async const let type interface".split(" ");
const IDENTS = "sessionManager entries parentId leafId byId loadEntries buildContext readFile parseLine toolCall usage config options result buffer offset cursor".split(" ");
const UNICODE = ["café", "naïve", "→", "—", "✓", "日本語", "Ünïcödé", "🚀", "π≈3.14"];

function makePool(rng: Rng): string[] {
  const w = (): string => rng.pick(WORDS);
  const id = (): string => rng.pick(IDENTS);
  const templates: Array<() => string> = [
    () => `${"  ".repeat(rng.int(0, 4))}const ${id()} = await ${id()}(${id()}, "${w()}-${w()}");`,
    () => `${"  ".repeat(rng.int(0, 3))}if (${id()} === null || ${id()}.length > ${rng.int(1, 9999)}) return ${id()};`,
    () => `export function ${id()}(${id()}: string, ${id()}?: number): Promise<${rng.pick(["void", "string[]", "Entry"])}> {`,
    () => `import { ${id()}, ${id()} } from "./${w()}/${w()}.js";`,
    () => `// ${w()} ${w()} ${w()} ${w()} ${w()} ${rng.pick(UNICODE)}`,
    () => `\t${w()}\t${rng.int(0, 99999)}\t${w()}.ts\t${rng.pick(["ok", "FAIL", "skip"])}`,
    () => `${new Date(Date.UTC(2026, 0, 1) + rng.int(0, 1e9)).toISOString()} [${rng.pick(["INFO", "WARN", "DEBUG"])}] ${w()} ${w()} "${w()}" \\ ${w()}`,
    () => `${rng.int(1, 2000)}: ${w()} ${w()} ${w()} ${rng.pick(UNICODE)} ${w()}`,
    () => "}",
    () => "",
  ];
  return Array.from({ length: 4096 }, () => rng.pick(templates)());
}

function text(rng: Rng, pool: readonly string[], approxBytes: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < approxBytes) {
    const line = rng.pick(pool);
    parts.push(line);
    n += line.length + 1;
  }
  return parts.join("\n");
}

function prose(rng: Rng, approxBytes: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < approxBytes) {
    const word = rng.next() < 0.01 ? rng.pick(UNICODE) : rng.pick(WORDS);
    parts.push(word);
    n += word.length + 1;
  }
  return `${parts.join(" ")}.`;
}

// ---------------------------------------------------------------------------------------------
// Session generation

export interface GenOptions {
  /** Approximate file size in bytes (usually within 1 %). */
  targetBytes: number;
  /** Entries after the header line: model_change + thinking_level_change + messages. Minimum 4. */
  entries: number;
  seed: number;
  cwd?: string;
}

export interface GenResult {
  path: string;
  bytes: number;
  lines: number;
  sessionId: string;
}

type Kind = { role: "user" } | { role: "assistant"; calls: number } | { role: "toolResult" };

/** Turn structure: user prompt, a few tool rounds (1–3 parallel calls each), final answer. */
function plan(rng: Rng, count: number): Kind[] {
  const out: Kind[] = [];
  while (out.length < count) {
    out.push({ role: "user" });
    const rounds = rng.int(0, 6);
    for (let r = 0; r < rounds; r++) {
      const calls = rng.next() < 0.8 ? 1 : rng.int(2, 3);
      out.push({ role: "assistant", calls });
      for (let c = 0; c < calls; c++) out.push({ role: "toolResult" });
    }
    out.push({ role: "assistant", calls: 0 });
  }
  return out.slice(0, count);
}

/** Share of the filler budget per entry: tool output dominates real sessions, with a heavy tail. */
function weight(rng: Rng, k: Kind): number {
  if (k.role === "user") return 0.05 + rng.next() * 0.4;
  if (k.role === "assistant") return 0.2 + rng.next() * 1.2;
  return rng.next() < 0.05 ? 20 + rng.next() * 30 : 1 + rng.next() * 8;
}

function uuidV7(rng: Rng, ms: number): string {
  const h = ms.toString(16).padStart(12, "0") + "7" + rng.chars(3, HEX) + rng.pick(["8", "9", "a", "b"]) + rng.chars(15, HEX);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Pi's on-disk name: `<ISO timestamp with : and . as ->_<session id>.jsonl`. */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** Pi's per-cwd session directory name (getDefaultSessionDir). */
export function sessionDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}


// Per-token USD prices; float products like 0.0123450000001 are deliberate, real files have them.
const PRICE = { input: 3e-6, output: 15e-6, cacheRead: 0.3e-6, cacheWrite: 3.75e-6 };
const MODEL = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };
const TOOLS = ["read", "bash", "edit", "grep"] as const;
type ToolName = (typeof TOOLS)[number];

function toolCall(rng: Rng, pool: readonly string[], name: ToolName): { args: Record<string, unknown>; details: Record<string, unknown> } {
  const file = `src/${rng.pick(WORDS)}/${rng.pick(IDENTS)}.ts`;
  switch (name) {
    case "read":
      return { args: { path: file }, details: {} };
    case "bash":
      return { args: { command: `cd /bench/proj && npm test -- ${rng.pick(WORDS)} 2>&1 | tail -50`, timeout: 120 }, details: {} };
    case "edit": {
      const oldText = text(rng, pool, rng.int(40, 400));
      const newText = text(rng, pool, rng.int(40, 400));
      return { args: { path: file, oldText, newText }, details: { diff: `-${oldText.split("\n")[0]}\n+${newText.split("\n")[0]}`, firstChangedLine: rng.int(1, 900) } };
    }
    case "grep":
      return { args: { pattern: rng.pick(IDENTS), path: "src", ignoreCase: rng.next() < 0.5 }, details: {} };
  }
}

/** Builds the session as JSONL text; pure function of opts. */
export function generateSession(opts: GenOptions): { text: string; sessionId: string; timestamp: string } {
  const rng = new Rng(opts.seed);
  const pool = makePool(rng);
  let t = Date.UTC(2026, 0, 1) + rng.int(0, 300 * 86400) * 1000;
  const timestamp = new Date(t).toISOString();
  const sessionId = uuidV7(rng, t);

  const lines: string[] = [];
  let bytes = 0;
  const emit = (o: object): void => {
    const line = JSON.stringify(o);
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  };
  const ids = new Set<string>();
  let parentId: string | null = null;
  const base = (type: string): { type: string; id: string; parentId: string | null; timestamp: string } => {
    let id = rng.chars(8, HEX);
    while (ids.has(id)) id = rng.chars(8, HEX);
    ids.add(id);
    t += rng.int(50, 20_000);
    const e = { type, id, parentId, timestamp: new Date(t).toISOString() };
    parentId = id;
    return e;
  };
  // Pi stamps the message slightly before the entry that persists it.
  const msgTs = (): number => t - rng.int(1, 60);

  emit({ type: "session", version: 3, id: sessionId, timestamp, cwd: opts.cwd ?? "/bench/proj" });
  emit({ ...base("model_change"), provider: MODEL.provider, modelId: MODEL.model });
  emit({ ...base("thinking_level_change"), thinkingLevel: "medium" });

  const kinds = plan(rng, Math.max(0, opts.entries - 2));
  const weights = kinds.map((k) => weight(rng, k));
  const suffix = new Float64Array(kinds.length + 1);
  for (let i = kinds.length - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] ?? 0) + (weights[i] ?? 0);

  // Filler is spread by weight over what the remaining entries' fixed overhead leaves of the target;
  // re-estimating after each entry keeps the final size close to targetBytes.
  let overhead = 0;
  let context = rng.int(2_000, 8_000);
  const pending: Array<{ id: string; name: ToolName; details: Record<string, unknown> }> = [];
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i] as Kind;
    const avgOverhead = i === 0 ? 700 : overhead / i;
    const budget = Math.max(0, opts.targetBytes - bytes - avgOverhead * (kinds.length - i));
    const filler = Math.round((budget * (weights[i] ?? 0)) / (suffix[i] ?? 1));
    const before = bytes;
    if (kind.role === "user") {
      emit({ ...base("message"), message: { role: "user", content: [{ type: "text", text: prose(rng, Math.max(20, filler)) }], timestamp: msgTs() } });
    } else if (kind.role === "assistant") {
      const content: object[] = [];
      if (rng.next() < 0.5) content.push({ type: "thinking", thinking: prose(rng, Math.max(20, filler * 0.3)), thinkingSignature: rng.chars(rng.int(200, 600), B62) });
      if (kind.calls === 0 || rng.next() < 0.7) content.push({ type: "text", text: prose(rng, Math.max(10, filler * 0.7)) });
      for (let c = 0; c < kind.calls; c++) {
        const name = rng.pick(TOOLS);
        const id = `toolu_01${rng.chars(22, B62)}`;
        const { args, details } = toolCall(rng, pool, name);
        content.push({ type: "toolCall", id, name, arguments: args });
        pending.push({ id, name, details });
      }
      const cacheRead = rng.int(0, context);
      const input = context - cacheRead;
      const output = Math.max(1, Math.round(filler / 4)) + kind.calls * 40;
      const cacheWrite = rng.int(0, 3_000);
      const cost = { input: input * PRICE.input, output: output * PRICE.output, cacheRead: cacheRead * PRICE.cacheRead, cacheWrite: cacheWrite * PRICE.cacheWrite, total: 0 };
      cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
      const usage = { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
      const entry = base("message");
      emit({ ...entry, message: { role: "assistant", content, ...MODEL, usage, stopReason: kind.calls > 0 ? "toolUse" : "stop", timestamp: msgTs(), responseId: `msg_01${rng.chars(22, B62)}` } });
      context += output + rng.int(100, 2_000);
    } else {
      // plan() always follows an assistant's calls with its results, so pending is non-empty here.
      const call = pending.shift() ?? { id: `toolu_01${rng.chars(22, B62)}`, name: "read" as const, details: {} };
      const out = text(rng, pool, Math.max(10, filler));
      emit({ ...base("message"), message: { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text: out }], details: call.details, isError: rng.next() < 0.03, timestamp: msgTs() } });
      context += Math.round(out.length / 4);
    }
    overhead += bytes - before - filler;
  }
  return { text: `${lines.join("\n")}\n`, sessionId, timestamp };
}

export async function writeSession(path: string, opts: GenOptions): Promise<GenResult> {
  const s = generateSession(opts);
  const bytes = await Bun.write(path, s.text);
  return { path, bytes, lines: opts.entries + 1, sessionId: s.sessionId };
}

export interface AgentDirOptions {
  sessions: number;
  projects: number;
  /** How many of the sessions are large (bigBytes each); the rest are log-uniform 2–200 KB. */
  big: number;
  bigBytes: number;
  seed: number;
}

/** Fills `<agentDir>/sessions/--bench-proj-NN--/` the way Pi lays sessions out on disk. */
export async function generateAgentDir(agentDir: string, o: AgentDirOptions): Promise<{ files: number; bytes: number }> {
  const rng = new Rng(o.seed);
  const bigEvery = o.big > 0 ? Math.floor(o.sessions / o.big) : Number.POSITIVE_INFINITY;
  let bytes = 0;
  for (let i = 0; i < o.sessions; i++) {
    const cwd = `/bench/proj-${String(i % o.projects).padStart(2, "0")}`;
    const isBig = i % bigEvery === bigEvery - 1 && Math.floor(i / bigEvery) < o.big;
    const targetBytes = isBig ? o.bigBytes : Math.round(Math.exp(Math.log(2_000) + rng.next() * Math.log(100)));
    const entries = Math.max(4, Math.round(targetBytes / 2_500));
    const s = generateSession({ targetBytes, entries, seed: o.seed * 100_003 + i, cwd });
    const dir = join(agentDir, "sessions", sessionDirName(cwd));
    mkdirSync(dir, { recursive: true });
    bytes += await Bun.write(join(dir, sessionFileName(s.timestamp, s.sessionId)), s.text);
  }
  return { files: o.sessions, bytes };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      out: { type: "string" },
      "agent-dir": { type: "string" },
      mb: { type: "string", default: "50" },
      entries: { type: "string", default: "20000" },
      sessions: { type: "string", default: "2000" },
      projects: { type: "string", default: "20" },
      big: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
    },
  });
  const seed = Number(values.seed);
  const bigBytes = Number(values.mb) * 1024 * 1024;
  if (values.out) {
    const r = await writeSession(values.out, { targetBytes: bigBytes, entries: Number(values.entries), seed });
    console.log(`${r.path}: ${r.bytes} bytes, ${r.lines} lines, session ${r.sessionId}`);
  } else if (values["agent-dir"]) {
    const r = await generateAgentDir(values["agent-dir"], { sessions: Number(values.sessions), projects: Number(values.projects), big: Number(values.big), bigBytes, seed });
    console.log(`${values["agent-dir"]}: ${r.files} sessions, ${r.bytes} bytes`);
  } else {
    console.error("usage: gen-sessions.ts --out FILE [--mb 50] [--entries 20000] [--seed 1]\n       gen-sessions.ts --agent-dir DIR [--sessions 2000] [--projects 20] [--big 3] [--mb 50] [--seed 1]");
    process.exit(2);
  }
}
