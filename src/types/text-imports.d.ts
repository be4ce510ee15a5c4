/** Markdown files imported as text (`with { type: "text" }`), embedded into the binary. */
declare module "*.md" {
  const text: string;
  export default text;
}
