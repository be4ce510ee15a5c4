/**
 * What the streamable-HTTP transport asks of an MCP server's sign-in: the headers for each
 * request, and what to do when the server answers 401. Implemented by `src/mcp/oauth/`.
 */
export interface McpAuthorizer {
  /** Headers to send with every request (e.g. `Authorization: Bearer …`), refreshing a token that has expired. */
  headers(): Promise<Record<string, string>>;
  /**
   * The server answered 401 (or 403 with `insufficient_scope`): returns true when new credentials
   * are ready and the request should be sent once more, false when the user must sign in first.
   */
  unauthorized(response: Response): Promise<boolean>;
}
