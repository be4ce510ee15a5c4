/** Markdown files imported as text (`with { type: "text" }`), embedded into the binary. */
declare module "*.md" {
  const text: string;
  export default text;
}

/** Generated data files imported as text and parsed on demand (ai/catalogue). */
declare module "*.jsonl" {
  const text: string;
  export default text;
}
