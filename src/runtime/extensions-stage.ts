/**
 * Starting the run's extensions and collecting what they register. Extensions are found the way
 * upstream finds them (`-e`, settings, the user's and — in a trusted project — the project's
 * extension folders), started out of process by the extension host, and what they register goes
 * where the rest of pig looks (extension-install.ts). A run without extensions starts no host.
 * What the run's extensions are from then on — none, started late, started — and how `/reload`
 * replaces their host is the platform's (extension-platform.ts).
 */
import { discoverExtensions } from "../extensions/discovery.ts";
import { discoveryOptions } from "../extensions/discovery-options.ts";
import { createRegistries } from "../extensions/registries.ts";
import { ExtensionLaunch } from "./extension-launch.ts";
import { ExtensionPlatform } from "./extension-platform.ts";
import type { EarlyExtensions, ExtensionRegistrations, ExtensionStageInput } from "./run-extensions.ts";

export async function startExtensions(input: ExtensionStageInput, early?: EarlyExtensions, given?: ExtensionLaunch): Promise<ExtensionRegistrations> {
  const registries = input.choice.registries ?? createRegistries();
  const found = discoverExtensions(discoveryOptions(input));
  // The host asked about trust runs on when it holds exactly the extensions this run loads.
  const sameAsEarly = early !== undefined && early.launch.input.cwd === input.cwd && sameIds(early.ids, found.sources.map((s) => s.id));
  if (early && !sameAsEarly) await early.host.stop();
  // A project's value wins, as for any settings object (merged one level deep).
  const timeouts = { ...input.userSettings.extensionTimeouts, ...input.projectSettings.extensionTimeouts };
  const launch =
    given ??
    (sameAsEarly && early
      ? early.launch
      : new ExtensionLaunch({
          choice: input.choice,
          cwd: input.cwd,
          agentDir: input.agentDir,
          interactive: input.interactive,
          env: input.env,
          credentials: () => input.models.credentialVars(),
          eventMs: timeouts.eventMs,
          ...(input.prestarted ? { prestarted: input.prestarted } : {}),
        }));
  const platform = await ExtensionPlatform.start(input, registries, launch, found, sameAsEarly && early ? early.host : undefined);
  return {
    tools: platform.tools(),
    hooks: platform.hooks,
    extensions: platform,
    attach: (session, reason) => platform.attach(session, reason),
  };
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}
