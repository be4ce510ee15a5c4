/**
 * The plain values of the wire contract (protocol.ts): the protocol's name, frame sizes and error
 * codes. In a file of their own, with no imports, so the runner can use them without building
 * every schema of protocol.ts (and valibot) at its start; everyone else takes them from
 * protocol.ts.
 */
export const PROTOCOL = "pig-ext/1";
export const SUPPORTED_PROTOCOLS: readonly string[] = [PROTOCOL];
export const DEFAULT_MAX_FRAME_BYTES = 8 * 1024 * 1024;
/** Below this a `$/part` frame could not carry any payload next to its envelope. */
export const MIN_MAX_FRAME_BYTES = 1024;

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  HandlerError: -32000,
  Unauthorized: -32001,
  UnsupportedProtocol: -32002,
  FrameTooLarge: -32003,
  Cancelled: -32800,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
