import { expect, test } from "bun:test";
import { pythonVersion } from "../../scripts/release/python-wheel.ts";

test("a release version becomes the wheel's PEP 440 version; a pre-release Python cannot order is refused, naming --version", () => {
  expect(pythonVersion("1.2.0")).toBe("1.2.0");
  expect(pythonVersion("1.2.0-rc.1")).toBe("1.2.0rc1");
  expect(pythonVersion("1.2.0-rc1")).toBe("1.2.0rc1");
  expect(pythonVersion("2.0.0-alpha.3")).toBe("2.0.0a3");
  expect(pythonVersion("2.0.0-beta.10")).toBe("2.0.0b10");
  expect(() => pythonVersion("1.2.0-nightly.5")).toThrow("--version 1.2.0-nightly.5: the Python wheel needs a pre-release Python can order: -alpha.N, -beta.N or -rc.N (PEP 440), not -nightly.5");
  expect(() => pythonVersion("1.2")).toThrow('--version "1.2": not a version');
});
