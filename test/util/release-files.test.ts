import { describe, expect, test } from "bun:test";
import { archiveName, binaryNameInArchive, compareVersions, formatSha256Sums, parseReleaseManifest, parseSha256Sums, releaseFileUrl } from "../../src/util/release-files.ts";

describe("release file names", () => {
  test("a tarball for Unix targets and a zip for Windows, without the version", () => {
    expect(archiveName("linux-x64")).toBe("pig-linux-x64.tar.gz");
    expect(archiveName("linux-arm64-musl")).toBe("pig-linux-arm64-musl.tar.gz");
    expect(archiveName("darwin-arm64")).toBe("pig-darwin-arm64.tar.gz");
    expect(archiveName("windows-x64")).toBe("pig-windows-x64.zip");
    expect(binaryNameInArchive("windows-x64")).toBe("pig.exe");
    expect(binaryNameInArchive("linux-x64")).toBe("pig");
  });

  test("URLs follow GitHub's layout: latest/download or download/v<version>", () => {
    expect(releaseFileUrl("https://github.com/pig-coding-agent/pig/releases/", undefined, "SHA256SUMS")).toBe("https://github.com/pig-coding-agent/pig/releases/latest/download/SHA256SUMS");
    expect(releaseFileUrl("http://127.0.0.1:9/r", "1.2.0", "pig-linux-x64.tar.gz")).toBe("http://127.0.0.1:9/r/download/v1.2.0/pig-linux-x64.tar.gz");
  });
});

describe("SHA256SUMS", () => {
  const a = "a".repeat(64);
  const b = "B".repeat(64);

  test("reads what sha256sum writes, text and binary mode, with CRLF and blank lines", () => {
    const sums = parseSha256Sums(`${a}  pig-linux-x64.tar.gz\r\n\n${b} *pig-windows-x64.zip\n`);
    expect([...sums]).toEqual([
      ["pig-linux-x64.tar.gz", a],
      ["pig-windows-x64.zip", "b".repeat(64)],
    ]);
  });

  test("round-trips what the release writes", () => {
    const text = formatSha256Sums([{ name: "pig-darwin-x64.tar.gz", sha256: a }]);
    expect(text).toBe(`${a}  pig-darwin-x64.tar.gz\n`);
    expect(parseSha256Sums(text).get("pig-darwin-x64.tar.gz")).toBe(a);
  });

  test("a damaged line is an error naming the file and the line, not a missing sum", () => {
    expect(() => parseSha256Sums(`${a}  ok\nnot a sum line\n`, "http://x/SHA256SUMS")).toThrow('http://x/SHA256SUMS line 2: not "<sha256>  <file>": "not a sum line"');
    expect(() => parseSha256Sums(`${a.slice(1)}  short\n`)).toThrow("SHA256SUMS line 1");
  });
});

describe("release.json", () => {
  const good = { version: "1.2.0", files: [{ target: "linux-x64", name: "pig-linux-x64.tar.gz", sha256: "c".repeat(64), bytes: 123 }] };

  test("a good manifest is read as it is", () => {
    expect(parseReleaseManifest(JSON.stringify(good))).toEqual(good);
  });

  test("each mistake names the field", () => {
    expect(() => parseReleaseManifest("{", "r.json")).toThrow("r.json: not JSON");
    expect(() => parseReleaseManifest(JSON.stringify({ ...good, version: "1.2" }))).toThrow("release.json: version: not a version");
    expect(() => parseReleaseManifest(JSON.stringify({ ...good, files: [{ ...good.files[0], sha256: "XYZ" }] }))).toThrow("release.json: files.0.sha256: not a SHA-256");
    expect(() => parseReleaseManifest(JSON.stringify({ ...good, files: [{ ...good.files[0], bytes: 0 }] }))).toThrow("files.0.bytes");
  });
});

describe("compareVersions", () => {
  test("orders release numbers numerically and a pre-release before its release", () => {
    expect(compareVersions("1.10.0", "1.9.9")).toBe(1);
    expect(compareVersions("1.2.0", "1.2.0")).toBe(0);
    expect(compareVersions("0.9.0", "1.0.0")).toBe(-1);
    expect(compareVersions("1.2.0-rc.1", "1.2.0")).toBe(-1);
    expect(compareVersions("1.2.0-rc.2", "1.2.0-rc.10")).toBe(-1);
    expect(compareVersions("1.2.0-rc.1", "1.2.0-beta")).toBe(1);
  });
});
