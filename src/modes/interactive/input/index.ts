/** The interactive prompt: what the interactive mode needs from this folder. */
export { combineProviders, type CompletionItem, type CompletionProvider, type CompletionResult } from "./completion.ts";
export { InputEditor, type InputEditorOptions, type SubmitKind, type TerminalInput, type TerminalOutputStream } from "./editor.ts";
export { fileMentionProvider, type FileMentionOptions } from "./file-mentions.ts";
export { pathCompletionProvider, type PathCompletionOptions } from "./path-completion.ts";
export { historyPath, PromptHistory } from "./history.ts";
export type { KeyEvent, KeyPress } from "./keys.ts";
export { slashCommandProvider, type CompletableCommand } from "./slash-commands.ts";
