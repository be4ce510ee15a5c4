/**
 * Pi's `highlightCode` and `getLanguageFromPath` for extensions. pig's extension theme draws
 * plain text (theme.ts), so code comes back as its lines, unstyled, as upstream's does with a
 * theme that has no colours; the language names are upstream's, for extensions that branch on
 * them.
 */
import { basename } from "node:path";

/** Each language and the file extensions (or whole lower-case file names) that mean it. */
const LANGUAGES: Record<string, readonly string[]> = {
  typescript: ["ts", "tsx"],
  javascript: ["js", "jsx", "mjs", "cjs"],
  python: ["py"],
  ruby: ["rb"],
  rust: ["rs"],
  go: ["go"],
  java: ["java"],
  kotlin: ["kt"],
  swift: ["swift"],
  c: ["c", "h"],
  cpp: ["cpp", "cc", "cxx", "hpp"],
  csharp: ["cs"],
  php: ["php"],
  bash: ["sh", "bash", "zsh"],
  fish: ["fish"],
  powershell: ["ps1"],
  sql: ["sql"],
  html: ["html", "htm"],
  css: ["css"],
  scss: ["scss"],
  sass: ["sass"],
  less: ["less"],
  json: ["json"],
  yaml: ["yaml", "yml"],
  toml: ["toml"],
  xml: ["xml"],
  markdown: ["md", "markdown"],
  dockerfile: ["dockerfile"],
  makefile: ["makefile"],
  cmake: ["cmake"],
  lua: ["lua"],
  perl: ["perl"],
  r: ["r"],
  scala: ["scala"],
  clojure: ["clj"],
  elixir: ["ex", "exs"],
  erlang: ["erl"],
  haskell: ["hs"],
  ocaml: ["ml"],
  vim: ["vim"],
  graphql: ["graphql"],
  protobuf: ["proto"],
  hcl: ["tf", "hcl"],
};

const BY_EXTENSION = new Map(Object.entries(LANGUAGES).flatMap(([language, extensions]) => extensions.map((ext) => [ext, language] as const)));

/** The language of a file by its extension (a name without one, like `Makefile`, counts whole). */
export function getLanguageFromPath(filePath: string): string | undefined {
  const name = basename(String(filePath ?? "")).toLowerCase();
  const dot = name.lastIndexOf(".");
  return BY_EXTENSION.get(dot === -1 ? name : name.slice(dot + 1));
}

/** `code`'s lines, for a component to draw; pig's extension UI has no colours to add. */
export function highlightCode(code: string, _lang?: string): string[] {
  return String(code ?? "").split("\n");
}
