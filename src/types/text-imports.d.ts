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

/** WebAssembly modules embedded as files (`with { type: "file" }`, session/json-check-wasm.ts): the import is their path. */
declare module "*.wasm" {
  const path: string;
  export default path;
}
