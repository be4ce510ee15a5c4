/**
 * Applies `edit`'s replacements to a file's text. Every oldText is located in the original text
 * (not after earlier replacements), must be unique and must not overlap another; exact matches
 * are preferred, the fuzzy comparison is the fallback. Error texts are upstream's, word for word.
 */
import { closestMatchHint } from "./edit-hint.ts";
import { fuzzyNormalize, FuzzyText } from "./edit-fuzzy.ts";

export interface Replacement {
  oldText: string;
  newText: string;
}

export interface AppliedEdits {
  /** The text the replacements were applied to (what the diff compares against). */
  base: string;
  result: string;
}

/** "\r\n" and lone "\r" become "\n". */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

interface Match {
  editIndex: number;
  index: number;
  length: number;
  newText: string;
}

function countOccurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function notFound(path: string, edits: Replacement[], i: number, content: string, oldText: string): Error {
  const first =
    edits.length === 1
      ? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
      : `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`;
  return new Error(first + closestMatchHint(content, oldText));
}

function duplicate(path: string, edits: Replacement[], i: number, count: number): Error {
  return new Error(
    edits.length === 1
      ? `Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
      : `Found ${count} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
  );
}

/**
 * Finds every edit. Fuzzy matches are mapped back to the original text when possible, so the
 * rest of the file stays byte-for-byte as it was; `undefined` means that mapping was not possible.
 */
function locate(content: string, edits: Replacement[], path: string): Match[] | undefined {
  const fuzzy = new FuzzyText(content);
  const matches: Match[] = [];
  for (const [i, edit] of edits.entries()) {
    const fuzzyOld = fuzzyNormalize(edit.oldText);
    const exact = content.indexOf(edit.oldText);
    const fuzzyAt = exact === -1 ? fuzzy.text.indexOf(fuzzyOld) : -1;
    if (exact === -1 && fuzzyAt === -1) throw notFound(path, edits, i, content, edit.oldText);
    const count = countOccurrences(fuzzy.text, fuzzyOld);
    if (count > 1) throw duplicate(path, edits, i, count);
    if (exact !== -1) {
      matches.push({ editIndex: i, index: exact, length: edit.oldText.length, newText: edit.newText });
      continue;
    }
    const range = fuzzy.originalRange(fuzzyAt, fuzzyOld.length);
    if (!range) return undefined;
    matches.push({ editIndex: i, index: range.index, length: range.length, newText: edit.newText });
  }
  return matches;
}

/** Upstream's way: when any edit needs the fuzzy comparison, every edit applies to the normalised file. */
function locateInNormalized(content: string, edits: Replacement[], path: string): { base: string; matches: Match[] } {
  const base = fuzzyNormalize(content);
  const matches = edits.map((edit, i): Match => {
    const fuzzyOld = fuzzyNormalize(edit.oldText);
    const exact = base.indexOf(edit.oldText);
    const index = exact !== -1 ? exact : base.indexOf(fuzzyOld);
    if (index === -1) throw notFound(path, edits, i, content, edit.oldText);
    const count = countOccurrences(base, fuzzyOld);
    if (count > 1) throw duplicate(path, edits, i, count);
    return { editIndex: i, index, length: exact !== -1 ? edit.oldText.length : fuzzyOld.length, newText: edit.newText };
  });
  return { base, matches };
}

/**
 * Applies `edits` to `content` (both already "\n"-only). `path` is the path as the model gave it,
 * for the messages.
 */
export function applyEdits(content: string, edits: Replacement[], path: string): AppliedEdits {
  for (const [i, edit] of edits.entries()) {
    if (edit.oldText.length === 0) {
      throw new Error(edits.length === 1 ? `oldText must not be empty in ${path}.` : `edits[${i}].oldText must not be empty in ${path}.`);
    }
  }
  let base = content;
  let matches = locate(content, edits, path);
  if (!matches) ({ base, matches } = locateInNormalized(content, edits, path));

  matches.sort((a, b) => a.index - b.index);
  for (let k = 1; k < matches.length; k++) {
    const prev = matches[k - 1] as Match;
    const cur = matches[k] as Match;
    if (prev.index + prev.length > cur.index) {
      throw new Error(
        `edits[${prev.editIndex}] and edits[${cur.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  let result = base;
  for (let k = matches.length - 1; k >= 0; k--) {
    const m = matches[k] as Match;
    result = result.slice(0, m.index) + m.newText + result.slice(m.index + m.length);
  }
  if (result === base) {
    throw new Error(
      edits.length === 1
        ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
        : `No changes made to ${path}. The replacements produced identical content.`,
    );
  }
  return { base, result };
}
