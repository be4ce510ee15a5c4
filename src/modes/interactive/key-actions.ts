/**
 * The interactive app's own key actions — model and thinking-level cycling, the model picker,
 * showing thinking and tool results, taking queued messages back, suspending to the shell; the
 * editor runs the editing ones itself.
 */
import type { AgentSession } from "../../agent/session.ts";
import type { SettingsStore } from "../../resources/settings-store.ts";
import type { EventView } from "./event-view.ts";
import type { InputEditor } from "./input/index.ts";
import type { KeyAction } from "./input/keybindings.ts";
import { suspendToShell } from "./suspend.ts";

export interface KeyActionHost {
  editor: InputEditor;
  view: EventView;
  session: Pick<AgentSession, "cycleModel" | "cycleThinkingLevel">;
  settings: Pick<SettingsStore, "drainDiagnostics">;
  thinkingLevel(): string;
  /** Runs the slash command `name` with no arguments. */
  runCommand(name: string): Promise<void>;
  toggleResults(): void;
  restoreQueued(): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export async function runKeyAction(action: KeyAction, host: KeyActionHost): Promise<void> {
  try {
    switch (action) {
      case "app.suspend":
        suspendToShell(host.editor);
        break;
      case "app.model.select":
        await host.runCommand("model");
        break;
      case "app.model.cycleForward":
      case "app.model.cycleBackward": {
        const next = host.session.cycleModel(action === "app.model.cycleForward" ? "forward" : "backward");
        host.info(next ? `Model: ${next.model.provider}/${next.model.id}${next.model.reasoning ? ` (thinking: ${host.thinkingLevel()})` : ""}` : "Only one model is available.");
        break;
      }
      case "app.thinking.cycle": {
        const next = host.session.cycleThinkingLevel();
        host.info(next ? `Thinking level: ${next.level}` : "This model has no thinking levels.");
        break;
      }
      case "app.thinking.toggle":
        host.view.showThinking = !host.view.showThinking;
        host.info(host.view.showThinking ? "Thinking is shown." : "Thinking is hidden.");
        break;
      case "app.tools.expand":
        if (!host.view.expandLast()) host.info("No tool result to expand yet.");
        break;
      case "app.tools.toggleAll":
        host.toggleResults();
        break;
      case "app.message.dequeue":
        host.restoreQueued();
        break;
      default:
        break;
    }
  } catch (error) {
    host.error((error as Error).message);
  } finally {
    // Switching model or level saves it: a settings file pig could not use says so here.
    for (const diagnostic of host.settings.drainDiagnostics()) host.warn(diagnostic.message);
  }
}
