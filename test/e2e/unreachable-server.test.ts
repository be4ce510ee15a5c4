/**
 * A server pig cannot reach. In the first-run setup: it says it could not connect and why (never
 * "did not list any models"), offers to change the URL and goes on with the new one; the empty
 * key reads "none". In a session: a refused connection to this machine fails at once, with no
 * retries counting down (nothing listens there; waiting will not start it).
 */
import { expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closedPort } from "../helpers/closed-port.ts";
import { interactivePig } from "../helpers/interactive-pig.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { createWorld, fakeModelsJson } from "../helpers/pig-env.ts";
import { tmuxAvailable } from "../helpers/tmux.ts";

const { open, track, start } = interactivePig();


describeNeeding("tmux", tmuxAvailable(), "a server pig cannot reach", () => {
  for (const width of [100, 40]) {
    test(`${width} columns: the setup says why it could not connect, and a changed URL goes on`, async () => {
      const world = track(await createWorld());
      // No provider and no default: the first-run setup.
      rmSync(join(world.agentDir, "models.json"));
      writeFileSync(join(world.agentDir, "settings.json"), JSON.stringify({ quietStartup: true }));
      // Nothing on this machine is probed but the two local servers' ports, which the test leaves alone.
      const tmux = open(world, { width });
      await tmux.waitFor("Another OpenAI-compatible");
      // The custom server is the last choice: Up from the first one wraps round to it.
      tmux.sendKeys("Up");
      await tmux.waitFor(/●\s+Another OpenAI-compatible/);
      tmux.sendKeys("Enter");
      await tmux.waitFor("Server URL");
      const refused = `http://127.0.0.1:${closedPort()}/v1`;
      tmux.type(refused);
      tmux.sendKeys("Enter");
      await tmux.waitFor("A name for this provider");
      tmux.sendKeys("Enter");
      await tmux.waitFor("API key");
      tmux.sendKeys("Enter");
      await tmux.waitFor("What now?");
      // Lines the terminal wrapped are joined back, so the words read whole at any width.
      const joined = tmux.captureJoined();
      expect(joined).toContain(`Could not connect to ${refused}: nothing is listening there (connection refused).`);
      expect(joined).not.toContain("did not list any models");
      // The empty key's closed question says there is none (at 40 columns the closed line is cut before its answer).
      if (width === 100) expect(joined).toMatch(/API key \(leave empty[^\n]*· none\n/);
      expect(joined).toMatch(/Change the URL/);
      tmux.sendKeys("Enter");
      await tmux.waitFor(/Server URL[\s\S]*127\.0\.0\.1/);
      // The old URL is offered for editing: cleared here, the fake server's typed instead.
      tmux.sendKeys(...Array<string>(refused.length + 5).fill("BSpace"));
      tmux.type(`${world.llm.url}/v1`);
      tmux.sendKeys("Enter");
      await tmux.waitFor(`Added provider "custom"`);
      await tmux.waitFor("›");
      tmux.type("hello there");
      tmux.sendKeys("Enter");
      await tmux.waitFor(/^ok$/m);
    });
  }

  test("a refused connection to this machine during a session fails at once, without retries", async () => {
    const port = closedPort();
    // A minute between attempts: a retry would keep the error from showing while the test waits.
    const { world, tmux } = await start(undefined, { settings: { retry: { baseDelayMs: 60_000 } } });
    writeFileSync(join(world.agentDir, "models.json"), JSON.stringify(fakeModelsJson(`http://127.0.0.1:${port}/v1`, {}), null, 2));
    // The file is read at start: a second pig, on the refused address, in the same world.
    tmux.kill();
    const refused = open(world);
    await refused.waitFor("›");
    refused.type("hello");
    refused.sendKeys("Enter");
    const screen = await refused.waitFor("Error: Connection error. (ECONNREFUSED");
    expect(screen).not.toContain("retrying");
    expect(screen).toContain(`127.0.0.1:${port}`);
    expect(screen).toContain("nothing is listening there (is the server running?)");
  });
});
