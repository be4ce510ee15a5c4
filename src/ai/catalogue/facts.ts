/** What the catalogue knows about a built-in provider without loading its models. */
export interface ProviderFacts {
  id: string;
  /** Shown in pickers and the providers table ("Google Vertex AI"). */
  name: string;
  /** The environment variables holding its key, in order of preference (may be empty). */
  envKeys: readonly string[];
  /** What an API-key login asks for ("Gemini API key"); absent when the provider takes none. */
  apiKeyLogin?: string;
  /** The subscription the provider's OAuth login signs in with; absent when it has none. */
  subscriptionLogin?: string;
  /** The model chosen when only the provider is known. */
  defaultModel?: string;
  modelCount: number;
}
