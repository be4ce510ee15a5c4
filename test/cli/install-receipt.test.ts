import { expect, test } from "bun:test";
import { formatInstallReceipt, parseInstallReceipt, type InstallReceipt } from "../../src/cli/install-receipt.ts";

const receipt: InstallReceipt = { installedBy: "install.sh", binary: "pig", target: "linux-x64-musl", version: "1.2.0", releaseUrl: "https://github.com/pig-coding-agent/pig/releases" };

test("a receipt as install.sh writes it is read; one written by install.ps1 with a byte-order mark too", () => {
  expect(parseInstallReceipt(formatInstallReceipt(receipt), "r")).toEqual(receipt);
  const ps: InstallReceipt = { ...receipt, installedBy: "install.ps1", binary: "pig.exe", target: "windows-x64" };
  expect(parseInstallReceipt(`\uFEFF${JSON.stringify(ps)}`, "r")).toEqual(ps);
});

test("each mistake in a receipt names the file and the field", () => {
  const bad = (change: object) => () => parseInstallReceipt(JSON.stringify({ ...receipt, ...change }), "/b/.pig-install.json");
  expect(() => parseInstallReceipt("{", "/b/.pig-install.json")).toThrow("/b/.pig-install.json: not JSON");
  expect(bad({ installedBy: "brew" })).toThrow("/b/.pig-install.json: installedBy:");
  expect(bad({ binary: "../pig" })).toThrow("binary: a file name, not a path");
  expect(bad({ target: "Linux x64" })).toThrow("target: not a release target");
  expect(bad({ version: "latest" })).toThrow("version: not a version");
  expect(bad({ releaseUrl: "github releases" })).toThrow("releaseUrl: not a URL");
});
