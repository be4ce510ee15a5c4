/** The major version of a `gemini-N…` model id (`gemini-live-N…` too), else undefined: several Google rules start at Gemini 3. */
export function geminiMajorVersion(modelId: string): number | undefined {
  const match = /^gemini(?:-live)?-(\d+)/.exec(modelId.toLowerCase());
  return match ? Number.parseInt(match[1]!, 10) : undefined;
}
