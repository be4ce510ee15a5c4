/**
 * An extension's tool as a pig tool: `execute` becomes a `tool.execute` request, `$/progress`
 * becomes `onUpdate`, and the abort signal becomes `$/cancel`. The extension's process is
 * started here if the tool is what activates it.
 */
import * as v from "valibot";
import type { AnyTool, ToolContent } from "../../tools/types.ts";
import { describeIssues } from "../issue-text.ts";
import { type ToolSpec, ToolExecuteResultSchema, ToolProgressSchema } from "../protocol.ts";

export interface ToolRoute {
  request(
    extension: string,
    method: string,
    params: unknown,
    options: { signal?: AbortSignal; onProgress?: (value: unknown) => void },
  ): Promise<unknown>;
}

export function toolProxy(extension: string, spec: ToolSpec, route: ToolRoute): AnyTool {
  return {
    name: spec.name,
    label: spec.label ?? spec.name,
    description: spec.description,
    parameters: spec.parameters,
    ...(spec.promptSnippet !== undefined ? { promptSnippet: spec.promptSnippet } : {}),
    ...(spec.promptGuidelines ? { promptGuidelines: spec.promptGuidelines } : {}),
    ...(spec.executionMode ? { executionMode: spec.executionMode } : {}),
    ...(spec.exposure ? { exposure: spec.exposure } : {}),
    ...(spec.defaultActive !== undefined ? { defaultActive: spec.defaultActive } : {}),
    ...(spec.namespace ? { namespace: spec.namespace } : {}),
    ...(spec.annotations ? { annotations: spec.annotations } : {}),
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    async execute(toolCallId, args, signal, onUpdate) {
      const raw = await route.request(
        extension,
        "tool.execute",
        { extension, name: spec.name, toolCallId, args },
        {
          signal,
          onProgress: (value) => {
            const p = v.safeParse(ToolProgressSchema, value);
            if (p.success) onUpdate({ content: p.output.content as ToolContent[], details: p.output.details });
          },
        },
      );
      const parsed = v.safeParse(ToolExecuteResultSchema, raw);
      if (!parsed.success) throw new Error(`Extension "${extension}" returned an invalid result for ${spec.name}: ${describeIssues(parsed.issues)}`);
      const result = parsed.output;
      // A returned `isError` (and a throw in the extension, which its runner answers the same way)
      // keeps the details and structured content with the error, as upstream.
      return {
        content: result.content as ToolContent[],
        ...(result.details !== undefined ? { details: result.details } : {}),
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        ...(result.isError === true ? { isError: true } : {}),
        ...(result.terminate ? { terminate: true } : {}),
      };
    },
  };
}
