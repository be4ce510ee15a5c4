// Summing a `.cpuprofile` (what `BUN_OPTIONS="--cpu-prof"` writes): self and total time per
// function and per source file, and the time each module's top-level code took. Pure functions:
// profile.ts reads the files and prints the tables.
import * as v from "valibot";

const CallFrameSchema = v.object({
  functionName: v.string(),
  url: v.string(),
  lineNumber: v.number(),
  columnNumber: v.number(),
});

const NodeSchema = v.object({
  id: v.number(),
  callFrame: CallFrameSchema,
  children: v.optional(v.array(v.number())),
});

export const CpuProfileSchema = v.object({
  nodes: v.array(NodeSchema),
  startTime: v.number(),
  endTime: v.number(),
  samples: v.array(v.number()),
  timeDeltas: v.array(v.number()),
});

export type CpuProfile = v.InferOutput<typeof CpuProfileSchema>;

/** One function (or one module's top-level code) summed over the profiles given. */
export interface FunctionTime {
  /** `name file:line` (line 1-based), or a runtime frame's name. */
  key: string;
  name: string;
  url: string;
  line: number;
  selfMs: number;
  /** Time with this function anywhere on the stack (counted once per sample, so recursion does not inflate it). */
  totalMs: number;
}

export interface FileTime {
  url: string;
  selfMs: number;
}

export interface ProfileSummary {
  /** How many profiles were summed; every figure below is a mean per profile. */
  profiles: number;
  /** Sampled time (the sum of the sample intervals), a mean per profile. */
  sampledMs: number;
  functions: FunctionTime[];
  files: FileTime[];
  /** Top-level code of each module (`(module)` frames): module evaluation, with what it called. */
  modules: FunctionTime[];
}

/** `(program)`, `(idle)`, `(garbage collector)`: time not spent in a JS function. */
const RUNTIME_URL = "(runtime)";

/** Where a source path stops being interesting: node_modules/pkg/… is shown from the package on. */
export function shortUrl(url: string): string {
  if (url === "") return RUNTIME_URL;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  return url.replace(/^file:\/\/\/\$bunfs\/root\//, "$bunfs/");
}

function frameKey(frame: CpuProfile["nodes"][number]["callFrame"]): string {
  const name = frame.functionName === "" ? "(anonymous)" : frame.functionName;
  if (frame.url === "") return name;
  return `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

/**
 * Sums profiles. Sample i lasted timeDeltas[i + 1] (the delta before the next sample); the last
 * sample's length is unknown and left out, which loses one interval per profile.
 */
export function summariseProfiles(profiles: readonly CpuProfile[]): ProfileSummary {
  const fns = new Map<string, FunctionTime>();
  const files = new Map<string, number>();
  let sampledUs = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (let i = 0; i < profile.samples.length - 1; i++) {
      const us = profile.timeDeltas[i + 1] ?? 0;
      if (us <= 0) continue;
      sampledUs += us;
      const leaf = byId.get(profile.samples[i]!);
      if (leaf === undefined) continue;
      const seen = new Set<string>();
      for (let node: typeof leaf | undefined = leaf; node !== undefined; node = byId.get(parent.get(node.id) ?? -1)) {
        const key = frameKey(node.callFrame);
        let fn = fns.get(key);
        if (fn === undefined) {
          fn = { key, name: node.callFrame.functionName, url: shortUrl(node.callFrame.url), line: node.callFrame.lineNumber + 1, selfMs: 0, totalMs: 0 };
          fns.set(key, fn);
        }
        if (node === leaf) {
          fn.selfMs += us / 1000;
          const url = shortUrl(node.callFrame.url);
          files.set(url, (files.get(url) ?? 0) + us / 1000);
        }
        if (!seen.has(key)) {
          seen.add(key);
          fn.totalMs += us / 1000;
        }
      }
    }
  }
  const n = Math.max(1, profiles.length);
  const perProfile = (f: FunctionTime): FunctionTime => ({ ...f, selfMs: f.selfMs / n, totalMs: f.totalMs / n });
  const all = [...fns.values()].filter((f) => f.name !== "(root)").map(perProfile);
  return {
    profiles: profiles.length,
    sampledMs: sampledUs / 1000 / n,
    functions: [...all].sort((a, b) => b.selfMs - a.selfMs),
    files: [...files].map(([url, ms]) => ({ url, selfMs: ms / n })).sort((a, b) => b.selfMs - a.selfMs),
    modules: all.filter((f) => f.name === "(module)").sort((a, b) => b.totalMs - a.totalMs),
  };
}
