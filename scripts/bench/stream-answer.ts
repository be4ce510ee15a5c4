// The long answer interactive-stream.ts streams: deterministic Markdown (headings, paragraphs with
// inline code, bold and links, fenced code in several languages, tables, bullet and numbered
// lists) of a given size, counted as ~4 characters a token, with one numbered heading per
// section so the screen's scrollback can be checked for every section, and a last line to wait for.
import { Rng } from "./gen-sessions.ts";

/** Characters counted as one token (the usual rule of thumb for English text and code). */
export const CHARS_PER_TOKEN = 4;

export interface StreamAnswer {
  text: string;
  sections: number;
  /** The answer's last line: on screen once the whole answer has been drawn. */
  lastLine: string;
}

const WORDS = ["the", "stream", "parser", "returns", "a", "buffer", "when", "each", "line", "is", "complete", "and", "the", "renderer", "writes", "it", "once", "to", "scrollback", "while", "tokens", "arrive", "from", "model", "with", "tables", "lists", "code", "blocks", "terminal", "width", "wraps", "words", "at", "boundaries"];

const CODE: Record<string, (n: number) => string[]> = {
  ts: (n) => [`export function step${n}(input: string[]): number {`, "  let total = 0;", "  for (const line of input) total += line.length;", `  return total * ${n};`, "}"],
  python: (n) => [`def step_${n}(items):`, "    total = 0", "    for item in items:", "        total += len(item)", `    return total * ${n}`],
  rust: (n) => [`fn step_${n}(input: &[String]) -> usize {`, "    input.iter().map(|line| line.len()).sum::<usize>()", `        * ${n}`, "}"],
  go: (n) => [`func step${n}(input []string) int {`, "\ttotal := 0", "\tfor _, line := range input {", "\t\ttotal += len(line)", "\t}", `\treturn total * ${n}`, "}"],
  bash: (n) => [`for f in src/*.ts; do`, `  wc -l "$f" | awk '{ s += $1 } END { print s * ${n} }'`, "done"],
  json: (n) => ["{", `  "step": ${n},`, '  "items": ["alpha", "beta", "gamma"],', '  "enabled": true', "}"],
};
const LANGUAGES = Object.keys(CODE);

function sentence(rng: Rng): string {
  const length = 8 + Math.floor(rng.next() * 12);
  const words = Array.from({ length }, () => WORDS[Math.floor(rng.next() * WORDS.length)]!);
  const at = Math.floor(rng.next() * length);
  const r = rng.next();
  if (r < 0.25) words[at] = `\`${words[at]}()\``;
  else if (r < 0.45) words[at] = `**${words[at]}**`;
  else if (r < 0.55) words[at] = `[${words[at]}](https://example.com/${words[at]})`;
  const text = words.join(" ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function section(n: number, rng: Rng): string[] {
  const lines = [`## Section ${n}`, ""];
  const paragraph = () => Array.from({ length: 3 + Math.floor(rng.next() * 4) }, () => sentence(rng)).join(" ");
  lines.push(paragraph(), "");
  const language = LANGUAGES[n % LANGUAGES.length]!;
  lines.push(`\`\`\`${language}`, ...CODE[language]!(n), "```", "");
  lines.push(paragraph(), "");
  if (n % 2 === 0) {
    lines.push("| name | lines | share | note |", "| --- | ---: | ---: | --- |");
    for (let row = 0; row < 4 + (n % 3); row++) {
      lines.push(`| file${n}_${row}.ts | ${Math.floor(rng.next() * 900) + 10} | ${(rng.next() * 100).toFixed(1)}% | ${WORDS[Math.floor(rng.next() * WORDS.length)]} |`);
    }
  } else {
    for (let item = 0; item < 4; item++) lines.push(`${n % 3 === 0 ? `${item + 1}.` : "-"} ${sentence(rng)}`);
  }
  lines.push("");
  return lines;
}

/** An answer of about `tokens` tokens (`tokens × CHARS_PER_TOKEN` characters, give or take a section). */
export function streamAnswer(tokens: number, seed = 1): StreamAnswer {
  const rng = new Rng(seed);
  const target = tokens * CHARS_PER_TOKEN;
  const lines: string[] = [];
  let length = 0;
  let sections = 0;
  while (length < target) {
    const more = section(++sections, rng);
    lines.push(...more);
    length += more.reduce((sum, line) => sum + line.length + 1, 0);
  }
  const lastLine = `The answer ends here after ${sections} sections.`;
  lines.push(lastLine);
  return { text: lines.join("\n"), sections, lastLine };
}
