import { describe, expect, test } from "bun:test";
import { preconnect } from "../../src/ai/preconnect.ts";

describe("preconnect", () => {
  test("opens a connection to the server of an http(s) base URL", async () => {
    let connections = 0;
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open() {
          connections++;
        },
        data() {},
      },
    });
    try {
      expect(preconnect(`http://127.0.0.1:${server.port}/v1`, {})).toBe(true);
      for (let i = 0; i < 100 && connections === 0; i++) await Bun.sleep(10);
      expect(connections).toBe(1);
    } finally {
      server.stop(true);
    }
  });

  test("does nothing through a proxy, for other schemes or without a URL", () => {
    expect(preconnect("https://api.example.com/v1", { HTTPS_PROXY: "http://proxy:3128" })).toBe(false);
    expect(preconnect("https://api.example.com/v1", { http_proxy: "http://proxy:3128" })).toBe(false);
    expect(preconnect("file:///tmp/x", {})).toBe(false);
    expect(preconnect("not a url", {})).toBe(false);
    expect(preconnect(undefined, {})).toBe(false);
  });
});
