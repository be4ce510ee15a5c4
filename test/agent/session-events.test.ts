/**
 * The session's event stream before a front end listens: what happened since the keeping began
 * (a session_start handler's appended entry at startup, say) is told to the first front end that
 * subscribes, in order, and to no later one; pig's own observers do not end that keeping.
 */
import { expect, test } from "bun:test";
import type { PigEvent } from "../../src/agent/events.ts";
import { SessionEvents } from "../../src/agent/session-events.ts";

const info = (name: string): PigEvent => ({ type: "session_info_changed", name });

test("the first subscriber is told the events from before it, in order, then the live ones; the second only live ones", () => {
  const events = new SessionEvents();
  const observed: PigEvent[] = [];
  events.observe((e) => observed.push(e));
  events.emit(info("before keeping"));
  events.keepForFirstListener();
  events.emit(info("one"));
  events.emit(info("two"));
  const first: PigEvent[] = [];
  events.subscribe((e) => first.push(e));
  expect(first).toEqual([info("one"), info("two")]);
  events.emit(info("three"));
  const second: PigEvent[] = [];
  events.subscribe((e) => second.push(e));
  events.emit(info("four"));
  expect(first).toEqual([info("one"), info("two"), info("three"), info("four")]);
  expect(second).toEqual([info("four")]);
  expect(observed).toEqual([info("before keeping"), info("one"), info("two"), info("three"), info("four")]);
});

test("after the first subscriber left, nothing is kept for a later one", () => {
  const events = new SessionEvents();
  events.subscribe(() => undefined)();
  events.keepForFirstListener();
  events.emit(info("lost"));
  const later: PigEvent[] = [];
  events.subscribe((e) => later.push(e));
  expect(later).toEqual([]);
});

test("what is kept before anyone listens is bounded", () => {
  const events = new SessionEvents();
  events.keepForFirstListener();
  for (let i = 0; i < 5000; i++) events.emit(info(`n${i}`));
  const first: PigEvent[] = [];
  events.subscribe((e) => first.push(e));
  expect(first.length).toBe(1000);
  expect(first[0]).toEqual(info("n0"));
});
