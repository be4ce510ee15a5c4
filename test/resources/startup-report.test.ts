/** The startup lines: short, one per category, colour only when asked. */
import { describe, expect, test } from "bun:test";
import { formatStartupReport, type StartupReportInput } from "../../src/resources/startup-report.ts";

const base: StartupReportInput = {
  version: "0.1.0",
  model: "anthropic/claude-opus-4-7",
  thinkingLevel: "medium",
  cwd: "/home/u/proj",
  session: { path: "/home/u/.pig/agent/sessions/--home-u-proj--/s.jsonl", continued: false },
  contextFiles: [{ path: "/home/u/.pig/agent/AGENTS.md" }, { path: "/home/u/proj/AGENTS.md" }],
  skills: [],
  templates: [],
  extensions: [],
  diagnostics: [],
};

describe("startup report", () => {
  test("one line per category, home shortened, empty categories left out", () => {
    expect(formatStartupReport(base, { color: false, home: "/home/u" })).toBe(
      [
        "pig 0.1.0 · anthropic/claude-opus-4-7 · thinking medium",
        "cwd        ~/proj",
        "session    new ~/.pig/agent/sessions/--home-u-proj--/s.jsonl",
        "context    ~/.pig/agent/AGENTS.md, ~/proj/AGENTS.md",
      ].join("\n"),
    );
  });

  test("long lists are cut with +N more; templates show as commands", () => {
    const skills = ["a", "b", "c", "d", "e", "f", "g"].map((name) => ({ name, path: `/s/${name}/SKILL.md` }));
    const text = formatStartupReport(
      { ...base, skills, templates: [{ name: "review", path: "/p/review.md" }], extensions: ["/home/u/ext/x.ts"] },
      { color: false, home: "/home/u" },
    );
    expect(text).toContain("skills     a, b, c, d, e +2 more");
    expect(text).toContain("prompts    /review");
    expect(text).toContain("extensions ~/ext/x.ts");
    expect(formatStartupReport({ ...base, skills }, { color: false, maxItems: 2 })).toContain("skills     a, b +5 more");
  });

  test("no model, a continued session and an unsaved one read plainly", () => {
    expect(formatStartupReport({ ...base, model: undefined }, { color: false })).toStartWith("pig 0.1.0 · no model · thinking medium");
    expect(formatStartupReport({ ...base, session: { path: "/s.jsonl", continued: true } }, { color: false })).toContain(
      "session    continued /s.jsonl",
    );
    expect(formatStartupReport({ ...base, session: { continued: false } }, { color: false })).toContain("session    not saved");
  });

  test("trust is shown unless there was nothing to trust", () => {
    const line = (trust: StartupReportInput["trust"]) =>
      formatStartupReport({ ...base, trust }, { color: false }).split("\n").find((l) => l.startsWith("project")) ?? "";
    expect(line({ trusted: true, reason: "nothing-to-trust" })).toBe("");
    expect(line({ trusted: true, reason: "remembered" })).toBe("project    trusted (remembered)");
    expect(line({ trusted: true, reason: "flag" })).toBe("project    trusted (by flag)");
    expect(line({ trusted: false, reason: "undecided" })).toStartWith("project    not trusted (not decided yet): its .pig/ settings");
  });

  test("each diagnostic gets its own line, after the categories", () => {
    const text = formatStartupReport(
      {
        ...base,
        diagnostics: [
          { level: "warning", message: "settings.json: not valid JSON" },
          { level: "error", message: "Extension path does not exist: /x" },
        ],
      },
      { color: false },
    );
    expect(text.split("\n").slice(-2)).toEqual(["warning: settings.json: not valid JSON", "error: Extension path does not exist: /x"]);
  });

  test("colour only when asked, whatever the environment says", () => {
    const plain = formatStartupReport(base, { color: false });
    const colored = formatStartupReport({ ...base, diagnostics: [{ level: "error", message: "bad" }] }, { color: true });
    expect(plain).not.toContain("\x1b[");
    expect(colored).toContain("\x1b[1mpig 0.1.0");
    expect(colored).toContain("\x1b[31merror:");
    expect(colored.replace(/\x1b\[[0-9;]*m/g, "")).toBe(`${plain}\nerror: bad`);
  });
});
