// The runner's process.stderr: made when first read, and written through at once, so that what a
// process writes just before it exits reaches the pipe pig reads.
import { expect, test } from "bun:test";
import { join } from "node:path";

const CHILD = `
import { writeStderrThrough } from ${JSON.stringify(join(import.meta.dir, "../../../src/extensions/runner/sync-stderr.ts"))};
writeStderrThrough();
const line = "x".repeat(1023) + "\\n";
let called = 0;
for (let i = 0; i < 1024; i++) process.stderr.write(line, () => called++);
process.stderr.write("end-marker\\n");
await Promise.resolve();
console.log(JSON.stringify({ fd: process.stderr.fd, same: process.stderr === process.stderr, called }));
process.exit(0);
`;

test("a megabyte written just before exit reaches the pipe whole; the stream is fd 2, made once, and calls back", async () => {
  const child = Bun.spawn([process.execPath, "-e", CHILD], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(code).toBe(0);
  expect(err.length).toBe(1024 * 1024 + "end-marker\n".length);
  expect(err.endsWith("end-marker\n")).toBe(true);
  expect(JSON.parse(out)).toEqual({ fd: 2, same: true, called: 1024 });
});
