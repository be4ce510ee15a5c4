/** `/expand [N]`: tool result N in full (the number its hint names), or every result toggled. */
import type { SlashCommand } from "../host.ts";

export const expandCommand: SlashCommand = {
  name: "expand",
  description: "Show tool result N in full, or collapse/expand all of them",
  argumentHint: "[N]",
  async run(host, args) {
    const text = args.trim();
    if (!text) {
      host.toggleResults();
      return;
    }
    const number = /^#?(\d+)$/.exec(text);
    if (!number) {
      host.error(`/expand takes a result's number (as its "… /expand N" hint says), not "${text}".`);
      return;
    }
    if (!host.expandResult(Number(number[1]))) host.error(`There is no tool result ${number[1]} in this view.`);
  },
};
