/** `/expand [N]`: tool result N in full (the number its hint names), or every result toggled. */
import type { SlashCommand } from "../host.ts";
import { about } from "./about.ts";

export const expandCommand: SlashCommand = {
  ...about("expand"),
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
