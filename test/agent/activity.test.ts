/**
 * The session's busy state in one place: what runs, stopping it, and waiting until nothing does.
 */
import { describe, expect, test } from "bun:test";
import { Activity } from "../../src/agent/activity.ts";
import { makeSession } from "../helpers/scripted-session.ts";

describe("Activity", () => {
  test("work is active while it runs; stopping aborts its signal; a newer controller survives the older one's end", async () => {
    const activity = new Activity();
    let seen: AbortSignal | undefined;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const work = activity.track(activity.during("compaction", async (signal) => ((seen = signal), await held)));
    expect(activity.isCompacting).toBe(true);
    expect(activity.isIdle).toBe(false);
    activity.stopAll();
    expect(seen!.aborted).toBe(true);
    release();
    await work;
    await activity.waitForIdle();
    expect(activity.isIdle).toBe(true);
    const first = activity.begin("bash");
    const second = activity.begin("bash");
    activity.end("bash", first);
    expect(activity.isActive("bash")).toBe(true);
    activity.end("bash", second);
    expect(activity.abort("bash")).toBe(false);
  });

  test("a shell command is not stopped by stopping everything else", () => {
    const activity = new Activity();
    const bash = activity.begin("bash");
    activity.stopAll();
    expect(bash.signal.aborted).toBe(false);
  });
});

describe("the session's one abort", () => {
  test("stops the run and waits for it; queued texts come back unless kept", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { session } = makeSession([{ text: "slow", gate }]);
    const run = session.prompt("go");
    // The run is under way as soon as the prompt is accepted.
    expect(session.isStreaming).toBe(true);
    session.followUp("later");
    expect(session.isIdle).toBe(false);
    expect(await session.abort({ keepQueued: true })).toEqual([]);
    expect(session.isIdle).toBe(true);
    expect(session.followUps.texts).toEqual(["later"]);
    expect(await session.abort()).toEqual(["later"]);
    await run;
    open();
  });
});
