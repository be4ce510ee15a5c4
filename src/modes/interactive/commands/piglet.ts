/**
 * `/piglet [name]`: switches the session to another Piglet (runtime/piglet-switch.ts says what
 * switches live); without a name, a picker of the Piglets there are.
 */
import { describeSwitch } from "../../../runtime/piglet-switch.ts";
import type { SlashCommand } from "../host.ts";
import { refuseWhileRunning } from "./guards.ts";
import { about } from "./about.ts";

export const pigletCommand: SlashCommand = {
  ...about("piglet"),
  async run(host, args) {
    const piglets = host.piglets;
    if (!piglets) {
      host.warn("Piglets are not available in this run.");
      return;
    }
    if (refuseWhileRunning(host, "switch Piglet")) return;
    let name = args.trim();
    if (!name) {
      const files = piglets.list();
      if (files.length === 0) {
        host.info(`No Piglets: put them in ${host.agentDir}/piglets/ or a trusted project's .pig/piglets/ (docs/piglets.md).`);
        return;
      }
      const current = host.piglet?.name;
      const chosen = await host.pick(
        "Switch to Piglet",
        files.map((f) => ({ value: f.name, label: f.name, hint: `${f.scope}${f.name === current ? ", current" : ""}` })),
        { search: true, ...(current ? { initial: current } : {}) },
      );
      if (!chosen) return;
      name = chosen;
    }
    const done = await piglets.switch(name);
    for (const warning of done.warnings) host.warn(warning);
    host.info(describeSwitch(done));
  },
};
