/**
 * What every extension host of one run shares, whichever host is current (the first, one after
 * /reload, the one started early to ask about project trust): the session port extensions act
 * through, the UI they talk to, and where their errors go — to the session once a mode listens,
 * kept until then.
 */
import type { AgentSession } from "../agent/session.ts";
import type { CredentialVars } from "../ai/credential-vars.ts";
import type { ExtensionSource } from "../extensions/discovery.ts";
import type { ExtensionHost } from "../extensions/host/host.ts";
import type { PrestartedRunner } from "../extensions/host/prestart.ts";
import { HEADLESS_UI } from "../extensions/ui.ts";
import type { ExtensionChoice } from "./config.ts";
import { ExtensionModelPort } from "./extension-models.ts";
import { ExtensionSessionPort } from "./extension-port.ts";
import { LateUi } from "./late-ui.ts";
import { RunNotices } from "./run-notices.ts";

export interface LaunchInput {
  choice: ExtensionChoice;
  cwd: string;
  agentDir: string;
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** The credential rule with the run's configured names (the model registry's). */
  credentials?: () => CredentialVars;
  /** `extensionTimeouts.eventMs` of the settings. */
  eventMs?: number | undefined;
  /** The shared runner started before the extensions were known; the first host that fits takes it. */
  prestarted?: PrestartedRunner;
}

type ErrorReport = { extensionPath: string; event: string; error: string; stack?: string };

export class ExtensionLaunch {
  readonly mode: "interactive" | "print" | "json" | "rpc";
  /** Interactive and RPC mode bind a UI that can answer dialogs; extensions are told so when they start. */
  readonly ui: LateUi;
  readonly port: ExtensionSessionPort;
  /** Model calls extensions ask pig to make with its credentials (`model.stream`). */
  readonly models = new ExtensionModelPort(() => this.session);
  session: AgentSession | undefined;
  /** Said once per run: built-in tools replaced, providers with the user's credentials pointed elsewhere. */
  readonly notices = new RunNotices();
  /** ctx.reload(): set by the stage, which owns the hosts. */
  reload: () => Promise<void> = async () => {};
  private shutdownHandler = (): void => {};
  private readonly early: ErrorReport[] = [];
  private started = false;

  constructor(readonly input: LaunchInput) {
    this.mode = input.choice.mode ?? (input.interactive ? "interactive" : "print");
    this.ui = new LateUi(HEADLESS_UI, this.mode === "interactive" || this.mode === "rpc");
    this.port = new ExtensionSessionPort(input.cwd, {
      shutdown: () => this.shutdownHandler(),
      reload: () => this.reload(),
    });
  }

  onShutdownRequest(handler: () => void): void {
    this.shutdownHandler = handler;
  }

  /** Errors raised before a mode listens (a provider refused at startup) wait for it to ask. */
  reportError(report: ErrorReport): void {
    if (this.started && this.session) this.session.reportExtensionError(report);
    else this.early.push(report);
  }

  drainStartupErrors(): ErrorReport[] {
    this.started = true;
    return this.early.splice(0);
  }

  async start(sources: readonly ExtensionSource[]): Promise<ExtensionHost> {
    const { cwd, agentDir, env, eventMs } = this.input;
    // Imported when a host starts: its ~60 modules (and their top-level work) are not a cost of a
    // run without extensions.
    const { startExtensionHost } = await import("../extensions/host/host.ts");
    return startExtensionHost({
      sources,
      port: this.port,
      models: this.models,
      ui: this.ui,
      cwd,
      agentDir,
      mode: this.mode,
      env,
      ...(this.input.credentials ? { credentials: this.input.credentials } : {}),
      ...(this.input.prestarted ? { prestarted: this.input.prestarted } : {}),
      // Also a handler failing before the mode listens (in session_start at start-up).
      onError: (report) => this.reportError(report),
      ...(eventMs !== undefined || this.input.choice.timing
        ? { timing: { ...this.input.choice.timing, ...(eventMs !== undefined ? { eventDeadlineMs: eventMs } : {}) } }
        : {}),
      ...(this.input.choice.observer ? { observer: this.input.choice.observer } : {}),
    });
  }
}
