/**
 * Amazon Bedrock's Converse API, streamed (`POST <endpoint>/model/<model id>/converse-stream`),
 * over plain fetch: the body Pi 0.87.1 sends (bedrock-request.ts), signed with SigV4 or sent with
 * a Bedrock API key (aws-credentials.ts, bedrock-endpoint.ts), the answer read from AWS's binary
 * event stream (aws-eventstream.ts, bedrock-stream.ts).
 *
 * Errors end the stream with an `error` event worded as Pi words them: `<Kind>: <message>` for
 * Bedrock's exceptions, in an HTTP answer (`x-amzn-errortype`) or in the stream ("Throttling
 * error: …", "Validation error: …"), `<status>: <body>` for an answer that is not Bedrock's, the
 * credential problem for missing or unreadable credentials. No retries here; the agent retries.
 */
import { ERROR_BODY_LIMIT, ResponseWatch } from "../response-watch.ts";
import { retryAfterMs } from "../retry-after.ts";
import { doneEvent, newAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type InvalidArguments, type LlmContext, type Model, type StreamFunction } from "../types.ts";
import { observed } from "../stream-observer.ts";
import { type EventStreamMessage, iterateEventStream } from "./aws-eventstream.ts";
import { resolveBedrockAuth } from "./aws-credentials.ts";
import { bedrockEndpoint, signedBedrockHeaders } from "./bedrock-endpoint.ts";
import { buildBedrockBody, type BedrockStreamOptions } from "./bedrock-request.ts";
import { bedrockMessageEvents, exceptionText } from "./bedrock-stream.ts";
import { finalHeaders, finalPayload, presentHeaders } from "./request-hooks.ts";
import { DEFAULT_HEADERS_TIMEOUT_MS, postWithRetries } from "./retrying-post.ts";
import { ABORTED_MESSAGE, cleanScratch, errorText, failureEvent, StreamAbort, StreamFailure } from "./stream-failure.ts";

export type { BedrockStreamOptions } from "./bedrock-request.ts";

export { ABORTED_MESSAGE };
/** The AWS SDK's default: no timeout of its own until the answer starts (pig's idle timeout watches stalls). */
export const DEFAULT_TIMEOUT_MS = DEFAULT_HEADERS_TIMEOUT_MS;

/** Names the signature covers or the transport owns: a caller's header of these names is dropped, as in Pi. */
function reservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("x-amz-") || lower === "authorization" || lower === "host" || lower === "content-length";
}

export const streamBedrockConverse: StreamFunction = (model, context, options) => streamConverse(model, context, options as BedrockStreamOptions);

async function* streamConverse(model: Model, context: LlmContext, options: BedrockStreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const output: AssistantMessage = { ...newAssistantMessage(model), stopReason: "pending" };
  const userSignal = options.signal;
  const abort = new StreamAbort(userSignal);
  // The event stream's own limit on a message's length (aws-eventstream.ts) stands in for the SSE ones.
  const watch = new ResponseWatch(options.idleTimeoutMs, model.provider, true);
  let body: ReadableStream<Uint8Array> | undefined;
  // Read from the environment here, so the agent's redactor never saw them: errors are scrubbed of them below.
  let secrets: string[] = [];
  try {
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    const env = options.env ?? process.env;
    const auth = await resolveBedrockAuth(options.apiKey, env, abort.controller.signal);
    secrets = auth.kind === "bearer" ? [auth.token] : [auth.credentials.secretAccessKey, auth.credentials.sessionToken ?? ""];
    const endpoint = bedrockEndpoint(model, env, auth.kind === "sigv4" ? auth.profileRegion : undefined);
    const payload = JSON.stringify(await finalPayload(buildBedrockBody(model, context, options, endpoint.region), options));

    // Caller headers first, so that the signature covers them (Pi adds them before the SDK signs).
    const extra: Record<string, string> = {};
    for (const source of [model.headers, options.headers]) {
      for (const [name, value] of Object.entries(source ?? {})) if (!reservedHeader(name)) extra[name.toLowerCase()] = value;
    }
    const shown = auth.kind === "bearer" ? { ...extra, "content-type": "application/json", authorization: `Bearer ${auth.token}` } : { ...extra, "content-type": "application/json" };
    const hooked = presentHeaders(await finalHeaders(shown, options));
    let headers: Record<string, string>;
    if (auth.kind === "bearer") headers = hooked;
    else {
      const unsigned = Object.fromEntries(Object.entries(hooked).filter(([name]) => !reservedHeader(name)));
      const signed = signedBedrockHeaders(endpoint, payload, auth.credentials, new Date(), unsigned);
      headers = { ...signed.signed, authorization: signed.authorization };
      // fetch sets these two itself, from the URL and the body (with the values signed).
      delete headers.host;
      delete headers["content-length"];
    }

    // Sent once, whatever retry.provider.maxRetries says: the agent retries.
    const response = await postWithRetries(endpoint.url, { headers, body: payload }, options, abort.controller, watch, {
      retries: 0,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      timeoutMessage: "Request timed out.",
      retryableStatus: () => false,
      backoffMs: () => 0,
      httpFailure,
    });
    if (!response.body) throw new Error("Bedrock answered without a body");
    body = response.body;
    const invalidArguments: InvalidArguments[] = [];
    yield* bedrockMessageEvents(observed(iterateEventStream(body), options.onStreamEvent, bedrockEventData), model, output, invalidArguments, () => watch.progress());
    if (userSignal?.aborted) throw new Error(ABORTED_MESSAGE);
    if (output.stopReason === "pending") throw new Error("Bedrock stream ended without a stop reason");
    if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error(output.errorMessage || "An unknown error occurred");
    cleanScratch(output);
    yield doneEvent(output.stopReason, output, invalidArguments);
  } catch (error) {
    yield failureEvent(output, error, { signal: userSignal, watch, secrets });
  } finally {
    await body?.cancel().catch(() => undefined);
    abort.release();
  }
}

/** Bedrock's error answer: `x-amzn-errortype` names the kind, the JSON body's `message` says why. */
async function httpFailure(response: Response): Promise<StreamFailure> {
  const text = (await response.text().catch((error: unknown) => errorText(error))).slice(0, ERROR_BODY_LIMIT);
  const kind = (response.headers.get("x-amzn-errortype") ?? "").split(":")[0]?.trim();
  let message: string | undefined;
  try {
    const json = JSON.parse(text) as { message?: unknown; Message?: unknown };
    const value = json.message ?? json.Message;
    if (typeof value === "string") message = value;
  } catch {
    // Not JSON (a proxy's page): the status and the text say what happened.
  }
  const wait = retryAfterMs(response.headers);
  if (kind && message !== undefined) return new StreamFailure(exceptionText(kind, message), wait);
  return new StreamFailure(`${response.status}: ${text || "(no body)"}`, wait);
}

/** A Bedrock event as the AWS SDK presents it: `{<event type>: payload}`. */
function bedrockEventData(message: EventStreamMessage): unknown {
  const text = new TextDecoder().decode(message.payload);
  let payload: unknown = text;
  try {
    payload = JSON.parse(text);
  } catch {
    // An event whose payload is not JSON is shown as its text.
  }
  return { [String(message.headers[":event-type"] ?? message.headers[":exception-type"] ?? "event")]: payload };
}
