/**
 * One extension's handlers for one event, run in registration order and combined by the event's
 * rule in the event table (util/extension-events.ts), which is upstream Pi's, through the same
 * chain (util/combine.ts) the host combines several extensions' answers with. A handler that
 * throws is reported (on stderr and, through `onError`, to the host, which makes it the
 * session's `extension_error`) and skipped, except for `tool_call`, where a throw blocks (the error goes back to the host as the answer, which blocks with its message).
 */
import { failureEndsChain, startChain } from "../../util/combine.ts";
import { combinatorOf } from "../../util/extension-events.ts";
import type { ExtensionContext, ExtensionHandler } from "../api/types.ts";

type Json = Record<string, unknown>;

/** Told of each handler that threw (the chain goes on without it). */
export type HandlerErrorSink = (event: string, error: unknown) => void;

function report(extension: string, event: string, error: unknown, onError?: HandlerErrorSink): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`[${extension}] ${event} handler failed: ${text}\n`);
  try {
    onError?.(event, error);
  } catch {
    // Reporting must not break the chain.
  }
}

/** What some events need from the host while their handlers run. */
export interface EventServices {
  /** The context of an open session boundary with `entries` appended (a synchronous host call). */
  boundaryContext(boundary: string, entries: unknown[]): unknown;
}

export async function runEventHandlers(
  name: string,
  eventName: string,
  payload: Json,
  handlers: readonly ExtensionHandler[],
  ctx: ExtensionContext,
  onError?: HandlerErrorSink,
  services?: EventServices,
): Promise<unknown> {
  const combine = combinatorOf(eventName);
  // Handlers see (and may edit in place) the event as the ones before them left it.
  const { boundary, ...rest } = payload;
  const chain = startChain(combine, { type: eventName, ...(combine.rule === "boundary" ? rest : payload) });
  if (combine.rule === "boundary") showBoundaryContext(chain.payload, String(boundary), services);
  const handlerCtx = eventName === "before_agent_start" ? withChainedPrompt(ctx, chain.payload) : ctx;
  for (const handler of handlers) {
    let answer: unknown;
    try {
      answer = await handler(chain.payload, handlerCtx);
    } catch (error) {
      // The error goes back to the host as the answer, which blocks with its message.
      if (failureEndsChain(combine)) throw error;
      report(name, eventName, error, onError);
      continue;
    }
    if (chain.step(answer)) break;
  }
  return chain.result();
}

/**
 * A boundary's `context`: the preview of the context with the drafts as they are when a handler
 * reads it, asked of the host then (and again only when the drafts change).
 */
function showBoundaryContext(event: Json, boundary: string, services?: EventServices): void {
  let cached: { for: unknown; value: unknown } | undefined;
  Object.defineProperty(event, "context", {
    enumerable: true,
    configurable: true,
    get: () => {
      const entries = event.entries as unknown[];
      if (cached?.for !== entries) cached = { for: entries, value: services?.boundaryContext(boundary, entries) };
      return cached.value;
    },
  });
}

/**
 * Inside `before_agent_start`, `ctx.getSystemPrompt()` is the prompt as the handlers so far left
 * it (upstream's rule), not the session's: the context's other members are the same.
 */
function withChainedPrompt(ctx: ExtensionContext, event: Json): ExtensionContext {
  const chained = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as ExtensionContext;
  chained.getSystemPrompt = () => String(event.systemPrompt ?? "");
  return chained;
}
