/**
 * `pi.exec` in an extension run by the built binary, as Pi 1.x has it: `maxBuffer` cuts the
 * output (stdout and stderr together) and ends the command with `truncated: true`; a command a
 * signal ends reports 128 + the signal's number; a bad `maxBuffer` is a RangeError.
 */
import { expect, test } from "bun:test";
import { extensionWorlds, runReportingTool } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

const EXTENSION = `
export default function (pi) {
  pi.registerTool({
    name: "run_commands",
    label: "Run commands",
    description: "Runs commands",
    parameters: { type: "object", properties: {} },
    async execute() {
      const sh = (script, options) => pi.exec("sh", ["-c", script], options);
      const report = {
        cut: await sh("printf 0123456789; printf abcdef >&2; sleep 30", { maxBuffer: 12 }),
        fits: await sh("printf 0123456789", { maxBuffer: 10 }),
        nothing: await sh("echo hi", { maxBuffer: 0 }),
        killed9: await sh("kill -9 $$"),
        // The shell's \`sleep\` outlives it, holding the pipes: the result does not wait for it.
        timedOut: await sh("sleep 30; true", { timeout: 100 }),
        exit: await sh("exit 7"),
        bad: await sh("true", { maxBuffer: -1 }).then(() => "ran", (e) => e.name + ": " + e.message),
      };
      return { content: [{ type: "text", text: JSON.stringify(report) }], details: {} };
    },
  });
}
`;

test("pi.exec: maxBuffer cuts and ends the command with truncated: true; a signal's death is 128 + its number", async () => {
  const { run, report } = await runReportingTool(world, "run_commands", { files: { "ext/exec.ts": EXTENSION }, pigArgs: ["-e", "ext/exec.ts"] });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  // 12 bytes in all: the first chunk of stdout whole, then two bytes of stderr (or the other way round).
  expect(report.cut.stdout.length + report.cut.stderr.length).toBe(12);
  expect(report.cut).toMatchObject({ code: 143, killed: true, truncated: true });
  expect(report.fits).toEqual({ stdout: "0123456789", stderr: "", code: 0, killed: false, truncated: false });
  // `echo` may exit before it is ended: code 0 then, which a cut result turns into 1.
  expect(report.nothing).toMatchObject({ stdout: "", stderr: "", killed: true, truncated: true });
  expect([1, 143]).toContain(report.nothing.code);
  expect(report.killed9).toEqual({ stdout: "", stderr: "", code: 137, killed: false, truncated: false });
  expect(report.timedOut).toEqual({ stdout: "", stderr: "", code: 143, killed: true, truncated: false });
  expect(report.exit).toEqual({ stdout: "", stderr: "", code: 7, killed: false, truncated: false });
  expect(report.bad).toMatch(/^RangeError: maxBuffer must be an integer between 0 and \d+ bytes$/);
});
