/** Minimal SSE reading for the tests that do not go through an SDK (Anthropic, raw checks). */

export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** Parses a complete SSE text: frames separated by a blank line, `event:` and `data:` lines. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const frame of text.split("\n\n")) {
    if (frame.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    events.push({ event, data: data.join("\n") });
  }
  return events;
}

/** The JSON payloads of an Anthropic stream, each checked to repeat its `event:` name as `type`. */
export function anthropicPayloads(text: string): Record<string, unknown>[] {
  return parseSse(text).map(({ event, data }) => {
    const payload = JSON.parse(data) as Record<string, unknown>;
    if (payload.type !== event) throw new Error(`event ${event} carries type ${String(payload.type)}`);
    return payload;
  });
}

export function anthropicRequest(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "fake-key", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
    ...init,
  });
}

/**
 * Sends a raw HTTP/1.1 request and returns every byte the server wrote before closing; with
 * `watch`, its `then` is called once what arrived satisfies its `enough`.
 */
export function rawExchange(url: string, request: string, watch?: { enough: (received: string) => boolean; then: () => void }): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = "";
    let told = false;
    const decoder = new TextDecoder();
    Bun.connect({
      hostname: "127.0.0.1",
      port: Number(port),
      socket: {
        open(socket) {
          socket.write(request);
        },
        data(_socket, chunk) {
          received += decoder.decode(chunk, { stream: true });
          if (watch && !told && watch.enough(received)) {
            told = true;
            watch.then();
          }
        },
        close() {
          resolve(received);
        },
        error(_socket, error) {
          reject(error);
        },
      },
    }).catch(reject);
  });
}

export function rawPost(path: string, body: string): string {
  const head = [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  return `${head.join("\r\n")}\r\n\r\n${body}`;
}
