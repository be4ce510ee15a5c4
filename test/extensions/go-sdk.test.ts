/**
 * The Go SDK's own tests (sdk/go: the protocol against a fake host written from
 * docs/extension-protocol.md, the session mirror, sessionfile, the RPC client against a fake
 * pig) under the race detector, and `go vet` over the SDK, the examples and the Go fixture.
 */
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { describeNeeding } from "../helpers/needs.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const GO = Bun.which("go");
/** Every Go module of the repository: the SDK (its rpc package included), the examples, the fixture. */
const GO_DIRS = ["sdk/go", "examples/extensions/go", "examples/go", "test/fixtures/extensions/go-lazy"];

function go(dir: string, args: string[]): { code: number; output: string } {
  const proc = Bun.spawnSync([GO!, ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode ?? -1, output: `${proc.stdout.toString()}${proc.stderr.toString()}` };
}

describeNeeding("go", GO !== null, "Go SDK", () => {
  test("go test -race ./... passes in sdk/go", () => {
    const run = go(join(ROOT, "sdk", "go"), ["test", "-race", "-count=1", "./..."]);
    expect(run.output).toMatch(/^ok\s+github\.com\/pig-coding-agent\/pig\/sdk\/go\s/m);
    expect(run.output).toMatch(/^ok\s+github\.com\/pig-coding-agent\/pig\/sdk\/go\/sessionfile\s/m);
    expect(run.output).toMatch(/^ok\s+github\.com\/pig-coding-agent\/pig\/sdk\/go\/rpc\s/m);
    expect(run.code).toBe(0);
  }, 180_000);

  test("go vet is clean for the SDK, the examples and the fixture, and gofmt has nothing to change", () => {
    for (const dir of GO_DIRS) {
      const vet = go(join(ROOT, dir), ["vet", "./..."]);
      expect({ dir, ...vet }).toEqual({ dir, code: 0, output: "" });
    }
    const gofmt = Bun.spawnSync([Bun.which("gofmt") ?? "gofmt", "-l", ...GO_DIRS], { cwd: ROOT, stdout: "pipe" });
    expect(gofmt.stdout.toString()).toBe("");
  }, 120_000);
});
