// Differences between pig and Pi that the extension comparison finds and that are not faults: a
// deliberate one names the docs/decisions.md entry that says why; one that comes from the subject
// itself (a name drawn at random each run) says so. Matched by subject (an example's or a
// package's name, or "*" for every subject), the part of the comparison, and a pattern on its detail.
import type { Difference } from "./compare-observations.ts";

export interface KnownDifference {
  subject: string;
  part: Difference["part"];
  detail: RegExp;
  /** The docs/decisions.md entry ("D74"), or why the subject differs from run to run. */
  why: string;
}

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  // ctx.ui.theme styles nothing in pig's extension runtime: a status or widget built with it is plain text.
  { subject: "*", part: "ui", detail: /styled by Pi's theme and plain in pig/, why: "D74" },
  // The example shows the length of the agent's own system prompt.
  { subject: "system-prompt-header.ts", part: "ui", detail: /^prompt: setStatus:system-prompt \{"statusText":"System: \d+ chars"\} vs \{"statusText":"System: \d+ chars"\}$/, why: "D75" },
  // The example registers find, grep and ls afresh: pig's are in its own words, with Pi 0.87.1's parameter descriptions.
  { subject: "minimal-mode.ts", part: "tools", detail: /^(description of (find|grep|ls)|schema of (find|grep))$/, why: "D76" },
  // Pi 1.6.0's find passes fd a flag the fd of the machine that ran the comparison may not know.
  { subject: "minimal-mode.ts", part: "tool results", detail: /^find isError false .* vs true \("error: Found argument '--no-require-git'/, why: "Pi's find needs a newer fd than the machine's" },
  // The package names each session at random (and styles the name: D74).
  { subject: "@baochunli/pi-collaborating-agents", part: "ui", detail: /setStatus:collab/, why: "a name drawn at random each session" },
];

export interface Explained {
  explained: { difference: Difference; why: string }[];
  unexplained: Difference[];
}

export function explainedDifferences(subject: string, differences: readonly Difference[], known: readonly KnownDifference[] = KNOWN_DIFFERENCES): Explained {
  const out: Explained = { explained: [], unexplained: [] };
  for (const difference of differences) {
    const match = known.find((k) => (k.subject === "*" || k.subject === subject) && k.part === difference.part && k.detail.test(difference.detail));
    if (match) out.explained.push({ difference, why: match.why });
    else out.unexplained.push(difference);
  }
  return out;
}
