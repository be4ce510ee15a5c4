// Circles of imports between files: groups of files each reaching the others through imports
// (Tarjan's strongly connected components). A circle means none of its files can be read,
// tested or moved without the rest, even where every import is allowed by the layering.
import type { ImportEdge } from "./layering.ts";

/** Each circle as its files, sorted; circles sorted by their first file. Self-imports are ignored. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { file, target } of edges) {
    if (file === target) continue;
    if (!next.has(file)) next.set(file, new Set());
    next.get(file)!.add(target);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
