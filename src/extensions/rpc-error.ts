/** An error answer of pig-ext/1 (JSON-RPC shaped): its code, message and optional data, on either side. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}
