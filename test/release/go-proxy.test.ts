import { describe, expect, test } from "bun:test";
import { escapeModulePath, goHash1, moduleFiles, moduleFromGoMod } from "../../scripts/release/go-proxy.ts";

describe("the Go module proxy directory", () => {
  test("module paths and versions are case-encoded as Go's proxy protocol says", () => {
    expect(escapeModulePath("github.com/pig-coding-agent/pig/sdk/go")).toBe("github.com/pig-coding-agent/pig/sdk/go");
    expect(escapeModulePath("github.com/BurntSushi/toml")).toBe("github.com/!burnt!sushi/toml");
    expect(escapeModulePath("v1.0.0-RC1")).toBe("v1.0.0-!r!c1");
  });

  test("the module path comes from go.mod; one without a dot in its first element is refused, naming the file", () => {
    expect(moduleFromGoMod("// c\nmodule github.com/pig-coding-agent/pig/sdk/go\n\ngo 1.19\n", "sdk/go/go.mod")).toBe("github.com/pig-coding-agent/pig/sdk/go");
    expect(moduleFromGoMod('module "example.com/x"\n', "go.mod")).toBe("example.com/x");
    expect(() => moduleFromGoMod("module pig/sdk\n", "sdk/go/go.mod")).toThrow("sdk/go/go.mod: module path pig/sdk cannot be fetched with go get (its first element has no dot)");
    expect(() => moduleFromGoMod("go 1.19\n", "sdk/go/go.mod")).toThrow("sdk/go/go.mod: no module line");
  });

  test("the zip takes the tracked regular files, leaving out nested modules, vendor and dot directories", () => {
    const tracked = ["go.mod", "a.go", "a_test.go", "rpc/c.go", "tools/go.mod", "tools/t.go", "vendor/x/y.go", ".github/w.yml", "link.go", "README.md"];
    expect(moduleFiles(tracked, (p) => p !== "link.go")).toEqual(["README.md", "a.go", "a_test.go", "go.mod", "rpc/c.go"]);
  });

  test("the h1 hash is Go's dirhash: the value go get wrote to a go.sum for this go.mod", () => {
    const goMod = Buffer.from("module github.com/pig-coding-agent/pig/sdk/go\n\ngo 1.19\n");
    expect(goHash1([{ name: "go.mod", data: goMod }])).toBe("h1:CGSEEBEdwX3UY5wAogkFLFySOk+TDy2FzHzRXazvsLk=");
    expect(goHash1([{ name: "b", data: Buffer.from("2") }, { name: "a", data: Buffer.from("1") }])).toBe(goHash1([{ name: "a", data: Buffer.from("1") }, { name: "b", data: Buffer.from("2") }]));
  });
});
