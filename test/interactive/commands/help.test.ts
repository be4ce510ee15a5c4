/** The command catalog (pig's commands, templates, skills), what an unknown command is told, `/help` and `/exit`. */
import { describe, expect, test } from "bun:test";
import { commandCatalog, unknownCommandMessage } from "../../../src/modes/interactive/commands/catalog.ts";
import { findCommand } from "../../../src/modes/interactive/commands/dispatch.ts";
import { helpLines } from "../../../src/modes/interactive/commands/help.ts";
import { builtinCommands } from "../../../src/modes/interactive/commands/index.ts";
import { resolveKeybindings } from "../../../src/modes/interactive/input/keybindings.ts";
import type { LoadedResources } from "../../../src/resources/load-resources.ts";
import { makeHost } from "./fake-host.ts";

const commands = builtinCommands();
const resources = {
  templates: [
    { name: "review", description: "Review one file", argumentHint: "<file>" },
    // Named like one of pig's commands: the command runs, so the template is not offered.
    { name: "model", description: "A template nobody can reach" },
  ],
  skills: [{ name: "lint", description: "Lint the project\nwith the project's linter" }],
};

describe("commandCatalog", () => {
  test("pig's commands, then templates, then skills as skill:name", () => {
    const entries = commandCatalog(commands, resources);
    expect(entries.filter((e) => e.source === "template")).toEqual([{ name: "review", description: "Review one file", argumentHint: "<file>", source: "template" }]);
    expect(entries.filter((e) => e.source === "skill").map((e) => e.name)).toEqual(["skill:lint"]);
    expect(entries.filter((e) => e.name === "model")).toHaveLength(1);
    expect(commandCatalog(commands, resources, { skills: false }).some((e) => e.source === "skill")).toBe(false);
  });

  test("an unknown command is pointed to /help, and to the name it is probably a slip for", () => {
    const entries = commandCatalog(commands, resources);
    expect(unknownCommandMessage("foo", entries)).toBe("Unknown command /foo — /help lists the commands");
    expect(unknownCommandMessage("mdoel", entries)).toBe("Unknown command /mdoel — did you mean /model? /help lists the commands");
    expect(unknownCommandMessage("reveiw", entries)).toBe("Unknown command /reveiw — did you mean /review? /help lists the commands");
    expect(unknownCommandMessage("skill:litn", entries)).toBe("Unknown command /skill:litn — did you mean /skill:lint? /help lists the commands");
  });
});

describe("/help", () => {
  const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

  function helpText(options: { enableSkillCommands?: boolean } = {}) {
    const host = makeHost({ inMemory: true });
    host.resources = { ...host.resources, ...(resources as unknown as Pick<LoadedResources, "templates" | "skills">) };
    if (options.enableSkillCommands === false) host.settings.settings.enableSkillCommands = false;
    host.keybindings = resolveKeybindings({ "app.model.select": "ctrl+k" }, "keybindings.json").bindings;
    return helpLines(host, commands).map(plain);
  }

  test("every command in sections, alphabetically, with one line of what it does", () => {
    const lines = helpText();
    const at = (title: string) => lines.indexOf(title);
    expect([at("Commands"), at("Prompt templates"), at("Skills"), at("Keys")].every((i, n, all) => i >= 0 && (n === 0 || i > all[n - 1]!))).toBe(true);
    const names = lines.slice(at("Commands") + 1, at("Prompt templates")).map((line) => line.trim().split(/\s+/)[0]!);
    expect(names).toEqual(commands.map((c) => `/${c.name}`).sort());
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\/exit\s+Quit pig \(as \/quit\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\/review <file>\s+Review one file$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\/skill:lint\s+Lint the project$/));
  });

  test("the keys are the ones in force, with how to send a leading slash", () => {
    const lines = helpText();
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Ctrl\+K\s+choose a model$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\/\/text\s+send text that starts with a slash/));
  });

  test("skills are left out when enableSkillCommands is off", () => {
    const lines = helpText({ enableSkillCommands: false });
    expect(lines).not.toContain("Skills");
    expect(lines.join("\n")).not.toContain("/skill:lint");
  });
});

describe("/exit", () => {
  test("quits, as /quit does", async () => {
    const host = makeHost({ inMemory: true });
    await findCommand(commands, "exit")!.run(host, "");
    expect(host.exited).toBe(true);
  });
});
