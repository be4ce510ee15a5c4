/**
 * `/copy`: the last answer's text to the system clipboard through the platform's tool
 * (util/clipboard.ts). When no tool takes it (over ssh, in a container) the text goes to the
 * terminal as an OSC 52 sequence, which the terminal puts on its own clipboard.
 */
import { CLIPBOARD_TOOL_HINT, copyToClipboard, defaultClipboardDeps, OSC52_MAX_BYTES, osc52Sequence, type ClipboardDeps } from "../../../util/clipboard.ts";
import type { SlashCommand } from "../host.ts";
import { about } from "./about.ts";

export function createCopyCommand(deps: ClipboardDeps = defaultClipboardDeps): SlashCommand {
  return {
    ...about("copy"),
    async run(host) {
      const text = host.session.lastAssistantText();
      if (!text) {
        host.warn("There is no answer to copy yet.");
        return;
      }
      const { tool, tried } = await copyToClipboard(text, deps);
      const size = `${text.length} characters`;
      if (tool) {
        host.info(`Copied the last answer to the clipboard (${size}).`);
      } else if (deps.terminal && Buffer.byteLength(text) > OSC52_MAX_BYTES) {
        host.error(
          `${tried.length > 0 ? `${tried.join(", ")} failed, and the` : "No clipboard tool found, and the"} answer (${size}) is too long to send through the terminal (OSC 52 carries up to ${OSC52_MAX_BYTES / 1000} KB in most terminals).`,
        );
      } else if (deps.terminal) {
        // OSC 52 is invisible and does not move the cursor: it can go straight to the terminal.
        // Whether the terminal puts it on the clipboard cannot be known (some ignore it).
        deps.terminal.write(osc52Sequence(text, deps.terminal.env));
        const sent = `the last answer (${size}) to the terminal's clipboard (OSC 52; terminals that do not support it ignore it).`;
        host.info(tried.length > 0 ? `${tried.join(", ")} failed; sent ${sent}` : `Sent ${sent}`);
      } else if (tried.length > 0) {
        host.error(`Copying failed with ${tried.join(", ")}.`);
      } else {
        host.error(`No clipboard tool found: ${CLIPBOARD_TOOL_HINT}.`);
      }
    },
  };
}

export const copyCommand = createCopyCommand();
