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
];
