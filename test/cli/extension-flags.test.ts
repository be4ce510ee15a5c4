import { describe, expect, test } from "bun:test";
import { parseCliArgs, resolveExtensionFlags } from "../../src/cli/args.ts";
import { UsageError } from "../../src/cli/errors.ts";
import { extensionFlagsHelp, MAIN_HELP, mainHelp } from "../../src/cli/help.ts";
import { FlagRegistry } from "../../src/extensions/flags.ts";

function registry(): FlagRegistry {
  const flags = new FlagRegistry();
  flags.register({ name: "plan", type: "boolean", description: "Plan before acting" }, "/ext/plan.ts");
  flags.register({ name: "level", type: "string", default: "low" }, "/ext/level.ts");
  return flags;
}

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("no usage error");
}

describe("extension flags, parsed in two phases", () => {
  test("an option pig does not know is kept aside, not refused, until extensions have registered", () => {
    const args = parseCliArgs(["--plan", "fix it", "--level=high", "-p"]);
    expect(args.print).toBe(true);
    expect(args.pendingFlags).toEqual([{ name: "plan", nextMessage: 0 }, { name: "level", inline: "high" }]);
  });

  test("a boolean flag leaves the next word a message; a string flag takes it as its value", () => {
    const flags = registry();
    const args = resolveExtensionFlags(parseCliArgs(["--plan", "fix it", "--level", "high", "then this"]), flags);
    expect(args.messages).toEqual(["fix it", "then this"]);
    expect(args.pendingFlags).toBeUndefined();
    expect(flags.getFlag("plan")).toBe(true);
    expect(flags.getFlag("level")).toBe("high");
  });

  test("--name=value works for strings; a flag not given keeps its default", () => {
    const flags = registry();
    resolveExtensionFlags(parseCliArgs(["--level=mid", "@file.txt"]), flags);
    expect(flags.getFlag("level")).toBe("mid");
    const fresh = registry();
    resolveExtensionFlags(parseCliArgs(["hello"]), fresh);
    expect(fresh.getFlag("level")).toBe("low");
    expect(fresh.getFlag("plan")).toBeUndefined();
  });

  test("a word starting with - or @ is never taken as a value", () => {
    const flags = registry();
    expect(usageError(() => resolveExtensionFlags(parseCliArgs(["--level", "-p"]), flags))).toBe('Extension flag "--level" requires a value');
    const args = parseCliArgs(["--level", "@a.txt"]);
    expect(args.files).toEqual(["a.txt"]);
  });

  test("only then is an option nobody registered an error naming it (all of them)", () => {
    expect(usageError(() => resolveExtensionFlags(parseCliArgs(["--bogus"]), registry()))).toBe("Unknown option '--bogus'");
    expect(usageError(() => resolveExtensionFlags(parseCliArgs(["--one", "x", "--plan", "--two"]), registry()))).toBe("Unknown options '--one', '--two'");
    // Single-dash options are pig's alone: refused at once.
    expect(usageError(() => parseCliArgs(["-x"]))).toBe("Unknown option '-x'");
  });

  test("a boolean flag accepts =true / =false, nothing else", () => {
    const flags = registry();
    resolveExtensionFlags(parseCliArgs(["--plan=false"]), flags);
    expect(flags.getFlag("plan")).toBe(false);
    expect(usageError(() => resolveExtensionFlags(parseCliArgs(["--plan=yes"]), registry()))).toContain("--plan is a switch");
  });

  test("after --, nothing is a flag", () => {
    const args = resolveExtensionFlags(parseCliArgs(["--", "--plan"]), registry());
    expect(args.messages).toEqual(["--plan"]);
  });
});

describe("--help", () => {
  test("lists extension flags under their own heading, each with the extension that registered it", () => {
    const help = mainHelp(registry().list());
    expect(help).toContain("Extension flags:\n      --plan                       Plan before acting\n                                   from /ext/plan.ts\n");
    expect(help).toContain("      --level <value>              (default: low)\n                                   from /ext/level.ts\n");
    expect(help.indexOf("Extension flags:")).toBeGreaterThan(help.indexOf("--version"));
    expect(help.indexOf("Extension flags:")).toBeLessThan(help.indexOf("@file attaches"));
  });

  test("without extension flags it is pig's own help as it was", () => {
    expect(mainHelp()).toBe(MAIN_HELP);
    expect(extensionFlagsHelp([])).toBe("");
  });
});
