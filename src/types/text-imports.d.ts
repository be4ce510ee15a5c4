/** Markdown files imported as text (`with { type: "text" }`), embedded into the binary. */
declare module "*.md" {
  const text: string;
  export default text;
}

/** Generated data files embedded as files and read on demand (ai/catalogue): the import is their path. */
declare module "*.jsonl" {
  const text: string;
  export default text;
}
