// The command-line options every benchmark takes (all.ts passes them on unchanged).
import { parseArgs } from "node:util";
import { PI_RELEASE_NAMES, type PiRelease } from "./pi-install.ts";

export interface CommonArgs {
  runs: number;
  warmup: number;
  /** Measure Pi only (pig not built yet). */
  piOnly: boolean;
  /** The upstream releases to measure, in PI_RELEASE_NAMES order. */
  pi: PiRelease[];
  /** Exit non-zero when a target is missed. */
  check: boolean;
  /** Keep the generated temp dir so the printed commands can be re-run by hand. */
  keep: boolean;
  /** A pig binary other than dist/pig (say, an older build to compare with). */
  pigBin: string | undefined;
  /** The values of the script's own string options (named in `ownOptions`), when given. */
  own: Record<string, string | undefined>;
}

export const OPTIONS_HELP = `options:
  --runs N           measured runs per contender
  --warmup N         unmeasured runs first
  --pi LIST          Pi releases to measure, comma-separated: ${PI_RELEASE_NAMES.join(",")} (default: all), or none (pig alone)
  --pi-only          skip pig
  --check            exit 1 when a target is missed
  --keep             keep the temp dir
  --pig PATH         measure this pig binary instead of dist/pig`;

export function commonArgs(defaults: { runs: number; warmup: number }, ownOptions: readonly string[] = []): CommonArgs {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      ...Object.fromEntries(ownOptions.map((name) => [name, { type: "string" as const }])),
      runs: { type: "string" },
      warmup: { type: "string" },
      pi: { type: "string" },
      "pi-only": { type: "boolean", default: false },
      check: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      pig: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(OPTIONS_HELP);
    process.exit(0);
  }
  return {
    runs: values.runs === undefined ? defaults.runs : positiveInt("--runs", values.runs),
    warmup: values.warmup === undefined ? defaults.warmup : positiveInt("--warmup", values.warmup, true),
    piOnly: values["pi-only"] ?? false,
    pi: values.pi === undefined ? [...PI_RELEASE_NAMES] : piReleases(values.pi),
    check: values.check ?? false,
    keep: values.keep ?? false,
    pigBin: values.pig,
    own: Object.fromEntries(ownOptions.map((name) => [name, ownValue((values as Record<string, unknown>)[name])])),
  };
}

/**
 * `--pi latest` or `--pi 0.73.1,latest`: known names only, each once, in the canonical order.
 * `--pi none` measures pig alone (a quick loop while working on pig; no target can be judged).
 */
export function piReleases(list: string): PiRelease[] {
  if (list.trim() === "none") return [];
  const asked = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = asked.filter((s) => !(PI_RELEASE_NAMES as readonly string[]).includes(s));
  if (unknown.length > 0 || asked.length === 0) {
    throw new Error(`--pi takes a comma-separated list of ${PI_RELEASE_NAMES.join(", ")}; got ${JSON.stringify(list)}`);
  }
  return PI_RELEASE_NAMES.filter((name) => asked.includes(name));
}

const ownValue = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function positiveInt(name: string, raw: string, allowZero = false): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`${name} must be an integer ≥ ${allowZero ? 0 : 1}, got ${raw}`);
  return n;
}
