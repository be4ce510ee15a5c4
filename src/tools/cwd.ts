/** `cwd`: the session's working directory, where relative paths resolve. */
import * as v from "valibot";
import { defineTool } from "./define.ts";

export const cwdTool = defineTool({
  name: "cwd",
  description: "Show the working directory that relative paths resolve against.",
  arguments: v.object({}),
  promptSnippet: "Show the working directory",
  presentation: { summary: () => "", keep: "head", output: "text", exportCall: () => ({ head: [] }) },
  async execute(_id, _args, _signal, _onUpdate, context) {
    return { content: [{ type: "text", text: context.cwd }], details: undefined };
  },
});
