// A team tool: turns a ticket id into its URL, so the model links tickets instead of guessing.
import { Type } from "typebox";
import type { ExtensionAPI } from "pig/extension";

const TRACKER = "https://tracker.example.com/browse/";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "ticket_url",
    label: "Ticket URL",
    description: "The tracker URL of a ticket id such as ACME-123",
    parameters: Type.Object({ id: Type.String({ description: "A ticket id, e.g. ACME-123" }) }),
    async execute(_toolCallId, params) {
      if (!/^[A-Z]+-\d+$/.test(params.id)) throw new Error(`not a ticket id: ${params.id}`);
      return { content: [{ type: "text", text: TRACKER + params.id }], details: { id: params.id } };
    },
  });
}
