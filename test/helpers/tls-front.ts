/**
 * An HTTPS front for the fake LLM server: a provider whose host pig derives itself (GitHub
 * Copilot's token names `https://api.<host>`) can only be pointed at a test server that speaks
 * TLS. The front forwards every request to the plain server as it is and streams the answer
 * back. Its certificate (test/fixtures/tls, for 127.0.0.1 only) is trusted by pig through
 * `NODE_EXTRA_CA_CERTS` (`trustEnv`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const TLS = join(import.meta.dir, "..", "fixtures", "tls");
export const LOOPBACK_CERT = join(TLS, "loopback.cert.pem");

export interface TlsFront {
  /** `127.0.0.1:PORT`, without a scheme. */
  host: string;
  /** The variables that make pig trust the front's certificate. */
  trustEnv: Record<string, string>;
  close(): Promise<void>;
}

export function startTlsFront(target: string): TlsFront {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    tls: { cert: readFileSync(LOOPBACK_CERT, "utf8"), key: readFileSync(join(TLS, "loopback.key.pem"), "utf8") },
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      const answer = await fetch(`${target}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, signal: request.signal });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },
  });
  return {
    host: `127.0.0.1:${server.port}`,
    trustEnv: { NODE_EXTRA_CA_CERTS: LOOPBACK_CERT },
    close: () => server.stop(true),
  };
}
