/**
 * `pi.registerProvider` across the socket: the JSON parts of the config travel to the host;
 * functions stay here (`streamSimple` is served through `provider.stream`, OAuth is not
 * offered to extension processes) and are announced by flags the host can read.
 */

export interface ProviderRegistration {
  name: string;
  config: Record<string, unknown>;
  live: Record<string, unknown>;
}

export function jsonPart(value: unknown): unknown {
  if (typeof value === "function") return undefined;
  if (Array.isArray(value)) return value.map(jsonPart);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const j = jsonPart(v);
      if (j !== undefined) out[k] = j;
    }
    return out;
  }
  return value;
}

export function providerSpec(nameOrProvider: string | Record<string, unknown>, config?: Record<string, unknown>): ProviderRegistration {
  const live = (typeof nameOrProvider === "string" ? (config ?? {}) : nameOrProvider) as Record<string, unknown>;
  const name = typeof nameOrProvider === "string" ? nameOrProvider : String(live.id ?? live.name ?? "");
  const json = jsonPart(live) as Record<string, unknown>;
  if (typeof live.streamSimple === "function") json.hasStreamSimple = true;
  if (live.oauth) json.hasOAuth = true;
  return { name, config: json, live };
}

/** Runs a registered `streamSimple` for `provider.stream`: events go out as progress. */
export async function streamProvider(
  live: Record<string, unknown>,
  model: unknown,
  context: unknown,
  options: Record<string, unknown> | undefined,
  signal: AbortSignal,
  progress: (event: unknown) => void,
): Promise<{ message: unknown }> {
  const stream = live.streamSimple as ((m: unknown, c: unknown, o: unknown) => AsyncIterable<Record<string, unknown>> & { result?: () => Promise<unknown> }) | undefined;
  if (!stream) throw new Error("this provider has no streamSimple");
  const events = stream(model, context, { ...(options ?? {}), signal });
  let message: unknown;
  for await (const event of events) {
    progress(event);
    if (event.type === "done") message = event.message;
    if (event.type === "error") message = event.error;
  }
  if (message === undefined && typeof events.result === "function") message = await events.result();
  return { message };
}
