/**
 * Moving within the session tree: `/tree` (go to any entry, optionally summarising the branch
 * left behind), `/fork` (a new session from before a user message) and `/label`.
 */
import type { InteractiveHost, SlashCommand } from "../host.ts";
import { currentEntryId, readSessionTree } from "../tree/tree-rows.ts";
import { oneLine } from "./format.ts";
import { refuseWhileRunning } from "./guards.ts";
import { about } from "./about.ts";

type SummaryChoice = "none" | "summary" | "custom";

async function askSummary(host: InteractiveHost): Promise<{ summarize: boolean; customInstructions?: string } | undefined> {
  if (host.settings.settings.branchSummary?.skipPrompt) return { summarize: false };
  const choice = await host.pick<SummaryChoice>("Summarize the branch you are leaving?", [
    { value: "none", label: "No summary" },
    { value: "summary", label: "Summarize" },
    { value: "custom", label: "Summarize with custom instructions…" },
  ]);
  if (choice === undefined) return undefined;
  if (choice === "none") return { summarize: false };
  if (choice === "summary") return { summarize: true };
  const instructions = await host.ask("What should the summary focus on?");
  if (instructions === undefined) return undefined;
  return instructions.trim() ? { summarize: true, customInstructions: instructions.trim() } : { summarize: true };
}

export const treeCommand: SlashCommand = {
  ...about("tree"),
  async run(host) {
    if (refuseWhileRunning(host, "move in the tree")) return;
    const tree = readSessionTree(host.session.store);
    if (tree.entries.length === 0) {
      host.info("The session is empty.");
      return;
    }
    const currentId = tree.currentId;
    const target = await host.pickInTree(tree, (id, label) => host.session.setLabel(id, label));
    if (target === undefined) return;
    if (target === currentId) {
      host.info("Already there.");
      return;
    }
    const summary = await askSummary(host);
    if (!summary) return;
    if (summary.summarize) host.info("Summarizing the branch you are leaving…");
    const result = await host.session.navigateTree(target, summary);
    if (result.cancelled) {
      host.warn("Summary cancelled; stayed where you were.");
      return;
    }
    if (result.editorText !== undefined) host.setEditorText(result.editorText);
  },
};

export const forkCommand: SlashCommand = {
  ...about("fork"),
  async run(host) {
    if (refuseWhileRunning(host, "fork")) return;
    const messages = host.session.forkMessages();
    if (messages.length === 0) {
      host.info("No messages to fork from yet.");
      return;
    }
    const active = new Set(host.session.store.branchRecords().map((r) => r.id));
    const entryId = await host.pick(
      "Fork from which message? (it comes back to the editor)",
      messages.map((m) => ({ value: m.entryId, label: oneLine(m.text), ...(active.has(m.entryId) ? {} : { hint: "other branch" }) })),
      { search: true, initial: messages.at(-1)!.entryId },
    );
    if (entryId === undefined) return;
    const { text, cancelled } = await host.session.fork(entryId);
    if (cancelled) return;
    host.setEditorText(text);
    host.info("Forked into a new session.");
  },
};

export const labelCommand: SlashCommand = {
  ...about("label"),
  async run(host, args) {
    const target = currentEntryId(host.session.store);
    if (!target) {
      host.warn("Nothing to label yet.");
      return;
    }
    const label = args.trim();
    if (!label && !host.session.store.tree.labelOf(target)) {
      host.info("The current entry has no label to remove. Give a text to label it: /label <text>");
      return;
    }
    host.session.setLabel(target, label || undefined);
    host.info(label ? `Labelled: ${label}` : "Label cleared.");
  },
};
