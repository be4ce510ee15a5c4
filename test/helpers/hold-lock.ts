/** Test helper process: opens a session for writing, says so, and holds it until stdin closes. */
import { SessionStore } from "../../src/session/store.ts";

const store = SessionStore.open(process.argv[2]!, { write: true });
process.stdout.write("locked\n");
for await (const _ of Bun.stdin.stream()) {
  // Wait for the parent to close stdin.
}
store.close();
