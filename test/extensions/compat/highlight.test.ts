// Pi's highlightCode and getLanguageFromPath as pi-subagents' transcript view calls them: the
// language of a read file's path, then that file's text as lines to draw.
import { describe, expect, test } from "bun:test";
import { getLanguageFromPath, highlightCode } from "../../../src/extensions/compat/coding-agent.ts";

describe("getLanguageFromPath", () => {
  test("names upstream's language for a file's extension, in any case", () => {
    expect(getLanguageFromPath("src/tui/fleet.ts")).toBe("typescript");
    expect(getLanguageFromPath("/abs/App.TSX")).toBe("typescript");
    expect(getLanguageFromPath("lib/x.mjs")).toBe("javascript");
    expect(getLanguageFromPath("main.py")).toBe("python");
    expect(getLanguageFromPath("infra/main.tf")).toBe("hcl");
    expect(getLanguageFromPath("config.yml")).toBe("yaml");
    expect(getLanguageFromPath("include/a.hpp")).toBe("cpp");
  });

  test("a name without an extension counts whole; an unknown one has no language", () => {
    expect(getLanguageFromPath("Makefile")).toBe("makefile");
    expect(getLanguageFromPath("docker/Dockerfile")).toBe("dockerfile");
    expect(getLanguageFromPath("README")).toBeUndefined();
    expect(getLanguageFromPath("archive.tar.gz")).toBeUndefined();
    expect(getLanguageFromPath(".bashrc")).toBeUndefined();
  });
});

describe("highlightCode", () => {
  test("gives the code's lines, unstyled, with or without a language", () => {
    const output = "const a = 1;\n\nexport default a;";
    const language = getLanguageFromPath("a.ts");
    expect(highlightCode(output, language)).toEqual(["const a = 1;", "", "export default a;"]);
    expect(highlightCode(output)).toEqual(output.split("\n"));
    expect(highlightCode("plain prose", "no-such-language")).toEqual(["plain prose"]);
    expect(highlightCode("")).toEqual([""]);
  });
});
