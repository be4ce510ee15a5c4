import { describe, expect, test } from "bun:test";
import { hideUrlCredentials } from "../../src/util/redact.ts";

describe("hideUrlCredentials", () => {
  test("the user and password of a URL are replaced, the rest of the line stays", () => {
    expect(hideUrlCredentials("fake/m at https://alice:s3cret@llm.example/v1/chat/completions failed")).toBe(
      "fake/m at https://***@llm.example/v1/chat/completions failed",
    );
    expect(hideUrlCredentials("git:https://ghp_token123@github.com/o/r and http://u:p@proxy:3128")).toBe(
      "git:https://***@github.com/o/r and http://***@proxy:3128",
    );
    expect(hideUrlCredentials("socks5://user:p%40ss@127.0.0.1:1080")).toBe("socks5://***@127.0.0.1:1080");
  });

  test("URLs without credentials, addresses and an @ in a path are left alone", () => {
    const text = "https://host/v1 git@github.com:o/r.git me@example.com https://host/@scope/pkg npm:@scope/pkg@1.0";
    expect(hideUrlCredentials(text)).toBe(text);
  });
});
