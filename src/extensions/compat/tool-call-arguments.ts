/**
 * Upstream pi-ai's helpers for tool-call arguments that stream in pieces, as a custom provider
 * (`pi.registerProvider` with `streamSimple`) uses them: the partial arguments while the call
 * streams, and one full parse when it ends. pig's own partial-JSON parser does the reading.
 */
import { parseFinalArguments, parsePartialJson } from "../../ai/partial-json.ts";

type Arguments = Record<string, unknown>;

/** The arguments the text read so far gives: `{}` until an object starts. */
export function parseStreamingJson(partialJson: string | undefined): Arguments {
  return partialJson ? parsePartialJson(partialJson) : {};
}

/** A finished call's arguments; text that is not a whole JSON object gives `{}` and the reason. */
export function parseToolCallArguments(json: string | undefined): { arguments: Arguments; argumentsError?: string } {
  const text = json ?? "";
  const { value, complete } = parseFinalArguments(text);
  if (complete) return { arguments: value };
  return { arguments: {}, argumentsError: `Tool arguments are not a complete JSON object\n\nReceived arguments:\n${text}` };
}

/**
 * One streaming call's argument text and its partial arguments. `append` returns a new object
 * only when the arguments changed, so a caller can tell a delta that added nothing.
 */
export class ToolCallArgumentsStream {
  #text = "";
  #arguments: Arguments = {};
  #shown = "{}";

  get text(): string {
    return this.#text;
  }

  append(delta: string): Arguments {
    this.#text += delta;
    return this.#partial();
  }

  /** The provider's whole text so far: the missing piece as `delta` when it continues what was read. */
  replace(text: string): { readonly delta: string | undefined; readonly arguments: Arguments } {
    const delta = text.startsWith(this.#text) ? text.slice(this.#text.length) : undefined;
    this.#text = text;
    return { delta, arguments: this.#partial() };
  }

  finish(): { arguments: Arguments; argumentsError?: string } {
    return parseToolCallArguments(this.#text);
  }

  #partial(): Arguments {
    const next = parseStreamingJson(this.#text);
    const shown = JSON.stringify(next);
    if (shown !== this.#shown) {
      this.#shown = shown;
      this.#arguments = next;
    }
    return this.#arguments;
  }
}
