/**
 * One server's connection, in explicit states: `connecting`, `connected` (with its tools),
 * `failed` (the error, and a stdio server's stderr), `needs-sign-in` (an HTTP server that
 * answered 401 with no sign-in ready), `disconnected` (it dropped after connecting: the next call
 * connects again), `closed`. A changed tool list (`notifications/tools/list_changed`) is listed
 * again and handed on.
 */
import { McpClient, type ClientInfo } from "./client.ts";
import type { McpServerConfig } from "./config.ts";
import { McpNeedsSignIn } from "./http-transport.ts";
import { createTransport, type LaunchContext } from "./launch.ts";
import type { McpTool } from "./protocol.ts";
import type { McpTransport } from "./transport.ts";

export type ConnectionState = "connecting" | "connected" | "failed" | "needs-sign-in" | "disconnected" | "closed";

export interface ConnectionEvents {
  /** The tools changed (connected, listed again, or gone). */
  tools(connection: McpServerConnection): void;
  /** The state changed. */
  state(connection: McpServerConnection): void;
}

export class McpServerConnection {
  state: ConnectionState = "connecting";
  error: string | undefined;
  stderr: string | undefined;
  tools: McpTool[] = [];
  instructions: string | undefined;
  private client: McpClient | undefined;
  private connecting: Promise<McpClient> | undefined;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly launch: LaunchContext,
    private readonly info: ClientInfo,
    private readonly events: ConnectionEvents,
  ) {}

  /** Per-request timeout: the config's seconds, upstream's 60 s by default. */
  get timeoutMs(): number {
    return (this.config.timeout ?? 60) * 1000;
  }

  /** Connects (once at a time); resolves whether it worked — the state says how it went. */
  async start(): Promise<void> {
    await this.getClient().catch(() => undefined);
  }

  /** The connected client, connecting first when the server is not connected (again). */
  getClient(): Promise<McpClient> {
    if (this.state === "closed") return Promise.reject(new Error(`MCP server "${this.name}" is closed`));
    if (this.client && this.state === "connected") return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private setState(state: ConnectionState, error?: string): void {
    this.state = state;
    this.error = error;
    this.events.state(this);
  }

  private async connect(): Promise<McpClient> {
    this.setState("connecting");
    let transport: McpTransport | undefined;
    let client: McpClient | undefined;
    try {
      transport = createTransport(this.name, this.config, this.launch);
      client = new McpClient(transport, this.info, this.timeoutMs);
      const init = await client.connect();
      this.instructions = init.instructions;
      const tools = await client.listTools();
      if (this.state === "closed") {
        await client.close();
        throw new Error(`MCP server "${this.name}" is closed`);
      }
      this.client = client;
      const current = client;
      client.onNotification("notifications/tools/list_changed", () => void this.relist(current));
      client.onClose((reason) => {
        if (this.client !== current || this.state === "closed") return;
        this.client = undefined;
        this.stderr = transport?.stderrTail || undefined;
        this.setState("disconnected", reason);
      });
      this.tools = tools;
      this.stderr = undefined;
      this.setState("connected");
      this.events.tools(this);
      return client;
    } catch (error) {
      this.stderr = transport?.stderrTail || undefined;
      await client?.close().catch(() => undefined);
      if (this.state === "closed") throw error;
      if (error instanceof McpNeedsSignIn) this.setState("needs-sign-in", error.message);
      else this.setState("failed", error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  private async relist(client: McpClient): Promise<void> {
    try {
      const tools = await client.listTools();
      if (this.client !== client) return;
      this.tools = tools;
      this.events.tools(this);
    } catch {
      // The connection's own failure is told by its close.
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.state = "closed";
    this.tools = [];
    await client?.close().catch(() => undefined);
    // A connection under way is closed once it is made (connect() checks the state).
    await this.connecting?.catch(() => undefined);
  }
}
