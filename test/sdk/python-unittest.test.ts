/**
 * The Python SDK's own unit tests (sdk/python/tests, standard library unittest), run as part of
 * the suite: they pass, and there are some.
 */
import { expect, test } from "bun:test";
import { resolve } from "node:path";

const SDK = resolve(import.meta.dir, "..", "..", "sdk", "python");

test("the Python SDK's unit tests pass under python3 -m unittest", async () => {
  const proc = Bun.spawn(["python3", "-m", "unittest", "discover", "-s", "tests", "-t", "."], { cwd: SDK, stdout: "pipe", stderr: "pipe" });
  const [report, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(report).toMatch(/\nRan [1-9]\d* tests? in /);
  expect(report).toMatch(/\nOK\b/);
  expect(code).toBe(0);
}, 60_000);
