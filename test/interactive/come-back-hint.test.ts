/** The command printed on leaving that opens the session again. */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { comeBackCommand } from "../../src/modes/interactive/come-back-hint.ts";
import { HEADER, writeSession } from "../helpers/sessions.ts";
import { tempDir } from "../helpers/tmp.ts";

describe("the command that comes back to a session", () => {
  function agentWithSessions(ids: string[]) {
    const agentDir = tempDir();
    const dir = join(agentDir, "sessions", "--work--");
    mkdirSync(dir, { recursive: true });
    ids.forEach((id, i) => writeSession([{ ...HEADER, id }], { dir, name: `${i}.jsonl` }));
    return { agentDir, dir };
  }

  test("the shortest prefix no other session starts with (8 digits at least)", () => {
    const { agentDir, dir } = agentWithSessions(["01a24bab-2f4d-7000-8000-000000000001", "01a24bab-2f9e-7000-8000-000000000002", "01b00000-0000-7000-8000-000000000003"]);
    const input = { sessionDir: dir, agentDir, sessionDirFlag: undefined };
    expect(comeBackCommand({ ...input, saved: { id: "01a24bab-2f4d-7000-8000-000000000001" } })).toBe("pig --session 01a24bab-2f4");
    expect(comeBackCommand({ ...input, saved: { id: "01b00000-0000-7000-8000-000000000003" } })).toBe("pig --session 01b00000");
  });

  test("nothing when the session was not saved or is kept in memory", () => {
    const { agentDir, dir } = agentWithSessions([]);
    expect(comeBackCommand({ saved: undefined, sessionDir: dir, agentDir, sessionDirFlag: undefined })).toBeUndefined();
    expect(comeBackCommand({ saved: { id: "01a24bab-2f4d" }, sessionDir: undefined, agentDir, sessionDirFlag: undefined })).toBeUndefined();
  });

  test("a session folder given by --session-dir is given again, quoted for the shell", () => {
    const { agentDir } = agentWithSessions([]);
    const dir = join(tempDir(), "it's here");
    mkdirSync(dir);
    writeSession([{ ...HEADER, id: "01c00000-0000-7000-8000-000000000004" }], { dir });
    expect(comeBackCommand({ saved: { id: "01c00000-0000-7000-8000-000000000004" }, sessionDir: dir, agentDir, sessionDirFlag: dir })).toBe(
      `pig --session-dir '${dir.replace("it's", "it'\\''s")}' --session 01c00000`,
    );
  });
});
