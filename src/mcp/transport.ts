/**
 * How the client reaches a server: messages out, messages in, and the end of the connection.
 * Two kinds exist, a child process on stdio (stdio-transport.ts) and streamable HTTP
 * (http-transport.ts); the client (client.ts) is the same over both.
 */
import type { JsonRpcMessage } from "./protocol.ts";

export interface TransportHandlers {
  /** A parsed JSON value the server sent (checked by the client). */
  message(value: unknown): void;
  /** The connection ended (the process exited, the session was closed); said once. */
  closed(reason: string): void;
}

export interface McpTransport {
  /** Opens the connection; rejects when it cannot be opened (the program is missing, …). */
  start(handlers: TransportHandlers): Promise<void>;
  send(message: JsonRpcMessage, signal?: AbortSignal): Promise<void>;
  /** The version initialize agreed on (HTTP sends it as a header from then on). */
  setProtocolVersion?(version: string): void;
  /** Ends the connection and whatever it started; safe to call twice. */
  close(): Promise<void>;
  /** The last lines the server wrote to stderr, for the error shown when it fails. */
  readonly stderrTail?: string;
}

/** The connection ended or could not be made: pending requests fail with it. */
export class McpConnectionError extends Error {
  override name = "McpConnectionError";
}
