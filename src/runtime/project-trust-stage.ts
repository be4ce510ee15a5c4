/**
 * Asking extensions whether to trust the project (upstream's `project_trust`), before anything
 * of the project loads. Only extensions that are not the project's own can be asked — the ones
 * named with `-e`, in the user's settings and in the user's extensions folder — so they are
 * started first; the first `yes` or `no`, in load order, decides, and `remember` stores it as
 * the trust prompt's answer would be. The host started here goes on serving the run when the run
 * loads exactly these extensions (an untrusted project, or one without extensions of its own).
 */
import * as v from "valibot";
import { discoverExtensions } from "../extensions/discovery.ts";
import { startChain } from "../util/combine.ts";
import { combinatorOf } from "../util/extension-events.ts";
import type { Settings } from "../resources/settings.ts";
import type { ExtensionChoice } from "./config.ts";
import type { CredentialVars } from "../ai/credential-vars.ts";
import { ExtensionLaunch } from "./extension-launch.ts";
import { discoveryOptions } from "../extensions/discovery-options.ts";
import type { EarlyExtensions } from "./run-extensions.ts";
import { startupDialogs } from "./startup-dialogs.ts";

export interface TrustAskInput {
  choice: ExtensionChoice;
  agentDir: string;
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** The credential rule with the run's configured names. */
  credentials?: () => CredentialVars;
  /** The user's settings (their `extensions` list), read when first needed. */
  userSettings: () => Settings;
}

export interface ExtensionTrustAnswer {
  trusted: boolean;
  remember: boolean;
  /** The extension that answered. */
  extension: string;
}

export interface TrustAsking {
  /** The decision, when an extension gave one. */
  ask(cwd: string): Promise<ExtensionTrustAnswer | undefined>;
  /** The host started to ask, for the run to keep or stop; undefined when none was started. */
  early(): EarlyExtensions | undefined;
  /** Extensions' failures while asking, as warnings. */
  readonly warnings: string[];
}

export function extensionTrustAsking(input: TrustAskInput): TrustAsking {
  let started: EarlyExtensions | undefined;
  const warnings: string[] = [];
  return {
    warnings,
    early: () => started,
    async ask(cwd) {
      const userSettings = input.userSettings();
      const found = discoverExtensions(discoveryOptions({ choice: input.choice, cwd, agentDir: input.agentDir, trusted: false, userSettings, projectSettings: {} }));
      // Paths that do not exist are reported when the run's extensions are found.
      if (found.sources.length === 0) return undefined;
      const launch = new ExtensionLaunch({
        choice: input.choice,
        cwd,
        agentDir: input.agentDir,
        interactive: input.interactive,
        env: input.env,
        ...(input.credentials ? { credentials: input.credentials } : {}),
        eventMs: userSettings.extensionTimeouts?.eventMs,
      });
      const host = await launch.start(found.sources);
      started = { launch, host, ids: found.sources.map((s) => s.id) };
      const asking = host.subscribers("project_trust");
      if (asking.length === 0) return undefined;
      const dialogs = launch.mode === "interactive" && input.interactive && process.stdin.isTTY ? startupDialogs() : undefined;
      const decide = async (): Promise<ExtensionTrustAnswer | undefined> => {
        // Loaded here, with the host: the protocol's schemas are not a cost of a run without extensions.
        const [{ ProjectTrustResultSchema }, { describeIssues }] = await Promise.all([import("../extensions/protocol.ts"), import("../extensions/issue-text.ts")]);
        const chain = startChain(combinatorOf("project_trust"), { cwd });
        let decider: string | undefined;
        for (const extension of asking) {
          const answer = await host.askOne(extension, "project_trust", { cwd });
          if (!answer.ok) {
            warnings.push(`Extension "${extension}" project_trust error: ${answer.error}`);
            continue;
          }
          if (answer.value === null || answer.value === undefined) continue;
          const parsed = v.safeParse(ProjectTrustResultSchema, answer.value);
          if (!parsed.success) {
            warnings.push(`Extension "${extension}" project_trust error: invalid result: ${describeIssues(parsed.issues)}`);
            continue;
          }
          if (chain.step(parsed.output)) {
            decider = extension;
            break;
          }
        }
        const decided = chain.result() as v.InferOutput<typeof ProjectTrustResultSchema> | null;
        if (!decided || decider === undefined) return undefined;
        return { trusted: decided.trusted === "yes", remember: decided.remember === true, extension: decider };
      };
      return dialogs ? launch.ui.withDialogs(dialogs, decide) : decide();
    },
  };
}
