import { describe, expect, test } from "bun:test";
import { browserCommand, browserUnavailable, isWebUrl, openBrowser } from "../../../src/util/open-browser.ts";

describe("opening the sign-in page", () => {
  test("PIG_NO_BROWSER turns it off; without a display on Linux it is not tried", () => {
    expect(browserUnavailable({ PIG_NO_BROWSER: "1", DISPLAY: ":0" }, "linux")).toBe("PIG_NO_BROWSER is set");
    expect(browserUnavailable({ PIG_NO_BROWSER: "0", DISPLAY: ":0" }, "linux")).toBeUndefined();
    expect(browserUnavailable({}, "linux")).toBe("there is no graphical display");
    expect(browserUnavailable({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBeUndefined();
    expect(browserUnavailable({}, "darwin")).toBeUndefined();
  });

  test("each platform's opener gets the URL as one argument, with no shell", () => {
    const url = "https://a.example/?a=1&b=$(touch x)";
    expect(browserCommand(url, "linux")).toEqual(["xdg-open", url]);
    expect(browserCommand(url, "darwin")).toEqual(["open", url]);
    expect(browserCommand(url, "win32")).toEqual(["rundll32", "url.dll,FileProtocolHandler", url]);
  });

  test("only http(s) pages are opened", () => {
    expect(isWebUrl("https://a.example/x")).toBe(true);
    expect(isWebUrl("http://127.0.0.1:1/x")).toBe(true);
    expect(isWebUrl("file:///etc/passwd")).toBe(false);
    expect(isWebUrl("--help")).toBe(false);
    expect(openBrowser("file:///etc/passwd", { DISPLAY: ":0" })).toBe(false);
    expect(openBrowser("https://a.example/", { PIG_NO_BROWSER: "1", DISPLAY: ":0" })).toBe(false);
  });
});
