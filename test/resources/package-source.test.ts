import { describe, expect, test } from "bun:test";
import { PackageSourceError, parsePackageSource, samePackage } from "../../src/resources/package-source.ts";

const parse = (raw: string) => parsePackageSource(raw, "/base");

describe("package sources", () => {
  test("npm: names, scoped names and versions (a version pins)", () => {
    expect(parse("npm:pi-skills")).toEqual({ kind: "npm", raw: "npm:pi-skills", name: "pi-skills", pinned: false });
    expect(parse("npm:pi-skills@1.2.3")).toMatchObject({ name: "pi-skills", version: "1.2.3", pinned: true });
    expect(parse("npm:@org/tools")).toMatchObject({ name: "@org/tools", pinned: false });
    expect(parse("npm:@org/tools@^2")).toMatchObject({ name: "@org/tools", version: "^2", pinned: true });
  });

  test("git shorthands and URLs, with refs (a ref pins)", () => {
    expect(parse("git:github.com/me/pkg")).toEqual({ kind: "git", raw: "git:github.com/me/pkg", url: "https://github.com/me/pkg", dir: "github.com/me/pkg", pinned: false });
    expect(parse("git:github.com/me/pkg@v1")).toMatchObject({ url: "https://github.com/me/pkg", ref: "v1", pinned: true });
    expect(parse("git:git@github.com:me/pkg.git@main")).toMatchObject({ url: "git@github.com:me/pkg.git", dir: "github.com/me/pkg", ref: "main" });
    expect(parse("https://gitlab.com/a/b.git")).toMatchObject({ url: "https://gitlab.com/a/b.git", dir: "gitlab.com/a/b", pinned: false });
    expect(parse("ssh://git@host.example:2222/a/b@abc123")).toMatchObject({ url: "ssh://git@host.example:2222/a/b", dir: "host.example/a/b", ref: "abc123" });
    expect(parse("file:///tmp/repo@v2")).toMatchObject({ url: "file:///tmp/repo", dir: "file/tmp/repo", ref: "v2" });
  });

  test("anything else is a local path, relative to the base", () => {
    expect(parse("./pkg")).toEqual({ kind: "local", raw: "./pkg", path: "/base/pkg" });
    expect(parse("pi-skills")).toEqual({ kind: "local", raw: "pi-skills", path: "/base/pi-skills" });
    expect(parse("/abs/pkg")).toMatchObject({ path: "/abs/pkg" });
  });

  test("what cannot be a source says why, quoting it", () => {
    const message = (raw: string) => {
      try {
        parse(raw);
      } catch (error) {
        expect(error).toBeInstanceOf(PackageSourceError);
        return (error as Error).message;
      }
      throw new Error(`${raw} parsed`);
    };
    expect(message("")).toBe('package source "": is empty');
    expect(message("npm:Not A Name")).toBe('package source "npm:Not A Name": "Not A Name" is not an npm package name');
    expect(message("npm:x@")).toBe('package source "npm:x@": has an empty version after \'@\'');
    expect(message("git:nohost")).toBe('package source "git:nohost": must be git:<host>/<path> or git:git@<host>:<path>');
    expect(message("git:github.com/a/../../etc")).toContain("does not name a repository");
    expect(message("file://elsewhere/x")).toContain("a file:// URL names a path on this machine");
  });

  test("the same package whatever its pin", () => {
    expect(samePackage(parse("npm:a@1"), parse("npm:a"))).toBe(true);
    expect(samePackage(parse("git:github.com/me/pkg@v1"), parse("https://github.com/me/pkg"))).toBe(true);
    expect(samePackage(parse("npm:a"), parse("npm:b"))).toBe(false);
  });
});
