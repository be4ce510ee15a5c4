// The registry pi packages that pi-packages.ts compares and scripts/bench/packages.ts times.
/** The test subjects: popular pi packages, each pinned, chosen for what they exercise. */
export const SUBJECTS: readonly { name: string; version: string; why: string }[] = [
  { name: "pi-subagents", version: "0.67.0", why: "extension, skills and prompts; optional Pi peers; a private Pi package (pi-server) in its dependencies" },
  { name: "pi-prompt-template-model", version: "0.12.2", why: "extension and skills; Pi and typebox as peers" },
  { name: "pi-web-access", version: "0.28.0", why: "tools with many dependencies" },
  { name: "pi-mcp-adapter", version: "2.36.0", why: "MCP tools; native and pure-JS dependencies" },
  { name: "pi-autoresearch", version: "1.6.0", why: "an extensions folder and skills, no manifest key" },
  { name: "pi-btw", version: "0.4.1", why: "an extension and a skill, overlay UI" },
  { name: "pi-themes", version: "1.0.1", why: "themes and an extension" },
  { name: "pi-plan-mode", version: "0.2.4", why: "built JavaScript importing the 0.73-era @mariozechner scope" },
  { name: "pi-lens", version: "3.8.73", why: "built JavaScript with a private copy of pi-tui; native modules" },
  { name: "pi-aliases", version: "1.0.7", why: "commands that stand for built-in ones" },
  { name: "pi-markdown-preview", version: "0.16.0", why: "commands and a tool that render Markdown for the terminal, a browser or a PDF" },
  { name: "pi-mermaid", version: "0.3.0", why: "a command; diagrams drawn in the TUI" },
  { name: "pi-sync-system-theme", version: "0.2.5", why: "commands following the terminal's light or dark background" },
  { name: "pi-system-theme", version: "0.5.0", why: "a command switching the theme with the system's appearance" },
  { name: "@baochunli/pi-collaborating-agents", version: "0.4.6", why: "a scoped name; tools, commands, a skill and a status" },
  { name: "@aliou/pi-utils-settings", version: "0.19.2", why: "skills only, no extension" },
  { name: "@aliou/pi-processes", version: "0.12.0", why: "three extensions of one package talking over pi.events; a tool, widgets and a skill" },
];
