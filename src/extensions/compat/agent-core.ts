/** `pi-agent-core` as extensions import it: the message and output helpers it shares with pig, and `Agent`. */
export { convertToLlm, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, estimateTokens, formatSize, serializeConversation, truncateHead, truncateLine, truncateTail } from "./coding-agent.ts";
export { createBashTool, createEditTool, createReadTool, createWriteTool } from "./tools.ts";
export { uuidv7 } from "./ai.ts";
export { Agent, setDefaultStreamFn } from "./agent.ts";
