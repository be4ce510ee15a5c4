/**
 * `/piglet` in a real terminal (tmux): switching by name and from the picker changes what the
 * next request carries, the switches are recorded in the session, and `pig -c` restores the last.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { interactivePig, sessionEntries } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const EXAMPLES = join(import.meta.dir, "..", "..", "examples", "piglets");
const { start, open } = interactivePig();

interface Body {
  model: string;
  messages: { content: unknown }[];
  tools?: { function: { name: string } }[];
}
const toolNames = (b: Body) => (b.tools ?? []).map((t) => t.function.name).sort();
const replies = (screen: string) => (screen.match(/↑\d/g) ?? []).length;

describeNeeding("tmux", tmuxAvailable(), "switching Piglets in interactive mode", () => {
  test("/piglet reviewer, then /piglet from the picker; pig -c restores the last one", async () => {
    const { tmux, world } = await start(undefined, {
      agentFiles: {
        "piglets/reviewer.md": readFileSync(join(EXAMPLES, "reviewer.md"), "utf8").replace("thinking: high", "model: fake/fake-reasoner\nthinking: high"),
        "piglets/release-helper.json": readFileSync(join(EXAMPLES, "release-helper.json"), "utf8"),
      },
    });
    const body = (index: number) => world.llm.requests[index]!.body as Body;
    tmux.type("/piglet reviewer");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Piglet reviewer: model fake/fake-reasoner; thinking high; tools read, grep, find, ls.");
    tmux.type("first");
    tmux.sendKeys("Enter");
    await tmux.waitFor((s) => world.llm.requests.length === 1 && replies(s) === 1);
    expect(body(0).model).toBe("fake-reasoner");
    expect(toolNames(body(0))).toEqual(["find", "grep", "ls", "read"]);
    expect(String(body(0).messages[0]!.content)).toContain("You are a code reviewer.");

    tmux.type("/piglet");
    tmux.sendKeys("Enter");
    await tmux.waitFor("Switch to Piglet");
    tmux.type("release");
    await tmux.waitFor((s) => s.includes("Search: release█") && s.includes("● release-helper"));
    tmux.sendKeys("Enter");
    await tmux.waitFor("Piglet release-helper: thinking medium; tools read, bash, edit.");
    tmux.type("second");
    tmux.sendKeys("Enter");
    await tmux.waitFor((s) => world.llm.requests.length === 2 && replies(s) === 2);
    expect(toolNames(body(1))).toEqual(["bash", "edit", "read"]);
    expect(String(body(1).messages[0]!.content)).toContain("You help cut releases.");
    expect(String(body(1).messages[0]!.content)).not.toContain("You are a code reviewer.");
    tmux.sendKeys("C-c", "C-c");
    await tmux.waitForExit();

    const switches = sessionEntries(world).filter((e) => e.type === "custom");
    expect(switches).toMatchObject([
      { customType: "pig.piglet", data: { name: "reviewer" } },
      { customType: "pig.piglet", data: { name: "release-helper" } },
    ]);

    const again = open(world, { args: ["-c"] });
    await again.waitFor("›");
    again.type("third");
    again.sendKeys("Enter");
    await again.waitFor((s) => world.llm.requests.length === 3 && replies(s) >= 1);
    expect(toolNames(body(2))).toEqual(["bash", "edit", "read"]);
    expect(String(body(2).messages[0]!.content)).toContain("You help cut releases.");
  });
});
