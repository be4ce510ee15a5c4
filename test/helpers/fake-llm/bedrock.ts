/**
 * Amazon Bedrock ConverseStream (`POST …/model/{modelId}/converse-stream`): AWS event-stream
 * binary frames — messageStart, per block contentBlockStart (tool use only) / contentBlockDelta… /
 * contentBlockStop, messageStop, metadata — each payload JSON with Bedrock's `p` padding field.
 * A script's `midStreamError` becomes an exception frame (`modelStreamErrorException`); HTTP
 * errors carry Bedrock's `{"message"}` body and `x-amzn-errortype` header.
 *
 * When the server is given AWS credentials or a bearer token, every Bedrock request must carry a
 * valid SigV4 signature (checked with pig's own signer over the headers the request signed) or
 * the token; otherwise the answer is Bedrock's 403.
 */
import { crc32 } from "../../../src/ai/providers/aws-eventstream.ts";
import { signRequest, type AwsCredentials } from "../../../src/ai/providers/aws-sigv4.ts";
import { chunks, type IdMaker, type Plan } from "./common.ts";
import type { ScriptError } from "./script.ts";

const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
};

const encoder = new TextEncoder();

/** One event-stream message whose headers are all strings (type 7), as Bedrock sends them. */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const parts: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = encoder.encode(name);
    const valueBytes = encoder.encode(value);
    parts.push(nameBytes.length, ...nameBytes, 7, valueBytes.length >> 8, valueBytes.length & 0xff, ...valueBytes);
  }
  const headerBytes = Uint8Array.from(parts);
  const total = 12 + headerBytes.length + payload.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headerBytes.length);
  view.setUint32(8, crc32(out, 0, 8));
  out.set(headerBytes, 12);
  out.set(payload, 12 + headerBytes.length);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}

/** Bedrock pads each event with a `p` field of letters so sizes do not reveal the content. */
function event(type: string, payload: Record<string, unknown>): Uint8Array {
  const body = encoder.encode(JSON.stringify({ ...payload, p: "abcdefghijklmnopqrstuvwxyzABCDEFGH".slice(0, 8 + (type.length % 20)) }));
  return encodeEventStreamMessage({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, body);
}

export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return encodeEventStreamMessage(
    { ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" },
    encoder.encode(JSON.stringify({ message })),
  );
}

export function bedrockFrames(plan: Plan, ids: IdMaker): Uint8Array[] {
  const frames: Uint8Array[] = [];
  const { prompt, completion, cached } = plan.usage;
  frames.push(event("messageStart", { role: "assistant" }));
  let index = 0;
  if (plan.thinking !== "") {
    for (const piece of chunks(plan.thinking, plan.chunkSize)) {
      frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: piece } } }));
    }
    frames.push(
      event("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { signature: `fakesig_${ids.next("br_")}` } } }),
    );
    frames.push(event("contentBlockStop", { contentBlockIndex: index }));
    index += 1;
  }
  if (plan.text !== "") {
    for (const piece of chunks(plan.text, plan.chunkSize)) {
      frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { text: piece } }));
    }
    frames.push(event("contentBlockStop", { contentBlockIndex: index }));
    index += 1;
  }
  for (const call of plan.toolCalls) {
    frames.push(
      event("contentBlockStart", {
        contentBlockIndex: index,
        start: { toolUse: { toolUseId: call.id ?? ids.next("tooluse_"), name: call.name } },
      }),
    );
    for (const piece of chunks(call.args, plan.chunkSize)) {
      frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: piece } } }));
    }
    frames.push(event("contentBlockStop", { contentBlockIndex: index }));
    index += 1;
  }
  if (plan.midStreamError !== undefined) {
    frames.push(exceptionFrame("modelStreamErrorException", plan.midStreamError));
    return frames;
  }
  frames.push(event("messageStop", { stopReason: STOP_REASONS[plan.finishReason] ?? plan.finishReason }));
  // Like Anthropic's, Bedrock's inputTokens leave out cache reads.
  const input = Math.max(0, prompt - cached);
  frames.push(
    event("metadata", {
      usage: {
        inputTokens: input,
        outputTokens: completion,
        totalTokens: input + cached + completion,
        cacheReadInputTokens: cached,
        cacheWriteInputTokens: 0,
      },
      metrics: { latencyMs: 42 },
    }),
  );
  return frames;
}

const ERROR_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

export function bedrockErrorResponse(error: ScriptError, requestId: string): Response {
  const type = error.type ?? ERROR_TYPES[error.status] ?? "InternalServerException";
  return Response.json(
    { message: error.message },
    {
      status: error.status,
      headers: {
        "x-amzn-requestid": requestId,
        "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        ...error.headers,
      },
    },
  );
}

export interface BedrockAuth {
  /** Requests must be SigV4-signed with these (region and service are read from the credential scope). */
  credentials?: AwsCredentials;
  /** Or carry `Authorization: Bearer <token>`. */
  bearerToken?: string;
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

/** Undefined when the request passes; else the reason, as Bedrock's 403 message. */
export function checkBedrockAuth(request: Request, rawBody: string, auth: BedrockAuth): string | undefined {
  const header = request.headers.get("authorization") ?? "";
  if (auth.bearerToken !== undefined && header === `Bearer ${auth.bearerToken}`) return undefined;
  const credentials = auth.credentials;
  if (!credentials) return "Authorization header requires a valid bearer token.";
  const match = AUTHORIZATION.exec(header);
  if (!match) return "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters.";
  const [, keyId, , region, service, signedHeaders, signature] = match;
  if (keyId !== credentials.accessKeyId) return "The security token included in the request is invalid.";
  const token = request.headers.get("x-amz-security-token") ?? undefined;
  if (token !== credentials.sessionToken) return "The security token included in the request is invalid.";
  const headers: Record<string, string> = {};
  for (const name of signedHeaders!.split(";")) headers[name] = request.headers.get(name) ?? "";
  const url = new URL(request.url);
  const expected = signRequest(
    { method: request.method, path: url.pathname, query: url.search.slice(1), headers, body: rawBody },
    credentials,
    { region: region!, service: service!, amzDate: request.headers.get("x-amz-date") ?? "" },
  );
  if (expected.signature !== signature) {
    return "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.";
  }
  return undefined;
}
