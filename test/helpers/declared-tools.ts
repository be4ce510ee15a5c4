/**
 * The tools an agent declared in a session (its current system message), as the agent loop hands
 * them to a provider: name, description, parameters and the `constrainedSampling` they ask for.
 */
import type { ConstrainedSampling, ToolSpec } from "../../src/ai/types.ts";
import type { AgentMessage } from "../../src/session/format.ts";
import { currentSystemMessage, declaredTools } from "../../src/session/system-messages.ts";

export function declaredToolSpecs(messages: readonly AgentMessage[]): ToolSpec[] {
  return declaredTools(currentSystemMessage(messages)).map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.constrainedSampling ? { constrainedSampling: tool.constrainedSampling as ConstrainedSampling } : {}),
  }));
}
