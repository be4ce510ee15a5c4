import { describe, expect, test } from "bun:test";
import { codeBox, noticeLines, shownUrl } from "../../../src/modes/interactive/login/login-notices.ts";
import { stripAnsi } from "../../../src/util/width.ts";

const plain = (lines: string[]) => lines.map(stripAnsi);
const URL_LONG = `https://auth.example.com/oauth/authorize?client_id=abc&redirect_uri=${encodeURIComponent("http://localhost:53692/callback")}&scope=${"x".repeat(300)}&state=s1`;

describe("login notices", () => {
  test("a sign-in URL is one line, whole, however long", () => {
    const lines = plain(noticeLines({ kind: "open_url", url: URL_LONG, instructions: "Sign in, then come back." }, { hyperlinks: false }, { opened: false, why: "PIG_NO_BROWSER is set" }));
    expect(lines).toContain(URL_LONG);
    expect(lines.join("\n")).toContain("pig did not open one: PIG_NO_BROWSER is set");
    expect(lines.at(-1)).toBe("Sign in, then come back.");
  });

  test("controls in a provider's URL or text are shown, never obeyed, and such a URL is not linked", () => {
    const hostile = "https://evil.example/\x1b]52;c;AAAA\x07x";
    const shown = shownUrl(hostile, { hyperlinks: true });
    expect(shown).not.toContain("\x1b]52");
    expect(shown).not.toContain("\x1b]8;");
    expect(stripAnsi(shown)).toBe("https://evil.example/␛]52;c;AAAA␇x");
    const info = plain(noticeLines({ kind: "progress", message: "step\x1b[2Kdone" }, { hyperlinks: false }));
    expect(info).toEqual(["step␛[2Kdone"]);
  });

  test("a clean URL is an OSC 8 link to itself where the terminal shows links", () => {
    expect(shownUrl("https://a.example/x", { hyperlinks: true })).toContain("\x1b]8;;https://a.example/x\x07https://a.example/x\x1b]8;;\x07");
    expect(shownUrl("https://a.example/x", { hyperlinks: false })).not.toContain("\x1b]8;");
  });

  test("a device code stands in a box, with the page and how long it lasts", () => {
    expect(plain(codeBox("ABCD-1234"))).toEqual(["  ┌─────────────┐", "  │  ABCD-1234  │", "  └─────────────┘"]);
    const lines = plain(noticeLines({ kind: "device_code", userCode: "ABCD-1234", verificationUri: "https://github.com/login/device", expiresInSeconds: 900 }, { hyperlinks: false }));
    expect(lines[1]).toBe("https://github.com/login/device");
    expect(lines).toContain("  │  ABCD-1234  │");
    expect(lines.at(-1)).toContain("the code expires in 15 minutes");
    expect(lines.at(-1)).toContain("Escape cancels");
  });

  test("info links are listed with their labels", () => {
    const lines = plain(noticeLines({ kind: "info", message: "Manage your plan", links: [{ url: "https://a.example/plan", label: "Plan" }, { url: "https://a.example/b" }] }, { hyperlinks: false }));
    expect(lines).toEqual(["Manage your plan", "  Plan: https://a.example/plan", "  https://a.example/b"]);
  });
});
